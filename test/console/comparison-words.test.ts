/**
 * A two-period report's headline in the page (console/src/comparison-words.ts; newcomer trial
 * 2026-12-02-s5, finding 4): two plain sentences, no JSON, the like-for-like dates in words.
 */
import { describe, expect, it } from "vitest";
import { type ComparedReport, comparisonHeadline, isCompared } from "../../console/src/comparison-words.js";
import { reportNumbers } from "../../console/src/report-numbers.js";
import { reportValue } from "../../console/src/report-values.js";

const TITLES: Record<string, string> = { sessions: "Sessions", ecommercePurchases: "Ecommerce purchases" };
const title = (column: string) => TITLES[column] ?? column;
const plain = reportNumbers("en-US");
const cell = (column: string, value: unknown) =>
  typeof value === "number" ? reportValue(column, value, {}, (n) => plain.format(n), "en-US") : value;

const NOVEMBER_OCTOBER: ComparedReport = {
  rows: [{ sessionDefaultChannelGroup: "Direct" }],
  totals: [
    {
      "sessions[November]": 16_493,
      "sessions[October]": 16_419,
      sessions_change: 74,
      sessions_change_pct: 0.4507,
      "ecommercePurchases[November]": 393,
      "ecommercePurchases[October]": 403,
      ecommercePurchases_change: -10,
      ecommercePurchases_change_pct: -2.48,
    },
  ],
  date_ranges: [
    { start_date: "2026-11-01", end_date: "2026-11-30", name: "November" },
    { start_date: "2026-10-01", end_date: "2026-10-31", name: "October" },
  ],
  comparison: { from: "October", to: "November" },
  request: { metrics: [{ name: "sessions" }, { name: "ecommercePurchases" }], dimensions: [{}] },
};

describe("comparisonHeadline", () => {
  it("says how each measure moved and which dates compare like for like, in two sentences", () => {
    const text = comparisonHeadline(NOVEMBER_OCTOBER, title, cell);
    expect(text).toBe(
      "Sessions went from 16,419 in October (1\u2009–\u200931 Oct 2026) to 16,493 in November " +
        "(1\u2009–\u200930 Nov 2026), +0.45 % ▲; Ecommerce purchases went from 403 in October " +
        "(1\u2009–\u200931 Oct 2026) to 393 in November (1\u2009–\u200930 Nov 2026), \u22122.48 % ▼. " +
        "October has 31 days and November 30, so " +
        "counts differ partly from the length alone; to compare the same number of days, set October to " +
        "1\u2009–\u200930 Oct 2026 (as long as November).",
    );
    expect(text).not.toMatch(/[{}[\]"]|date_ranges|start_date/);
    expect(text.split(/(?<=\.) (?=[A-Z])/)).toHaveLength(2);
  });

  it("says the periods are alike when they have as many days", () => {
    const alike = {
      ...NOVEMBER_OCTOBER,
      date_ranges: [
        { start_date: "2026-11-03", end_date: "2026-11-30", name: "November" },
        { start_date: "2026-10-06", end_date: "2026-11-02", name: "October" },
      ],
    };
    expect(comparisonHeadline(alike, title, cell)).toMatch(/\. Both periods have 28 days\.$/);
  });

  it("says rows by date pair the periods in order, or stand side by side without a change", () => {
    const byDate = (extra: Record<string, string>): ComparedReport => ({
      ...NOVEMBER_OCTOBER,
      comparison: { from: "October", to: "November", paired: "date", ...extra },
    });
    const dateTitle = (column: string) => (column === "date" ? "Date" : title(column));
    const paired = comparisonHeadline(byDate({}), dateTitle, cell);
    expect(paired).toContain("Each row by date sets the periods side by side in order");
    const apart = comparisonHeadline(byDate({ no_row_change: "No change per row: …" }), dateTitle, cell);
    expect(apart).toContain("By date the periods do not line up");
    // Words for a marketer: no column names nor API words.
    expect(apart).not.toMatch(/_change|no_row_change|\[/);
    expect(comparisonHeadline(NOVEMBER_OCTOBER, title, cell)).not.toContain("side by side");
  });

  it("knows a two-period report from another", () => {
    expect(isCompared(NOVEMBER_OCTOBER as unknown as Record<string, unknown>)).toBe(true);
    expect(isCompared({ rows: [], date_ranges: [] })).toBe(false);
  });
});
