/**
 * Issue 27 (trial s22, N257): the agent worked out month-over-month changes across one report's rows by hand.
 * "sessions%change" asks the step for each row's change from the previous period. Invariants, over generated
 * reports on the sandbox, each checked against the same report without the change (read whole) and periods
 * counted here:
 * - the periods are the calendar's over the range's days that can have data (the property's first day to today);
 *   a row's change is (its value − the same group's value in the period before) / that value, in percent to
 *   0.1; none for the first period, none where the period before had no row (GA's 0 for a count, none for a
 *   ratio) or a value of 0; for a count, none to or from a period only partly in those days (review s26);
 * - the rows and their other columns are the report's without the change; pages put together are the whole;
 * - the summary's first-to-last figure of each group is its rows' values in the first and last periods.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firstText, gaOverMcp, propertySpan } from "../helpers/ga-mcp.js";

type Row = Record<string, string | number | null>;
const data = (r: CallToolResult) => r.structuredContent as unknown as { rows: Row[]; row_count: number };

// The sandbox's clock held still: on the real one, today's figures grow between the report and its check (CI73,
// Node 22: 5,301 then 5,302 page views in a week that held today).
const ga = gaOverMcp(() => Date.parse("2026-12-01T12:00:00Z"));
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

const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);

/**
 * The periods of a calendar dimension over the range's days that can have data (from `span.first` to
 * `span.today`), in order, and whether each is cut: part of it outside those days, or holding today.
 */
function periods(
  calendar: string,
  range: { start_date: string; end_date: string },
  span: { first: string; today: string },
): { values: string[]; cut: boolean[] } {
  const of = CALENDAR[calendar] as (ms: number) => string;
  const start = range.start_date > span.first ? range.start_date : span.first;
  const end = range.end_date < span.today ? range.end_date : span.today;
  const values: string[] = [];
  for (let ms = dayMs(start); ms <= dayMs(end); ms += DAY_MS) {
    if (values.at(-1) !== of(ms)) values.push(of(ms));
  }
  const cut = values.map(
    (value, i) =>
      (i === 0 && of(dayMs(start) - DAY_MS) === value) ||
      (i === values.length - 1 && (end === span.today || of(dayMs(end) + DAY_MS) === value)),
  );
  return { values, cut };
}

const spanOf = (property: string) => propertySpan(ga, property);

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
          const { values: order, cut } = periods(calendar, range, await spanOf(property));
          const addsUp = !metric.includes("/");
          // The same rows (the answer may show fewer of them, to keep within its size).
          expect(whole.row_count).toBe(plain.row_count);
          expect(plain.rows).toHaveLength(plain.row_count);
          for (const row of whole.rows) {
            const own = at.get(`${groupOf(row)}\u0001${row[calendar]}`) as Row;
            expect(row[metric]).toBe(own[metric]);
            const index = order.indexOf(String(row[calendar]));
            const before = index > 0 ? at.get(`${groupOf(row)}\u0001${order[index - 1]}`) : undefined;
            const was = index > 0 ? (before ? before[metric] : addsUp ? 0 : null) : null;
            const partly = addsUp && (cut[index] || cut[index - 1]);
            const expected =
              typeof was === "number" && typeof row[metric] === "number" && !partly
                ? change(was, row[metric])
                : null;
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
          // The summary's first-to-last figure for the first group, from its rows, over whole periods (at most
          // 10 groups named).
          const present = order.filter(
            (period, i) => !cut[i] && whole.rows.some((row) => row[calendar] === period),
          );
          const [first, last] = [present[0], present.at(-1)];
          const group = whole.rows[0];
          const groups = new Set(plain.rows.map(groupOf)).size;
          const value = (period: string) =>
            at.get(`${groupOf(group ?? {})}\u0001${period}`)?.[metric] ?? (addsUp ? 0 : undefined);
          const named = first && last && (value(first) !== undefined || value(last) !== undefined);
          if (named && first !== last && group && others.length > 0 && groups <= 10) {
            const words = (v: unknown) =>
              typeof v === "number" ? v.toLocaleString("en-US", { maximumFractionDigits: 4 }) : "none";
            expect(whole.summary).toContain(
              `${group[others[0] as string]}: ${words(value(first))} → ${words(value(last))}`,
            );
          }
        },
      ),
      { numRuns: 15 },
    );
  }, 240_000);

  it("says which periods are only partly comparable, leaves their counts' changes out, and its dates make them whole", async () => {
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
    expect(part.summary).toContain("(sessions/day%change compares them a day at a time)");
    const byMonth = new Map(part.rows.map((row) => [row.yearMonth, row["sessions%change"]]));
    expect(byMonth.get("202609")).toBeNull();
    expect(typeof byMonth.get("202610")).toBe("number");
    expect(byMonth.get("202611")).toBeNull();
    // Doing what it says: whole months, and a mean a day over the same partial months.
    const whole = await report({
      ...asked,
      date_ranges: [{ start_date: "2026-09-01", end_date: "2026-10-31" }],
    });
    expect(whole.summary).not.toContain("partly");
    expect(whole.summary).not.toContain("still running");
    expect(whole.rows.map((row) => typeof row["sessions%change"])).toEqual(["object", "number"]);
    const daily = await report({
      ...asked,
      metrics: ["sessions/day%change"],
      date_ranges: [{ start_date: "2026-08-15", end_date: "2026-11-10" }],
    });
    expect(daily.rows.filter((row) => typeof row["sessions/day%change"] === "number")).toHaveLength(3);
  });

  it("cuts a period the filter's dates keep only part of, as the range's bounds do (review s27, finding 5)", async () => {
    const asked = {
      property: "412345671",
      dimensions: ["yearMonth"],
      metrics: ["sessions%change", "sessions/day%change"],
      date_ranges: [{ start_date: "2026-09-01", end_date: "2026-11-30" }],
    };
    // Or-ed with another dimension, September is whole for that channel and 11 days for the others: cut too
    // (review s29, finding 4).
    for (const filter of [
      "date >= 20260920",
      "date between 20260920 and 20261031",
      'date >= 20260920 or sessionDefaultChannelGroup == "Email"',
    ]) {
      const cut = await report({ ...asked, filter });
      expect(cut.summary, filter).toContain(
        "Sep 2026 is only partly in the filter's dates (11 of its 30 days in the range)",
      );
      const byMonth = new Map(cut.rows.map((row) => [row.yearMonth, row]));
      expect(byMonth.get("202609")?.["sessions%change"], filter).toBeNull();
      // October's count is not compared with September's 11 days; its mean a day is.
      expect(byMonth.get("202610")?.["sessions%change"], filter).toBeNull();
      expect(typeof byMonth.get("202610")?.["sessions/day%change"], filter).toBe("number");
      expect(cut.summary, filter).not.toMatch(/From Sep 2026/);
    }
    // A filter of days that come round keeps 4 Mondays of one month and 5 of another: the counts are not
    // compared, a day at a time they are (review s29, finding 3).
    const mondays = await report({ ...asked, filter: 'dayOfWeekName == "Monday"' });
    expect(mondays.summary).not.toContain("filter's dates");
    expect(mondays.summary).toContain(
      "Nov 2026 holds 5 of the days the filter's day conditions keep, Oct 2026 4",
    );
    expect(mondays.summary).toContain("the months hold different numbers of the days the filter keeps");
    // September and October hold 4 Mondays each: compared (review s30, finding 10); November's 5 are not.
    const monday = new Map(mondays.rows.map((row) => [row.yearMonth, row]));
    expect(typeof monday.get("202610")?.["sessions%change"]).toBe("number");
    expect(monday.get("202611")?.["sessions%change"]).toBeNull();
    expect(typeof monday.get("202611")?.["sessions/day%change"]).toBe("number");
    // November is whole, left out for its fifth Monday: the first-to-last says which months it runs over (s31, 7).
    expect(mondays.summary).toContain(
      "From Sep 2026 to Oct 2026 (the first and last whole months holding as many of the filter's days)",
    );
    // Or-ed with a channel, every other channel keeps only the Mondays: November's fifth is not compared either
    // (review s30, finding 3: Direct −16.9 %, Referral +436.8 % from Sep to Nov).
    const orEmail = await report({
      ...asked,
      dimensions: ["sessionDefaultChannelGroup", "yearMonth"],
      filter: 'dayOfWeekName == "Monday" or sessionDefaultChannelGroup == "Email"',
    });
    const november = orEmail.rows.filter((row) => row.yearMonth === "202611");
    expect(november.length).toBeGreaterThan(1);
    for (const row of november)
      expect(row["sessions%change"], String(row.sessionDefaultChannelGroup)).toBeNull();
    expect(orEmail.summary).toContain(
      "Nov 2026 holds 5 of the days the filter's day conditions keep, Oct 2026 4",
    );
    expect(orEmail.summary).not.toMatch(/From Sep 2026 to Nov 2026/);
    // By week, each holds one Monday: compared.
    const weeks = await report({
      ...asked,
      dimensions: ["isoYearIsoWeek"],
      date_ranges: [{ start_date: "2026-11-02", end_date: "2026-11-29" }],
      filter: 'dayOfWeekName == "Monday"',
    });
    expect(typeof weeks.rows[1]?.["sessions%change"]).toBe("number");
  });

  it("judges the ends by the days that can have data: the first day of data, and today (review s26, finding 1)", async () => {
    const asked = { property: "412345671", dimensions: ["yearMonth"], metrics: ["sessions%change"] };
    // Past today: the running month is the one flagged, not the range's last month, which has no data yet.
    const past = await report({
      ...asked,
      date_ranges: [{ start_date: "2026-09-01", end_date: "2027-01-31" }],
    });
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(new Date());
    const month = new Date(`${today}T00:00:00Z`).toLocaleString("en-US", {
      month: "short",
      year: "numeric",
      timeZone: "UTC",
    });
    expect(past.summary).toContain(`${month} is still running (today, ${today}, is still being collected;`);
    expect(past.summary).not.toContain("Jan 2027");
    const running = past.rows.at(-1);
    expect(running?.["sessions%change"]).toBeNull();
    // Before the data: the sandbox's Retail Web Store begins about 400 days back, so its first month may hold
    // only some days.
    const { first } = await spanOf("412345671");
    const firstMonth = first.slice(0, 7);
    const [year, month0] = firstMonth.split("-").map(Number) as [number, number];
    const monthBefore = new Date(Date.UTC(year, month0 - 2, 1)).toISOString().slice(0, 10);
    const monthsAfter = new Date(Date.UTC(year, month0 + 2, 0)).toISOString().slice(0, 10);
    const early = await report({
      ...asked,
      date_ranges: [{ start_date: monthBefore, end_date: monthsAfter }],
    });
    const label = (iso: string) =>
      new Date(`${iso}T00:00:00Z`).toLocaleString("en-US", {
        month: "short",
        year: "numeric",
        timeZone: "UTC",
      });
    const firstRow = early.rows.find((row) => row.yearMonth === firstMonth.replace("-", ""))?.yearMonth;
    if (first.endsWith("-01")) {
      // A whole first month: nothing is cut, and the next month's change is worked out.
      expect(early.summary).not.toContain("partly");
      expect(firstRow).toBeDefined();
    } else {
      expect(early.summary).toContain(
        `${label(first)} is only partly in the range (data starts on ${first};`,
      );
      const next = new Date(Date.UTC(year, month0, 1)).toISOString().slice(0, 7).replace("-", "");
      expect(early.rows.find((row) => row.yearMonth === next)?.["sessions%change"]).toBeNull();
    }
  });

  it("year over year by month compares whole months of a running year; a running mean a day has no change (review s27, 3 and 4)", async () => {
    const answer = await report({
      property: "412345671",
      metrics: ["sessions%change", "sessions/day%change"],
      dimensions: ["month", "year"],
      date_ranges: [{ start_date: "2024-01-01", end_date: "2026-12-31" }],
    });
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(new Date());
    const [year, month] = [today.slice(0, 4), today.slice(5, 7)];
    const { first } = await spanOf("412345671");
    // Every count change is of a month whole in both years: on or after the data's first day, before today's.
    const changed = answer.rows.filter((row) => typeof row["sessions%change"] === "number");
    for (const row of changed) {
      expect(`${Number(row.year) - 1}-${row.month}-01` >= first, `${row.month} ${row.year}`).toBe(true);
      expect(`${row.year}-${row.month}` < `${year}-${month}`).toBe(true);
    }
    // And each such pair in the rows is compared (the year's being cut does not leave them out: review s27, 4).
    const pairs = answer.rows.filter(
      (row) =>
        `${row.year}-${row.month}` < `${year}-${month}` &&
        `${Number(row.year) - 1}-${row.month}-01` >= first &&
        answer.rows.some((other) => other.month === row.month && Number(other.year) === Number(row.year) - 1),
    );
    expect(changed.map((row) => `${row.month} ${row.year}`)).toEqual(
      pairs.map((row) => `${row.month} ${row.year}`),
    );
    // This month is still running: neither its count's nor its mean a day's change is worked out.
    const running = answer.rows.find((row) => row.year === year && row.month === month);
    expect(running?.["sessions%change"]).toBeNull();
    expect(running?.["sessions/day%change"]).toBeNull();
    expect(answer.summary).toContain("still running");
  });

  it("compares a row's count only with a row before holding as many of its own days (review s30, finding 2)", async () => {
    const daily = await report({
      property: "412345671",
      metrics: ["sessions"],
      dimensions: ["date"],
      date_ranges: [{ start_date: "2026-08-01", end_date: "2026-11-30" }],
      limit: 500,
    });
    const sessionsOn = new Map(daily.rows.map((row) => [String(row.date), Number(row.sessions)]));
    const sum = (days: string[]) => days.reduce((total, day) => total + (sessionsOn.get(day) ?? 0), 0);
    const daysOf = (from: string, to: string, keep: (ms: number) => boolean) => {
      const out: string[] = [];
      for (let ms = dayMs(from); ms <= dayMs(to); ms += DAY_MS)
        if (keep(ms)) out.push(iso(ms).replaceAll("-", ""));
      return out;
    };
    const monday = (ms: number) => new Date(ms).getUTCDay() === 1;
    // Month × weekday: November has 5 Mondays, October and September 4.
    const weekdays = await report({
      property: "412345671",
      metrics: ["sessions%change"],
      dimensions: ["yearMonth", "dayOfWeekName"],
      date_ranges: [{ start_date: "2026-09-01", end_date: "2026-11-30" }],
      limit: 100,
    });
    const mondays = new Map(
      weekdays.rows.filter((row) => row.dayOfWeekName === "Monday").map((row) => [row.yearMonth, row]),
    );
    expect(mondays.get("202611")?.["sessions%change"]).toBeNull();
    const october = sum(daysOf("2026-10-01", "2026-10-31", monday));
    const september = sum(daysOf("2026-09-01", "2026-09-30", monday));
    expect(mondays.get("202610")?.["sessions%change"]).toBe(change(september, october));
    expect(weekdays.summary).toContain("nor for one holding a different number of days from the row before");
    // ISO week × month: week 202645's seven November days against week 202644's one (1 Nov) read +762.4 %.
    const weeks = await report({
      property: "412345671",
      metrics: ["sessions%change"],
      dimensions: ["isoYearIsoWeek", "month"],
      date_ranges: [{ start_date: "2026-09-07", end_date: "2026-11-29" }],
      limit: 100,
    });
    const week = (value: string, month: string) =>
      weeks.rows.find((row) => row.isoYearIsoWeek === value && row.month === month);
    expect(week("202645", "11")?.["sessions%change"]).toBeNull();
    expect(week("202641", "10")?.["sessions%change"]).toBeNull();
    expect(week("202640", "09")?.["sessions%change"]).toBeNull();
    const [w42, w43] = [
      daysOf("2026-10-12", "2026-10-18", () => true),
      daysOf("2026-10-19", "2026-10-25", () => true),
    ];
    expect(week("202643", "10")?.["sessions%change"]).toBe(change(sum(w42), sum(w43)));
  });

  it("names a running month's mean a day among the changes withheld (review s28, finding 13)", async () => {
    const { today } = await spanOf("412345671");
    const [year, month] = today.split("-").map(Number) as [number, number];
    const start = new Date(Date.UTC(year, month - 3, 1)).toISOString().slice(0, 10);
    const answer = await report({
      property: "412345671",
      metrics: ["sessions%change", "sessions/day%change"],
      dimensions: ["deviceCategory", "yearMonth"],
      date_ranges: [{ start_date: start, end_date: today }],
    });
    expect(answer.summary).toContain(
      "sessions%change, sessions/day%change are not worked out to or from it: the one still running holds today",
    );
  });

  it("names GA's weeks split by 1 January and leaves their counts' changes out (review s26, finding 3)", async () => {
    const answer = await report({
      property: "412345671",
      metrics: ["sessions%change", "sessions/day%change"],
      dimensions: ["yearWeek"],
      date_ranges: [{ start_date: "2025-12-07", end_date: "2026-01-17" }],
    });
    expect(answer.summary).toContain("has 4 days (GA's weeks restart on 1 January");
    expect(answer.summary).toContain("has 3 days");
    const rows = new Map(answer.rows.map((row) => [row.yearWeek, row]));
    for (const week of ["202553", "202601", "202602"]) expect(rows.get(week)?.["sessions%change"]).toBeNull();
    for (const week of ["202553", "202601", "202602"])
      expect(typeof rows.get(week)?.["sessions/day%change"]).toBe("number");
  });

  it("steps to the previous period the filter keeps, and refuses a metric condition (review s26, finding 2)", async () => {
    const mondays = await report({
      property: "412345671",
      metrics: ["sessions%change"],
      dimensions: ["date"],
      date_ranges: [{ start_date: "2026-10-01", end_date: "2026-11-30" }],
      filter: 'dayOfWeekName == "Monday"',
    });
    expect(mondays.summary).toContain("from the previous day the filter keeps");
    const values = mondays.rows.map((row) => Number(row.sessions));
    const changes = mondays.rows.map((row) => row["sessions%change"]);
    expect(changes[0]).toBeNull();
    for (let i = 1; i < values.length; i += 1)
      expect(changes[i]).toBe(change(values[i - 1] as number, values[i] as number));
    const refused = await ga.call("google_analytics_run_reports", {
      property: "412345671",
      metrics: ["sessions%change"],
      dimensions: ["sessionDefaultChannelGroup", "yearMonth"],
      date_ranges: [{ start_date: "2026-06-01", end_date: "2026-11-30" }],
      filter: "sessions > 1300",
    });
    expect(refused.isError).toBe(true);
    expect(firstText(refused)).toContain("Keep the filter's dimension conditions only");
  });

  it("each hint on a dimension the rising one fixes leads to changes when done (review s30, finding 7)", async () => {
    const range = [{ start_date: "2026-09-01", end_date: "2026-11-29" }];
    // A year against the one before: from the data's first day (it moves with the clock) to a whole November.
    const { first } = await spanOf("412345671");
    const years = [{ start_date: first, end_date: "2026-11-30" }];
    // month's hint (year with month) needs a whole month a year before inside the 400 days of data, which the
    // real clock gives only a few days a month: ga-change-year-month.test.ts follows it on a pinned clock.
    for (const fixed of ["day", "dayOfWeek", "dayOfWeekName", "week", "isoWeek"]) {
      const result = await ga.call("google_analytics_run_reports", {
        property: "412345671",
        metrics: ["sessions%change"],
        dimensions: ["date", fixed],
        date_ranges: range,
      });
      expect(result.isError, fixed).toBe(true);
      const text = firstText(result);
      const use = /use (\w+) with (\w+)/.exec(text);
      expect(use, text).not.toBeNull();
      const paired = await report({
        property: "412345671",
        metrics: ["sessions%change"],
        dimensions: [use?.[1], use?.[2]],
        date_ranges: /a year before/.test(text) ? years : range,
        limit: 1000,
      });
      const changed = paired.rows.filter((row) => typeof row["sessions%change"] === "number");
      expect(changed.length, `${fixed}: ${use?.[0]}`).toBeGreaterThan(0);
      const filter = /filter on it \(([^:]+): Fridays\)/.exec(text)?.[1];
      if (!/^dayOfWeek/.test(fixed)) continue;
      expect(filter, text).toBeDefined();
      const fridays = await report({
        property: "412345671",
        metrics: ["sessions%change"],
        dimensions: ["date"],
        date_ranges: range,
        filter,
      });
      expect(fridays.rows.length, filter).toBe(13);
      for (const row of fridays.rows)
        expect(
          new Date(`${String(row.date).replace(/(\d{4})(\d\d)(\d\d)/, "$1-$2-$3")}T00:00:00Z`).getUTCDay(),
        ).toBe(5);
    }
  });

  it("states a ratio with no row at an end as none, with no percent (review s26, finding 4)", async () => {
    const answer = await report({
      property: "412345671",
      metrics: ["purchaseRevenue/totalPurchasers%change"],
      dimensions: ["deviceCategory", "date"],
      date_ranges: [{ start_date: "2026-11-01", end_date: "2026-11-07" }],
    });
    expect(answer.summary).not.toMatch(/→ none \(/);
    expect(answer.summary).not.toMatch(/none → [^;]*\(/);
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
    // A weekday beside date has no day before with the same one; the hint's form answers (review s28, finding 6).
    const weekday = await refused({ metrics: ["sessions%change"], dimensions: ["date", "dayOfWeekName"] });
    expect(weekday).toContain("use isoYearIsoWeek with dayOfWeekName");
    const fridays = await report({
      property: "412345671",
      metrics: ["sessions%change"],
      dimensions: ["isoYearIsoWeek", "dayOfWeekName"],
      date_ranges: [{ start_date: "2026-11-02", end_date: "2026-11-29" }],
    });
    expect(fridays.rows.filter((row) => typeof row["sessions%change"] === "number")).toHaveLength(21);
    const weekYear = await refused({ metrics: ["sessions%change"], dimensions: ["isoWeek", "year"] });
    expect(weekYear).toContain("Use isoWeek with isoYear.");
    // December of isoYear 2026 is 29–31 December 2025 (review s29, finding 2).
    const monthIsoYear = await refused({ metrics: ["sessions%change"], dimensions: ["month", "isoYear"] });
    expect(monthIsoYear).toContain("Use month with year.");
    const monthFixed = await refused({ metrics: ["sessions%change"], dimensions: ["yearMonth", "month"] });
    expect(monthFixed).toContain("use year with month");
    await report({ property: "412345671", metrics: ["sessions%change"], dimensions: ["isoWeek", "isoYear"] });
    const none = await refused({ metrics: ["sessions%change"], dimensions: ["country"] });
    expect(none).toContain("Keep exactly one of date, isoYearIsoWeek, yearWeek, yearMonth, year, isoYear");
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
    // Beside a funnel, the funnel's own refusal of metrics (review s26, finding 16).
    const funnel = await refused({
      metrics: ["sessions%change"],
      funnel: { steps: ["session_start", "purchase"] },
    });
    expect(funnel).not.toContain("calendar dimension");
    expect(funnel).toContain("funnel");
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
    // The object form takes the column too (review s26, finding 14).
    const asObject = await report({
      ...asked,
      order_by: [{ field: "sessions%change", desc: true }],
      limit: 5,
    });
    expect(asObject.rows).toEqual(sorted.rows);
  });
});
