/**
 * The funnel summary's drop words: the step that loses the most users and the steepest rate drop are found
 * separately, since an early step may lose many of many users and a later one most of few.
 */
import { describe, expect, it } from "vitest";
import { funnelSummary } from "../../../src/tools/ga/funnel.js";

const rows = (steps: [string, number][]) => steps.map(([step, users]) => ({ step, users }));

describe("funnelSummary", () => {
  it("names the step losing the most users and the steepest drop when they differ", () => {
    const funnel = { steps: ["visit", "pricing", "form", "demo"] };
    const summary = funnelSummary(
      rows([
        ["visit", 1000],
        ["pricing", 400],
        ["form", 300],
        ["demo", 30],
      ]),
      funnel,
      false,
    );
    expect(summary).toBe(
      "Closed funnel: of 1,000 active users who did visit, 30 (3 %) reached demo; the most users are lost at " +
        "visit → pricing (600, -60 %), the steepest drop is form → demo (270, -90 %).",
    );
  });

  it("says when they are one step, and when no step loses users (an open funnel may grow)", () => {
    const same = funnelSummary(
      rows([
        ["a", 100],
        ["b", 10],
        ["c", 9],
      ]),
      { steps: ["a", "b", "c"] },
      false,
    );
    expect(same).toBe(
      "Closed funnel: of 100 active users who did a, 9 (9 %) reached c; the most users are lost at a → b " +
        "(90 users, -90 %), which is also the steepest drop.",
    );
    const open = funnelSummary(
      rows([
        ["a", 10],
        ["b", 20],
      ]),
      { steps: ["a", "b"], open: true },
      false,
    );
    expect(open).toBe(
      "Open funnel (users may enter at any step), active users as GA counts them: 10 at a, 20 at b (200 % as many); no step loses users.",
    );
  });
});
