/**
 * Run Reports' regular expressions are Google's, RE2's syntax (agent trial 2026-12-03-s9, N41: the sandbox
 * refused `eventName matches "(?i)demo|request|lead|form"`, which GA takes, and ran a lookahead and a
 * backreference, which GA refuses). Through MCP on the sandbox: a leading (?i), (?s), (?m) is taken and
 * applied; what RE2 refuses is refused naming the pattern and RE2's words for it. The agent wrote (?i)
 * because tools/list did not say that text matches already ignore case (GA's caseSensitive is false
 * unless asked) nor that =~ matches a part: it says both now.
 */
import { describe, expect, it } from "vitest";
import { firstText, gaOverMcp } from "../helpers/ga-mcp.js";

const ga = gaOverMcp();

/** The event names a filter keeps, or the refusal's text. */
async function eventNames(filter: unknown): Promise<string[] | string> {
  const answer = await ga.call("google_analytics_run_reports", {
    property: "412345671",
    metrics: ["eventCount"],
    dimensions: ["eventName"],
    date_ranges: ["last28days"],
    filter,
    order_by: "eventName",
  });
  if (answer.isError) return firstText(answer);
  const rows = (answer.structuredContent as { rows: { eventName: string }[] }).rows;
  return rows.map((row) => row.eventName);
}

const caseSensitive = (value: string, matchType = "FULL_REGEXP") => ({
  filter: { fieldName: "eventName", stringFilter: { matchType, value, caseSensitive: true } },
});

describe("Run Reports' regular expressions, as Google reads them", () => {
  it("takes a leading (?i), as the trial's agent wrote it, and it matches regardless of case", async () => {
    expect(await eventNames('eventName matches "(?i)PAGE_VIEW|Purchase"')).toEqual(["page_view", "purchase"]);
    // Where Google's caseSensitive asks for case to count, (?i) still lifts it; without it nothing matches.
    expect(await eventNames(caseSensitive("(?i)PAGE_VIEW"))).toEqual(["page_view"]);
    expect(await eventNames(caseSensitive("PAGE_VIEW"))).toEqual([]);
  });

  it("takes (?s), (?m) and their combinations, and a full match stays whole under (?m)", async () => {
    expect(await eventNames('eventName matches "(?s)page.view"')).toEqual(["page_view"]);
    expect(await eventNames('eventName matches "(?ms)^page_view$"')).toEqual(["page_view"]);
    expect(await eventNames(caseSensitive("(?mi)^SIGN_UP$", "PARTIAL_REGEXP"))).toEqual(["sign_up"]);
  });

  it("tools/list says how the filter matches: RE2, whole value or part, ignoring case (which holds)", async () => {
    const { tools } = await ga.client.listTools();
    const run = tools.find((tool) => tool.name === "google_analytics_run_reports");
    const filter = (run?.inputSchema.properties?.filter ?? {}) as { description?: string };
    expect(filter.description).toMatch(/matches \/ =~ \(RE2 regex: whole value \/ any part\)/);
    expect(filter.description).toContain("text ignores case");
    // What it says holds: no (?i) needed, and =~ matches a part.
    expect(await eventNames('eventName matches "PAGE_VIEW"')).toEqual(["page_view"]);
    expect(await eventNames('eventName =~ "VIEW"')).toEqual(["page_view", "view_item"]);
  });

  it.each([
    ["a lookahead", "(?=page).*", "invalid perl operator: (?="],
    ["a negative lookahead", "(?!page).*", "invalid perl operator: (?!"],
    ["a lookbehind", ".*(?<=view)", "invalid perl operator: (?<="],
    ["a backreference", "(p)age_view\\\\1?", "invalid escape sequence: \\1"],
  ])("refuses %s, as RE2 does, in RE2's words", async (_what, pattern, words) => {
    const refusal = await eventNames(`eventName matches "${pattern}"`);
    expect(refusal).toContain("is not a valid regular expression");
    expect(refusal).toContain(words);
  });
});
