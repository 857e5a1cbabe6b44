/**
 * A step as the console's step bar and card list it (src/console/steps.ts; trial 2026-12-02-s7, findings
 * 15 and 16): the summary is the first whole sentence ("… e.g." is no end), and the API names an agent
 * reads first in a parenthesis ("runReport") are left out of a person's text.
 */
import { describe, expect, it } from "vitest";
import { firstSentence, stepSummary, withoutApiNames } from "../../src/console/steps.js";
import { getToolStep } from "../../src/tools/registry.js";

describe("a step's summary and description in the console", () => {
  it("ends the summary at the first sentence's end, not at an abbreviation", () => {
    expect(firstSentence("Counted per event, e.g. sign-ups or leads. Then more.")).toBe(
      "Counted per event, e.g. sign-ups or leads.",
    );
    expect(firstSentence("No stop at all")).toBe("No stop at all");
    const keyEvents = stepSummary(getToolStep("google_analytics_create_key_events"));
    // Its first sentence whole (the description lost its "e.g." list when the tool list was trimmed).
    expect(keyEvents.summary).toBe(
      "Marks an event of a Google Analytics 4 property as a key event (formerly a conversion).",
    );
  });

  it("leaves out the API names a parenthesis gives first, and keeps the rest of it", () => {
    expect(withoutApiNames("a report (runReport; realtime: the last 30 minutes; or a funnel): rows")).toBe(
      "a report (realtime: the last 30 minutes; or a funnel): rows",
    );
    expect(withoutApiNames("a key event (create_key_event) here")).toBe("a key event here");
    expect(withoutApiNames("a property (display name, time zone)")).toBe(
      "a property (display name, time zone)",
    );
    const reports = stepSummary(getToolStep("google_analytics_run_reports"));
    expect(`${reports.summary} ${reports.description}`).not.toMatch(/runReport/);
  });
});
