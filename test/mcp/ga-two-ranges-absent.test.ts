/**
 * Two date ranges merged: what a range without a GA row shows (review s25, finding 11), and each range's totals of
 * the columns worked out in the step. Invariants, over generated pairs of ranges (some before the property's first
 * day, some past today) on the sandbox:
 * - each range's values in the merged report, totals included, are that range's report alone: a mean a day over
 *   no day that can have data is none, not 0, and the totals' mean a day is the range's own;
 * - a row absent from one range shows 0 for a count there, and none for a ratio (0 / 0) or for a mean a day over
 *   no day that can have data; a range with no day that can have data (after today) has no figures at all.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firstText, gaOverMcp, propertySpan } from "../helpers/ga-mcp.js";

type Row = Record<string, string | number | null>;
const data = (r: CallToolResult) => r.structuredContent as unknown as { rows: Row[]; totals: Row[] };

const ga = gaOverMcp();
const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const METRICS = ["sessions", "screenPageViews/sessions", "sessions/day"];

/** Retail Web Store's first day and today, in its zone. */
const spanOf = () => propertySpan(ga, "412345671");

async function report(args: Record<string, unknown>) {
  const result = await ga.call("google_analytics_run_reports", { limit: 10_000, ...args });
  expect(result.isError, firstText(result)).toBeFalsy();
  return { ...data(result), summary: firstText(result) };
}

/** Ranges of 1 to 40 days ending between 450 days before 2026-12-31 and that day (Retail Web Store began 2025-10-31). */
const arbitraryRange = fc
  .tuple(fc.integer({ min: 0, max: 450 }), fc.integer({ min: 0, max: 39 }))
  .map(([back, length]) => {
    const end = Date.UTC(2026, 11, 31) - back * DAY_MS;
    return { start_date: iso(end - length * DAY_MS), end_date: iso(end) };
  });

describe("two date ranges: a range without a row, and each range's totals", () => {
  it("property: each range's values, totals included, are that range's report alone", async () => {
    await fc.assert(
      fc.asyncProperty(
        arbitraryRange,
        arbitraryRange,
        fc.constantFrom([], ["deviceCategory"]),
        async (first, second, dimensions) => {
          fc.pre(first.start_date !== second.start_date || first.end_date !== second.end_date);
          const property = "412345671";
          const both = await report({ property, metrics: METRICS, dimensions, date_ranges: [first, second] });
          for (const range of [first, second]) {
            const label =
              range.start_date === range.end_date
                ? range.start_date
                : `${range.start_date}…${range.end_date}`;
            const alone = await report({ property, metrics: METRICS, dimensions, date_ranges: [range] });
            // A report without dimensions is its one row, and GA sends no totals beside it.
            const own = dimensions.length > 0 ? alone.totals[0] : alone.rows[0];
            const merged = dimensions.length > 0 ? both.totals[0] : both.rows[0];
            // Neither range has data: the merged report has no row and no total, as the range alone has none.
            if (both.rows.length === 0) {
              expect(alone.rows).toHaveLength(0);
              continue;
            }
            // A range with no day that can have data (after today, before the first day) has no figures at all.
            const span = await spanOf();
            const empty = range.start_date > span.today || range.end_date < span.first;
            for (const metric of METRICS) {
              const expected = own?.[metric] ?? (metric === "sessions" && !empty ? 0 : null);
              expect(merged?.[`${metric}[${label}]`], `${metric} of ${label}`).toBe(expected);
            }
            if (dimensions.length === 0) continue;
            for (const row of both.rows) {
              const mine = alone.rows.find((candidate) => candidate.deviceCategory === row.deviceCategory);
              for (const metric of METRICS) {
                const absent = empty
                  ? null
                  : metric === "sessions"
                    ? 0
                    : metric === "sessions/day" && own
                      ? 0
                      : null;
                expect(row[`${metric}[${label}]`], `${row.deviceCategory} ${metric} of ${label}`).toBe(
                  mine ? mine[metric] : absent,
                );
              }
            }
          }
        },
      ),
      { numRuns: 12 },
    );
  }, 180_000);

  it("a range before the property's first day has no figures, nor changes from them (review s27, finding 7)", async () => {
    const before = { start_date: "2020-01-01", end_date: "2020-01-31" };
    const after = { start_date: "2026-11-01", end_date: "2026-11-30" };
    const answer = await report({
      property: "412345671",
      metrics: METRICS,
      dimensions: ["deviceCategory"],
      date_ranges: [before, after],
    });
    const early = "2020-01-01…2020-01-31";
    for (const row of answer.rows) {
      expect(row[`sessions[${early}]`]).toBeNull();
      expect(row.sessions_change_pct).toBeNull();
      expect(row[`screenPageViews/sessions[${early}]`]).toBeNull();
      expect(row[`sessions/day[${early}]`]).toBeNull();
      expect(row["sessions/day_change"]).toBeNull();
    }
    const later = await report({ property: "412345671", metrics: ["sessions/day"], date_ranges: [after] });
    expect(answer.totals[0]?.["sessions/day[2026-11-01…2026-11-30]"]).toBe(later.rows[0]?.["sessions/day"]);
    expect(answer.totals[0]?.[`sessions/day[${early}]`]).toBeNull();
  });

  it("a longer range starting before the data gets one offer, of days with data, that compares like for like (review s27, finding 8)", async () => {
    const { first } = await spanOf();
    const day = (ms: number) => iso(Date.parse(`${first}T00:00:00Z`) + ms);
    const early = { start_date: day(-7 * DAY_MS), end_date: day(60 * DAY_MS), name: "early" };
    const recent = { start_date: day(365 * DAY_MS), end_date: day(374 * DAY_MS), name: "recent" };
    const answer = await report({
      property: "412345671",
      metrics: ["sessions"],
      dimensions: ["deviceCategory"],
      date_ranges: [early, recent],
    });
    // The summary's first line (the data's hints say the data-start note again).
    const [said = ""] = answer.summary.split("\n");
    const offers = [...said.matchAll(/date_ranges (\[[^\]]*\])/g)].map((m) => m[1] ?? "");
    expect(offers, said).toHaveLength(1);
    const offered = JSON.parse(offers[0] ?? "[]") as { start_date: string; end_date: string }[];
    expect(offered).toEqual([
      { start_date: first, end_date: day(9 * DAY_MS) },
      { start_date: recent.start_date, end_date: recent.end_date },
    ]);
    expect(said).not.toContain("Largest changes");
    // Ranges of one length, one reaching before the data: no headline of counts either (review s29, finding 1).
    const yearAgo = await report({
      property: "412345671",
      metrics: ["sessions"],
      dimensions: ["deviceCategory"],
      date_ranges: [
        { start_date: day(-60 * DAY_MS), end_date: day(29 * DAY_MS) },
        { start_date: day(305 * DAY_MS), end_date: day(394 * DAY_MS) },
      ],
    });
    expect(yearAgo.summary.split("\n")[0]).toContain("Data starts on");
    expect(yearAgo.summary.split("\n")[0]).not.toContain("Largest changes");
    // Doing what it says: ten days against ten, all with data, with neither note.
    const again = await report({
      property: "412345671",
      metrics: ["sessions"],
      dimensions: ["deviceCategory"],
      date_ranges: offered,
    });
    expect(again.summary.split("\n")[0]).not.toContain("date_ranges [");
    expect(again.summary).not.toContain("Data starts on");
  });

  it("a range running to today: no headline of count changes, and whole days offered like for like (review s28, finding 3)", async () => {
    const { today } = await spanOf();
    const [year, month, dayOfMonth] = today.split("-").map(Number) as [number, number, number];
    const monthStart = (y: number, m: number) => iso(Date.UTC(y, m - 1, 1));
    const thisMonth = {
      start_date: monthStart(year, month),
      end_date: iso(Date.UTC(year, month, 0)),
      name: "now",
    };
    const lastMonth = {
      start_date: monthStart(year, month - 1),
      end_date: iso(Date.UTC(year, month - 1, 0)),
      name: "before",
    };
    const answer = await report({
      property: "412345671",
      metrics: ["sessions"],
      dimensions: ["deviceCategory"],
      date_ranges: [lastMonth, thisMonth],
    });
    const [said = ""] = answer.summary.split("\n");
    expect(said).toContain("runs to today");
    expect(said).not.toContain("Largest changes");
    const offer = /whole days of each: date_ranges (\[[^\]]*\])/.exec(said)?.[1];
    if (dayOfMonth === 1) {
      expect(offer).toBeUndefined();
      return;
    }
    const offered = JSON.parse(offer ?? "[]") as { start_date: string; end_date: string }[];
    const yesterday = iso(Date.parse(`${today}T00:00:00Z`) - DAY_MS);
    expect(offered.map((range) => [range.start_date, range.end_date])).toEqual([
      [thisMonth.start_date, yesterday],
      [lastMonth.start_date, iso(Date.UTC(year, month - 2, dayOfMonth - 1))],
    ]);
    // Doing what it says: whole days against as many, with no note and the changes headlined.
    const again = await report({
      property: "412345671",
      metrics: ["sessions"],
      dimensions: ["deviceCategory"],
      date_ranges: offered,
    });
    const [plain = ""] = again.summary.split("\n");
    expect(plain).not.toContain("runs to today");
    expect(plain).not.toContain("differ in length");
    expect(plain).toContain("Largest changes in sessions");
  });

  it("a range running to today: no change of a mean a day, which counts today as a whole day (review s30, finding 5)", async () => {
    const { today } = await spanOf();
    const at = Date.parse(`${today}T00:00:00Z`);
    const running = { start_date: iso(at - 6 * DAY_MS), end_date: today, name: "now" };
    const before = { start_date: iso(at - 13 * DAY_MS), end_date: iso(at - 7 * DAY_MS), name: "before" };
    const ask = {
      property: "412345671",
      metrics: ["sessions/day", "sessions"],
      dimensions: ["deviceCategory"],
    };
    const result = await ga.call("google_analytics_run_reports", { ...ask, date_ranges: [before, running] });
    const answer = {
      ...data(result),
      text: (result.content as { text?: string }[]).map((c) => c.text ?? "").join("\n"),
    };
    expect(answer.rows.length).toBeGreaterThan(0);
    for (const row of [...answer.rows, ...answer.totals]) {
      expect(row["sessions/day_change_pct"], String(row.deviceCategory)).toBeNull();
      expect(typeof row["sessions/day[now]"]).toBe("number");
    }
    expect(answer.text).toContain(
      `sessions/day_change not worked out: now runs to today (${today}), which GA is still collecting`,
    );
    // Two ranges of whole days: the change is worked out.
    const whole = await report({
      ...ask,
      date_ranges: [before, { ...running, end_date: iso(at - DAY_MS), start_date: iso(at - 7 * DAY_MS) }],
    });
    expect(whole.rows.some((row) => typeof row["sessions/day_change_pct"] === "number")).toBe(true);
  });

  it("by month over two ranges: a month before the first day has no mean a day, the first month has one", async () => {
    // The sandbox's property begins a fixed number of days before today: its first day moves with the clock.
    const { first } = await spanOf();
    const [year, month] = first.split("-").map(Number) as [number, number];
    const day = (y: number, m: number, d: number) =>
      new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10);
    // The month before the first day's and the first day's own month, and the same two months a year later.
    const early = { start_date: day(year, month - 1, 1), end_date: day(year, month + 1, 0) };
    const late = { start_date: day(year + 1, month - 1, 1), end_date: day(year + 1, month + 1, 0) };
    const answer = await report({
      property: "Retail Web Store",
      metrics: ["sessions/day"],
      dimensions: ["yearMonth"],
      date_ranges: [late, early],
    });
    const label = `${early.start_date}…${early.end_date}`;
    const ym = (iso: string) => iso.slice(0, 7).replace("-", "");
    const before = answer.rows.find((row) => row[`yearMonth[${label}]`] === ym(early.start_date));
    const firstMonth = answer.rows.find((row) => row[`yearMonth[${label}]`] === ym(first));
    // No day of the month before the first day can have data; the first day's month has at least that day.
    expect(before?.[`sessions/day[${label}]`]).toBeNull();
    expect(before?.["sessions/day_change"]).toBeNull();
    expect(typeof firstMonth?.[`sessions/day[${label}]`]).toBe("number");
  });

  it("a range after today has no figures, and no −100 % among the largest changes (review s27, finding 7)", async () => {
    const future = { start_date: "2027-02-10", end_date: "2027-02-20" };
    const answer = await report({
      property: "412345671",
      metrics: ["sessions"],
      dimensions: ["deviceCategory"],
      date_ranges: [{ start_date: "2026-11-01", end_date: "2026-11-11" }, future],
    });
    for (const row of answer.rows) {
      expect(row["sessions[2027-02-10…2027-02-20]"]).toBeNull();
      expect(row.sessions_change_pct).toBeNull();
    }
    expect(answer.summary).toContain("lies after today: none of its days has data yet");
    expect(answer.summary).not.toContain("-100%");
  });
});
