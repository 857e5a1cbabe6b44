/**
 * Issue 27 (trial s22, N257): the agent worked out month-over-month changes across one report's rows by hand.
 * "sessions%change" asks the step for each row's change from the previous period. Invariants, over generated
 * reports on the sandbox, each checked against the same report without the change (read whole) and periods
 * counted here:
 * - a row's change is (its value − the same group's value in the period before) / that value, in percent to
 *   0.1; none for the range's first period, none where the period before had no row (GA's 0) or a value of 0;
 * - the rows and their other columns are the report's without the change; pages put together are the whole;
 * - the summary's first-to-last figure of each group is its rows' values in the first and last periods.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firstText, gaOverMcp } from "../helpers/ga-mcp.js";

type Row = Record<string, string | number | null>;
const data = (r: CallToolResult) => r.structuredContent as unknown as { rows: Row[]; row_count: number };

const ga = gaOverMcp();
const DAY_MS = 86_400_000;
const pad = (value: number) => String(value).padStart(2, "0");
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** ISO 8601's year and week of a day: those of its Thursday. */
function isoWeek(ms: number): string {
  const weekday = (new Date(ms).getUTCDay() + 6) % 7;
  const thursday = new Date(ms + (3 - weekday) * DAY_MS);
  const jan1 = Date.UTC(thursday.getUTCFullYear(), 0, 1);
  return `${thursday.getUTCFullYear()}${pad(Math.floor((thursday.getTime() - jan1) / DAY_MS / 7) + 1)}`;
}

/** A day's value of each calendar dimension these tests step along, as GA writes it. */
const CALENDAR: Record<string, (ms: number) => string> = {
  date: (ms) => iso(ms).replaceAll("-", ""),
  yearMonth: (ms) => iso(ms).slice(0, 7).replace("-", ""),
  isoYearIsoWeek: isoWeek,
};

/** The range's periods of a calendar dimension, in order. */
function periods(calendar: string, range: { start_date: string; end_date: string }): string[] {
  const of = CALENDAR[calendar] as (ms: number) => string;
  const found: string[] = [];
  for (
    let ms = Date.parse(`${range.start_date}T00:00:00Z`);
    ms <= Date.parse(`${range.end_date}T00:00:00Z`);
    ms += DAY_MS
  ) {
    if (found.at(-1) !== of(ms)) found.push(of(ms));
  }
  return found;
}

async function report(args: Record<string, unknown>) {
  const result = await ga.call("google_analytics_run_reports", args);
  expect(result.isError, firstText(result)).toBeFalsy();
  return { ...data(result), summary: firstText(result) };
}

const change = (before: number, after: number) =>
  before > 0 ? Math.round(((after - before) / before) * 1000) / 10 + 0 : null;

/** Ranges of 1 to 120 days ending between 400 days before 2026-12-31 and that day. */
const arbitraryRange = fc
  .tuple(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 119 }))
  .map(([back, length]) => {
    const end = Date.UTC(2026, 11, 31) - back * DAY_MS;
    return { start_date: iso(end - length * DAY_MS), end_date: iso(end) };
  });

describe("a metric's change from the previous period (sessions%change)", () => {
  it("property: each row's change is from its group's previous period; pages make the whole", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("412345671", "423456789"),
        fc.constantFrom("date", "yearMonth", "isoYearIsoWeek"),
        fc.constantFrom([], ["deviceCategory"], ["country"]),
        fc.constantFrom("sessions", "activeUsers", "screenPageViews/sessions"),
        arbitraryRange,
        fc.integer({ min: 1, max: 40 }),
        async (property, calendar, others, metric, long, size) => {
          const dimensions = [...others, calendar];
          // By date, at most 35 days: a group's whole report then fits in one answer, for the check.
          const earliest = iso(Date.parse(`${long.end_date}T00:00:00Z`) - 34 * DAY_MS);
          const short = calendar === "date" && long.start_date < earliest;
          const range = short ? { ...long, start_date: earliest } : long;
          const asked = { property, dimensions, date_ranges: [range] };
          const plain = await report({ ...asked, metrics: [metric], limit: 10_000 });
          const whole = await report({ ...asked, metrics: [`${metric}%change`], limit: 10_000 });
          const groupOf = (row: Row) => others.map((name) => row[name]).join("\u0000");
          const at = new Map(plain.rows.map((row) => [`${groupOf(row)}\u0001${row[calendar]}`, row]));
          const order = periods(calendar, range);
          // The same rows (the answer may show fewer of them, to keep within its size).
          expect(whole.row_count).toBe(plain.row_count);
          expect(plain.rows).toHaveLength(plain.row_count);
          for (const row of whole.rows) {
            const own = at.get(`${groupOf(row)}\u0001${row[calendar]}`) as Row;
            expect(row[metric]).toBe(own[metric]);
            const index = order.indexOf(String(row[calendar]));
            const before = index > 0 ? at.get(`${groupOf(row)}\u0001${order[index - 1]}`) : undefined;
            const was = index > 0 ? (before ? before[metric] : 0) : null;
            const expected =
              typeof was === "number" && typeof row[metric] === "number" ? change(was, row[metric]) : null;
            expect(row[`${metric}%change`], `${row[calendar]} after ${order[index - 1]}`).toBe(expected);
          }
          // Pages of `size` rows (at most 6 pages, within the property's hourly quota), put together, are the
          // whole report in the same order.
          const paged: Row[] = [];
          const step = Math.max(size, Math.ceil(whole.rows.length / 6));
          for (let offset = 0; offset < whole.rows.length; offset += step) {
            const page = await report({ ...asked, metrics: [`${metric}%change`], limit: step, offset });
            paged.push(...page.rows);
          }
          expect(paged.slice(0, whole.rows.length)).toEqual(whole.rows);
          // The summary's first-to-last figure for the first group, from its rows.
          const present = order.filter((period) => whole.rows.some((row) => row[calendar] === period));
          const [first, last] = [present[0], present.at(-1)];
          const group = whole.rows[0];
          if (first && last && first !== last && group && others.length > 0) {
            const value = (period: string) => at.get(`${groupOf(group)}\u0001${period}`)?.[metric];
            const words = (v: unknown) => (typeof v === "number" ? v.toLocaleString("en-US") : "none");
            expect(whole.summary).toContain(
              `${group[others[0] as string]}: ${words(value(first))} → ${words(value(last))}`,
            );
          }
        },
      ),
      { numRuns: 15 },
    );
  }, 240_000);

  it("says which periods are only partly in the range, and following its dates makes them whole", async () => {
    const asked = { property: "412345671", dimensions: ["yearMonth"], metrics: ["sessions%change"] };
    const part = await report({
      ...asked,
      date_ranges: [{ start_date: "2026-08-15", end_date: "2026-11-10" }],
    });
    expect(part.summary).toContain(
      "Aug 2026 is only partly in the range (for whole periods, start on 2026-09-01)",
    );
    expect(part.summary).toContain(
      "Nov 2026 is only partly in the range (for whole periods, end on 2026-10-31)",
    );
    const whole = await report({
      ...asked,
      date_ranges: [{ start_date: "2026-09-01", end_date: "2026-10-31" }],
    });
    expect(whole.summary).not.toContain("partly");
    expect(whole.summary).not.toContain("still running");
    expect(whole.rows.map((row) => row.yearMonth)).toEqual(["202609", "202610"]);
    const running = await report({ ...asked, date_ranges: ["thisMonth"] });
    expect(running.summary).not.toContain("partly");
  });

  it("refuses what it cannot work out, before anything is sent, and each hint leads to an answer", async () => {
    const refused = async (args: Record<string, unknown>) => {
      const result = await ga.call("google_analytics_run_reports", { property: "412345671", ...args });
      expect(result.isError).toBe(true);
      return firstText(result);
    };
    const month = await refused({ metrics: ["sessions%change"], dimensions: ["month"] });
    expect(month).toContain("month comes round again (use yearMonth)");
    await report({ property: "412345671", metrics: ["sessions%change"], dimensions: ["yearMonth"] });
    const none = await refused({ metrics: ["sessions%change"], dimensions: ["country"] });
    expect(none).toContain("keep exactly one of date, isoYearIsoWeek, yearWeek, yearMonth, year, isoYear");
    const two = await refused({
      metrics: ["sessions%change"],
      dimensions: ["yearMonth"],
      date_ranges: ["lastMonth", "thisMonth"],
    });
    expect(two).toContain("ask for the metric without %change");
    const side = await report({
      property: "412345671",
      metrics: ["sessions"],
      dimensions: ["yearMonth"],
      date_ranges: ["lastMonth", "thisMonth"],
    });
    expect(side.rows.length).toBeGreaterThan(0);
    expect(await refused({ metrics: ["sessions%change"], dimensions: ["yearMonth", "date"] })).toContain(
      "this report has yearMonth and date",
    );
  });

  it("on several properties, says once what the column is and each property's first to last", async () => {
    const answer = await report({
      property: "all",
      metrics: ["sessions%change"],
      dimensions: ["yearMonth"],
      date_ranges: [{ start_date: "2026-09-01", end_date: "2026-11-30" }],
    });
    expect(answer.summary.split("each row's percent change from the previous month")).toHaveLength(2);
    const ofStore = answer.rows.filter((row) => String(row.property).includes("412345671"));
    const [sep, nov] = [Number(ofStore[0]?.sessions), Number(ofStore[2]?.sessions)];
    expect(answer.summary).toContain(`${sep.toLocaleString("en-US")} → ${nov.toLocaleString("en-US")}`);
  });

  it("sorts by a change when asked, over the whole report", async () => {
    const asked = {
      property: "423456789",
      metrics: ["sessions%change"],
      dimensions: ["country", "yearMonth"],
      date_ranges: [{ start_date: "2026-09-01", end_date: "2026-11-30" }],
    };
    const sorted = await report({ ...asked, order_by: "-sessions%change", limit: 5 });
    const whole = await report({ ...asked, limit: 10_000 });
    const top = whole.rows
      .map((row) => row["sessions%change"])
      .filter((value): value is number => typeof value === "number")
      .sort((a, b) => b - a)
      .slice(0, 5);
    expect(sorted.rows.map((row) => row["sessions%change"])).toEqual(top);
  });
});
