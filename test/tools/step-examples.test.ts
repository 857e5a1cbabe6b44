/**
 * Every ready example a step offers (the console's "Examples") runs on the sandbox and succeeds, with the
 * fields the console's pickers fill (the Google account, its first property and Analytics account) as
 * the form holds them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyticsChoices } from "../../src/console/google-pickers.js";
import { TOOL_STEPS } from "../../src/tools/registry.js";
import { runToolStep } from "../../src/tools/run.js";
import { type ConsoleFixture, startConsoleFixture } from "../helpers/console.js";

describe("the steps' ready examples", () => {
  let fixture: ConsoleFixture;
  let picked: Record<string, string>;
  beforeAll(async () => {
    fixture = await startConsoleFixture();
    const choices = await analyticsChoices(fixture.workspace(), "sandbox");
    const first = choices.accounts.find((account) => account.properties.length > 0);
    if (!first) throw new Error("the sandbox's Google account sees no property");
    picked = {
      account: "sandbox",
      property: first.properties[0]?.id ?? "",
      analytics_account: first.account,
    };
  }, 60_000);
  afterAll(async () => {
    await fixture?.close();
  });

  const cases = TOOL_STEPS.flatMap((step) =>
    step.examples(new Date()).map((example) => [step.id, example.title, example.input] as const),
  );

  it("are offered by every step, with the titles the console promises", () => {
    expect(new Set(cases.map(([id]) => id))).toEqual(new Set(TOOL_STEPS.map((step) => step.id)));
    expect(cases.map(([, title]) => title)).toEqual(
      expect.arrayContaining([
        "Look up a lead by email",
        "Add leads to a static list",
        "Trigger a smart campaign",
        "Export leads created this month",
        "Sessions by channel, last 28 days vs the 28 before",
        "Create a key event",
      ]),
    );
  });

  it.each(cases)("%s: %s succeeds on the sandbox", async (id, _title, input) => {
    const step = TOOL_STEPS.find((one) => one.id === id);
    const fields = Object.keys((step?.input({ accounts: ["sandbox", "reader"] }).shape ?? {}) as object);
    // The picker-filled fields the example leaves to the form.
    const context = Object.fromEntries(
      Object.entries(picked).filter(([name]) => fields.includes(name) && !(name in input)),
    );
    const ctx = await fixture.workspace().toolContext({ progress: () => undefined });
    const result = await runToolStep(id, { ...context, ...input }, ctx);
    expect(result.summary).not.toBe("");
    const data = result.data as Record<string, unknown>;
    if (id === "marketo_api_call") {
      expect(data.record_errors).toEqual([]);
      expect((data.result as unknown[]).length).toBeGreaterThan(0);
    }
    if (id === "google_analytics_run_reports") expect((data.rows as unknown[]).length).toBeGreaterThan(0);
  });
});
