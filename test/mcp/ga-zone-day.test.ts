/**
 * Trial s18, N180: on the Tokyo property, last90days ended on 4 Dec while the agent took 4 Dec for today (in
 * Tokyo it was already the 5th), and it asked again with exact dates. When the property's day is not UTC's, the
 * summary says which day it is there; the stated range ends on that day's yesterday.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { forPeople } from "../../src/console/run-results.js";
import { firstText, gaOverMcp } from "../helpers/ga-mcp.js";

const ga = gaOverMcp();
const summary = (r: CallToolResult) => firstText(r).split("\n")[0] ?? "";
const ranges = (r: CallToolResult) =>
  (r.structuredContent as { date_ranges: { start_date: string; end_date: string }[] }).date_ranges;

async function at(iso: string, property: string) {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(iso));
  const result = await ga.call("google_analytics_run_reports", {
    property,
    metrics: ["sessions"],
    date_ranges: ["last90days"],
  });
  expect(result.isError, firstText(result)).toBeFalsy();
  return result;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("the property's day when it is not UTC's", () => {
  it("is said on a Tokyo property after 15:00 UTC, and last90days ends on Tokyo's yesterday", async () => {
    const result = await at("2026-12-04T16:30:00Z", "Media Video Portal");
    expect(summary(result)).toContain("Today in Asia/Tokyo is 2026-12-05 (in UTC 2026-12-04)");
    expect(ranges(result)[0]?.end_date).toBe("2026-12-04");
    // The console's page shows the property's days in its date boxes: the sentence is an agent's.
    const person = forPeople({ summary: summary(result), data: result.structuredContent });
    expect(person.summary).not.toContain("Today in");
    expect(person.summary).toContain("Report on Media Video Portal");
  });

  it("is said on a New York property before 05:00 UTC, and not when the days agree", async () => {
    const early = await at("2026-12-04T02:00:00Z", "Retail Web Store");
    expect(summary(early)).toContain("Today in America/New_York is 2026-12-03 (in UTC 2026-12-04)");
    const same = await at("2026-12-04T16:30:00Z", "Retail Web Store");
    expect(summary(same)).not.toContain("Today in");
  });
});
