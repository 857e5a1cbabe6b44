/**
 * Trial 2026-12-03 (N39, N56): GA leaves out a row whose metrics are all 0, and a value with no events has no
 * row at all, so "6 rows of 6" for 8 days and Germany alone for Germany, Austria and Switzerland left the agent
 * to infer zeros. The answer names the days (weeks…) of the range and the values the filter lists that have no
 * row, exactly those, and only where an absent row can only mean 0. The expected days are worked out here from
 * the stated range alone, and a named day is checked to hold no sessions on its own.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { expect, it } from "vitest";
import { forPeople } from "../../src/console/run-results.js";
import { noRowsNotes } from "../../src/tools/ga/report-no-rows.js";
import { firstText, gaOverMcp } from "../helpers/ga-mcp.js";

const PROPERTY = "412345671";
const ZONE = "America/New_York";
const EMAIL = 'sessionDefaultChannelGroup == "Email"';
const DAY = 86_400_000;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const WHY = "Google Analytics returns no row where every metric is 0";

type Row = Record<string, string | number>;
const ga = gaOverMcp();
const summary = (r: CallToolResult) => firstText(r).split("\n")[0] ?? "";
const rows = (r: CallToolResult) => (r.structuredContent as { rows: Row[] }).rows;

async function report(args: Record<string, unknown>): Promise<CallToolResult> {
  const result = await ga.call("google_analytics_run_reports", {
    property: PROPERTY,
    metrics: ["sessions"],
    ...args,
  });
  expect(result.isError, firstText(result)).toBeFalsy();
  return result;
}

const byDate = (start_date: string, end_date: string, extra: Record<string, unknown> = {}) =>
  report({
    dimensions: ["date"],
    date_ranges: [{ start_date, end_date }],
    filter: EMAIL,
    limit: 1000,
    ...extra,
  });

/** Today minus `days` in the property's zone, as YYYY-MM-DD. */
function daysAgo(days: number): string {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: ZONE }).format(new Date());
  return new Date(Date.parse(`${today}T00:00:00Z`) - days * DAY).toISOString().slice(0, 10);
}

function* days(from: string, to: string): Generator<number> {
  for (let ms = Date.parse(`${from}T00:00:00Z`); ms <= Date.parse(`${to}T00:00:00Z`); ms += DAY) yield ms;
}
const ymd = (ms: number) => new Date(ms).toISOString().slice(0, 10).replaceAll("-", "");
const dayText = (ms: number) => {
  const d = new Date(ms);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
};

/** The days of the range no row has, as the answer should name them. */
const absentDays = (from: string, to: string, result: CallToolResult) => {
  const seen = new Set(rows(result).map((row) => String(row.date)));
  return [...days(from, to)].filter((ms) => !seen.has(ymd(ms))).map(dayText);
};

/** What the note names: every label, or the count, the total and the first five. */
function named(text: string): { labels: string[]; count: number; of?: number } | undefined {
  const at = text.indexOf(`: ${WHY}`);
  if (at < 0) return undefined;
  const head = text.slice(text.lastIndexOf("No rows for ", at) + "No rows for ".length, at);
  const many = /^(\d+) of the (\d+) [^(]+\((.*) and (\d+) more\)$/.exec(head);
  if (many) return { labels: (many[3] ?? "").split(", "), count: Number(many[1]), of: Number(many[2]) };
  const labels = head.replace(/ \([^)]*listed in the filter\)$/, "").split(/, | and /);
  return { labels, count: labels.length };
}

it("names the days of an email report's range that have no row, and each such day has no email sessions", async () => {
  // A day without email sessions in the last 90, and the 8 days that end on it.
  const wide = await byDate(daysAgo(90), daysAgo(1));
  const gap = [...days(daysAgo(90), daysAgo(9))].find(
    (ms) => !rows(wide).some((row) => row.date === ymd(ms)),
  );
  expect(gap, "the sandbox's newsletter has days without sessions").toBeDefined();
  const [from, to] = [gap! - 7 * DAY, gap!].map((ms) => new Date(ms).toISOString().slice(0, 10)) as [
    string,
    string,
  ];
  const week = await byDate(from, to);
  const absent = absentDays(from, to, week);
  expect(absent).toContain(dayText(gap!));
  expect(rows(week).length).toBe(8 - absent.length);
  if (absent.length <= 5) {
    const listed = absent.length === 1 ? absent[0] : `${absent.slice(0, -1).join(", ")} and ${absent.at(-1)}`;
    const them = absent.length === 1 ? "it" : "them";
    expect(summary(week)).toContain(`No rows for ${listed}: ${WHY}; read ${them} as 0.`);
  }
  expect(named(summary(week))?.labels).toEqual(absent.slice(0, 5));

  const alone = await report({ date_ranges: [{ start_date: to, end_date: to }], filter: EMAIL });
  expect(rows(alone)).toEqual([]);
});

it("names nothing when every day has a row, when the rows are cut, or when a filter may drop days", async () => {
  const [from, to] = [daysAgo(28), daysAgo(1)];
  const all = await report({ dimensions: ["date"], date_ranges: [{ start_date: from, end_date: to }] });
  expect(rows(all)).toHaveLength(28);
  expect(summary(all)).not.toContain("No rows for");

  const email = await byDate(from, to);
  expect(absentDays(from, to, email).length).toBeGreaterThan(0);
  expect(summary(email)).toContain("No rows for");
  // A limit leaves rows out; a metric filter drops small days, not only days of 0; a day filter drops days.
  for (const extra of [
    { limit: 3 },
    { filter: `${EMAIL} and sessions > 1` },
    { filter: `${EMAIL} and dayOfWeekName != "Monday"` },
  ]) {
    expect(summary(await byDate(from, to, extra)), JSON.stringify(extra)).not.toContain("No rows for");
  }
});

it("names no day after today, when the range runs on", async () => {
  const [from, to] = [daysAgo(20), daysAgo(-5)];
  const email = await byDate(from, to);
  const absent = absentDays(from, daysAgo(0), email);
  const note = named(summary(email));
  expect(note?.count).toBe(absent.length);
  expect(note?.labels).toEqual(absent.slice(0, 5));
  if (note?.of !== undefined) expect(note.of).toBe(21);
});

it("property: over generated ranges, the note names exactly the days without a row", async () => {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 1, max: 150 }), fc.integer({ min: 0, max: 40 }), async (end, span) => {
      const [from, to] = [daysAgo(end + span), daysAgo(end)];
      const email = await byDate(from, to);
      const absent = absentDays(from, to, email);
      const note = named(summary(email));
      if (absent.length === 0 || rows(email).length === 0) {
        expect(note).toBeUndefined();
        return;
      }
      expect(note?.count, summary(email)).toBe(absent.length);
      expect(note?.labels).toEqual(absent.slice(0, 5));
      if (absent.length > 5) expect(note?.of).toBe(span + 1);
    }),
    { numRuns: 20 },
  );
});

/** ISO 8601: a date's week is the week of its Thursday, its year the Thursday's year. */
function isoWeek(ms: number): string {
  const thursday = new Date(ms + (3 - ((new Date(ms).getUTCDay() + 6) % 7)) * DAY);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / DAY / 7) + 1;
  return `${year}${String(week).padStart(2, "0")}`;
}

it("names the ISO weeks of the range without a row", async () => {
  const [from, to] = [daysAgo(120), daysAgo(1)];
  const weeks = await report({
    dimensions: ["isoYearIsoWeek"],
    date_ranges: [{ start_date: from, end_date: to }],
    filter: `${EMAIL} and country == "Germany"`,
  });
  const seen = new Set(rows(weeks).map((row) => String(row.isoYearIsoWeek)));
  const absent = [...new Set([...days(from, to)].map(isoWeek))].filter((week) => !seen.has(week));
  expect(absent.length, "Germany's newsletter readers skip some weeks").toBeGreaterThan(0);
  const said = named(summary(weeks))?.labels.map((label) => /^week (\d{6}) \(/.exec(label)?.[1]);
  expect(said).toEqual(absent.slice(0, 5));
});

it("names the countries a filter lists that have no row, in either way of listing them", async () => {
  const tail = `${WHY}; read them as 0, if they are spelled as in Google Analytics.`;
  for (const filter of [
    'country in ("Germany", "Austria", "Switzerland")',
    'country == "germany" or country == "Austria" or country == "Switzerland"',
  ]) {
    const countries = await report({ dimensions: ["country"], date_ranges: ["last28days"], filter });
    expect(rows(countries).map((row) => row.country)).toEqual(["Germany"]);
    expect(summary(countries)).toContain(
      `No rows for "Austria" and "Switzerland" (Country, listed in the filter): ${tail}`,
    );
    // The console shows the sentence as it is.
    expect(forPeople({ summary: summary(countries), data: {} }).summary).toContain(
      '"Austria" and "Switzerland"',
    );
  }
  const present = await report({
    dimensions: ["country", "date"],
    date_ranges: ["last28days"],
    filter: 'country in ("Germany", "France")',
  });
  expect(summary(present)).not.toContain("No rows for");
});

it("property: over generated lists of countries, the note names exactly those without a row", async () => {
  const countries = ["Germany", "France", "Japan", "Austria", "Switzerland", "Belgium", "Italy", "Peru"];
  await fc.assert(
    fc.asyncProperty(
      fc.uniqueArray(fc.constantFrom(...countries), { minLength: 2, maxLength: 8 }),
      async (listed) => {
        const filter = `country in (${listed.map((c) => `"${c}"`).join(", ")})`;
        const result = await report({ dimensions: ["country"], date_ranges: ["last28days"], filter });
        const seen = new Set(rows(result).map((row) => row.country));
        const absent = listed.filter((country) => !seen.has(country)).map((country) => `"${country}"`);
        const note = named(summary(result));
        if (absent.length === 0 || seen.size === 0) {
          expect(note).toBeUndefined();
          return;
        }
        expect(note?.count, summary(result)).toBe(absent.length);
        expect(note?.labels).toEqual(absent.slice(0, 5));
      },
    ),
    { numRuns: 20 },
  );
});

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** GA's week per the API schema: "Each week starts on Sunday. January 1st is always in week 01." */
function gaYearWeek(ms: number): string {
  const year = new Date(ms).getUTCFullYear();
  const jan1 = Date.UTC(year, 0, 1);
  const sundays = Math.floor(((ms - jan1) / DAY + new Date(jan1).getUTCDay()) / 7);
  return `${year}${String(sundays + 1).padStart(2, "0")}`;
}

const monthName = (ms: number) => `${MONTHS[new Date(ms).getUTCMonth()]} ${new Date(ms).getUTCFullYear()}`;
const weekday = (ms: number) => WEEKDAYS[new Date(ms).getUTCDay()] ?? "";

/** Each calendar dimension's value on a day, and how the note names it (before any days in brackets). */
const CALENDAR: Record<string, (ms: number) => [value: string, name: string]> = {
  yearWeek: (ms) => [gaYearWeek(ms), `week ${gaYearWeek(ms)}`],
  yearMonth: (ms) => [new Date(ms).toISOString().slice(0, 7).replace("-", ""), monthName(ms)],
  dayOfWeek: (ms) => [String(new Date(ms).getUTCDay()), weekday(ms)],
  dayOfWeekName: (ms) => [weekday(ms), weekday(ms)],
};

it("names the weeks, months and weekdays without a row: those of the days without one by date", async () => {
  const filter = `${EMAIL} and country == "Germany"`;
  let noted = 0;
  for (const [from, to] of [
    [daysAgo(200), daysAgo(1)],
    [daysAgo(12), daysAgo(3)],
    [daysAgo(40), daysAgo(34)],
  ] as const) {
    const date_ranges = [{ start_date: from, end_date: to }];
    const daily = await report({ dimensions: ["date"], date_ranges, filter, limit: 1000 });
    const withRows = new Set(rows(daily).map((row) => String(row.date)));
    const all = [...days(from, to)];
    for (const [dimension, calendar] of Object.entries(CALENDAR)) {
      const result = await report({ dimensions: [dimension], date_ranges, filter, limit: 1000 });
      // A value has a row when one of its days has one by date; the rest in the order of the range's days.
      const present = new Set(all.filter((ms) => withRows.has(ymd(ms))).map((ms) => calendar(ms)[0]));
      const absent = [...new Map(all.map((ms) => calendar(ms))).entries()]
        .filter(([value]) => !present.has(value))
        .map(([, name]) => name);
      const note = named(summary(result));
      if (absent.length === 0 || present.size === 0) {
        expect(note, `${dimension} ${from}…${to}`).toBeUndefined();
        continue;
      }
      noted += 1;
      expect(note?.count, summary(result)).toBe(absent.length);
      expect(note?.labels.map((label) => label.split(" (")[0])).toEqual(absent.slice(0, 5));
    }
  }
  expect(noted, "some ranges have weeks or weekdays without Germany's newsletter readers").toBeGreaterThan(2);
});

it("names nothing where GA withheld rows (thresholding) or grouped values into (other)", () => {
  const flat = { rows: [{ country: "Germany", sessions: 4 }], totals: [], rowCount: 1 };
  const filters = {
    dimensionFilter: { filter: { fieldName: "country", inListFilter: { values: ["Germany", "Austria"] } } },
  };
  const asked = { stated: undefined, today: daysAgo(0), filters };
  const headers = { dimensionHeaders: [{ name: "country" }] };
  expect(noRowsNotes(flat, headers, {}, asked)).toEqual([
    `No rows for "Austria" (country, listed in the filter): ${WHY}; read it as 0, if it is spelled as in Google Analytics.`,
  ]);
  for (const metadata of [{ subjectToThresholding: true }, { dataLossFromOtherRow: true }]) {
    expect(noRowsNotes(flat, { ...headers, metadata }, {}, asked)).toEqual([]);
  }
});
