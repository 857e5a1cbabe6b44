/**
 * Issue 27 (trial s8, N26): a report by ISO week says the days of its first and last weeks and how many of
 * their days fall inside the dates asked, so that nobody works out a Monday from "202636". The Monday of an ISO
 * week is checked against ISO 8601's own rule (a date's week is the week of its Thursday) over generated dates.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { expect, it } from "vitest";
import { isoWeekMonday } from "../../src/tools/ga/report-weeks.js";
import { firstText, gaOverMcp } from "../helpers/ga-mcp.js";

const DAY = 86_400_000;
const text = firstText;

const ga = gaOverMcp();

const report = async (start_date: string, end_date: string, dimensions = ["isoYearIsoWeek"]) =>
  (await ga.client.callTool({
    name: "google_analytics_run_reports",
    arguments: {
      property: "412345671",
      metrics: ["ecommercePurchases"],
      dimensions,
      date_ranges: [{ start_date, end_date }],
    },
  })) as CallToolResult;

it("names the days of the first and last weeks and how many of them were asked for", async () => {
  // 1 Sep 2026 is a Tuesday (week 36 began on 31 Aug); 30 Nov 2026 a Monday (week 49's first day).
  const weeks = await report("2026-09-01", "2026-11-30");
  expect(weeks.isError, text(weeks)).toBeFalsy();
  expect(text(weeks)).toContain(
    "ISO weeks run Monday to Sunday: 202636 is 31 Aug 2026 – 6 Sep 2026, 202649 is 30 Nov 2026 – 6 Dec 2026; " +
      "the first and last weeks fall partly outside 2026-09-01 – 2026-11-30, so they hold 6 and 1 of 7 days.",
  );
});

it("says no week is partial when the dates are whole weeks, and nothing without the week dimension", async () => {
  const whole = await report("2026-08-31", "2026-09-13");
  expect(text(whole)).toContain(
    "ISO weeks run Monday to Sunday: 202636 is 31 Aug 2026 – 6 Sep 2026, 202637 is 7 Sep 2026 – 13 Sep 2026.",
  );
  const last = await report("2026-08-31", "2026-09-08");
  expect(text(last)).toContain(
    "; week 202637 falls partly outside 2026-08-31 – 2026-09-08, so it holds 2 of 7 days.",
  );
  const none = await report("2026-09-01", "2026-11-30", ["date"]);
  expect(text(none)).not.toContain("ISO weeks");
});

/** ISO 8601: a date's week-year and week are those of the Thursday of its week. */
function isoWeekOf(ms: number): [number, number] {
  const weekday = (new Date(ms).getUTCDay() + 6) % 7;
  const thursday = new Date(ms + (3 - weekday) * DAY);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / DAY / 7) + 1;
  return [year, week];
}

it("puts every date in the seven days from its ISO week's Monday", () => {
  fc.assert(
    fc.property(fc.integer({ min: Date.UTC(1990, 0, 1) / DAY, max: Date.UTC(2060, 0, 1) / DAY }), (day) => {
      const ms = day * DAY;
      const [year, week] = isoWeekOf(ms);
      const monday = isoWeekMonday(year, week);
      expect(new Date(monday).getUTCDay()).toBe(1);
      expect(ms - monday).toBeGreaterThanOrEqual(0);
      expect(ms - monday).toBeLessThan(7 * DAY);
    }),
    { numRuns: 2000 },
  );
});
