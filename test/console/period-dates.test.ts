/**
 * Every period the page shows says its dates (newcomer trial 2026-12-02-s8, finding 3): the example's labels
 * "last 28 days" / "the 28 days before" stayed on the 7-day periods a person typed, and the headline and
 * the columns named the labels only. And GA's own name of an unnamed period's rows, date_range_1, is never
 * shown: three custom periods, which GA returns unmerged, read by their dates.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { comparisonHeadline } from "../../console/src/comparison-words.js";
import { columnTitle } from "../../console/src/report-columns.js";
import { dates, datesInWords, periodWords, rangeLabels } from "../../src/tools/ga/period-words.js";

const plain = (text: string) => text.replace(/[\u2009\u202f]/g, " ");

/** The example's labels left on the two weeks the person typed. */
const WEEKS = [
  { start_date: "2026-11-25", end_date: "2026-12-01", name: "last 28 days" },
  { start_date: "2026-11-18", end_date: "2026-11-24", name: "the 28 days before" },
];

describe("a period's label and its dates", () => {
  it("says each compared period's dates in the headline and the columns, whatever its label", () => {
    const report = {
      rows: [
        { "sessions[last 28 days]": 3950, "sessions[the 28 days before]": 3824, sessions_change_pct: 3.29 },
      ],
      date_ranges: WEEKS,
      comparison: { from: "the 28 days before", to: "last 28 days" },
      request: { metrics: [{ name: "sessions" }] },
    };
    const headline = plain(
      comparisonHeadline(
        report,
        () => "Sessions",
        (_c, v) => v,
      ),
    );
    expect(headline).toBe(
      "Sessions went from 3824 in the 28 days before (18 – 24 Nov 2026) to 3950 in last 28 days " +
        "(25 Nov – 1 Dec 2026), 3.29. Both periods have 7 days.",
    );
    const title = columnTitle(
      "sessions[last 28 days]",
      { sessions: "Sessions" },
      undefined,
      periodWords(WEEKS),
    );
    expect(plain(title)).toBe("Sessions, last 28 days (25 Nov – 1 Dec 2026)");
  });

  it("names three unmerged custom periods' rows by their dates, never date_range_N", () => {
    const ranges = [
      { start_date: "2026-11-25", end_date: "2026-12-01" },
      { start_date: "2026-11-18", end_date: "2026-11-24" },
      { start_date: "2026-11-11", end_date: "2026-11-17", name: "launch week" },
    ];
    const words = periodWords(ranges);
    expect(plain(words("date_range_0"))).toBe("25 Nov – 1 Dec 2026");
    expect(plain(words("date_range_1"))).toBe("18 – 24 Nov 2026");
    expect(plain(words("launch week"))).toBe("launch week (11 – 17 Nov 2026)");
    // A named period keeps GA's name for it: no date_range_2 is GA's.
    expect(words("date_range_2")).toBe("date_range_2");
  });
});

/** A day from 2024-01-01 on, as YYYY-MM-DD. */
const day = fc
  .integer({ min: 0, max: 1500 })
  .map((n) => new Date(Date.UTC(2024, 0, 1) + n * 86_400_000).toISOString().slice(0, 10));
const period = fc
  .record({
    start: day,
    days: fc.integer({ min: 0, max: 400 }),
    name: fc.option(
      fc.oneof(
        fc.constantFrom("last7days", "last28days", "thisMonth", "yesterday", "last 28 days", "this week"),
        fc.string({ minLength: 1, maxLength: 20 }).filter((s) => !/^date_range_|[[\]]/.test(s)),
      ),
      { nil: undefined },
    ),
  })
  .map(({ start, days, name }) => {
    const end = new Date(Date.parse(`${start}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
    return { start_date: start, end_date: end, ...(name === undefined ? {} : { name }) };
  });

/** One to four periods, no two of the same name (GA's rows would not tell them apart). */
const periods = fc.array(period, { minLength: 1, maxLength: 4 }).filter((ranges) => {
  const names = ranges.flatMap((range) => (range.name === undefined ? [] : [range.name]));
  return new Set(names).size === names.length;
});

describe("every period, generated", () => {
  it("reads with its dates, by the step's label or GA's name for it, in a heading or a sentence", () => {
    fc.assert(
      fc.property(periods, fc.boolean(), (ranges, sentence) => {
        const words = periodWords(ranges, sentence);
        const labels = rangeLabels(ranges);
        ranges.forEach((range, index) => {
          const span = dates(range.start_date, range.end_date);
          const gaName = range.name ?? `date_range_${index}`;
          for (const label of [labels[index] as string, gaName]) {
            const said = words(label);
            expect(said).toContain(span);
            expect(said).not.toMatch(/date_range_\d/);
          }
        });
      }),
      { seed: 20_261_203, numRuns: 300 },
    );
  });

  it("gives both compared periods' dates in the headline", () => {
    fc.assert(
      fc.property(period, period, (a, b) => {
        const ranges = [a, b];
        const [to, from] = rangeLabels(ranges) as [string, string];
        const report = {
          rows: [{ [`sessions[${from}]`]: 1, [`sessions[${to}]`]: 2 }],
          date_ranges: ranges,
          comparison: { from, to },
          request: { metrics: [{ name: "sessions" }] },
        };
        const headline = comparisonHeadline(
          report,
          (c) => c,
          (_c, v) => v,
        );
        // "sessions went from 1 in <from's words> to 2 in <to's words>."
        const start = "sessions went from 1 in ";
        expect(headline.startsWith(start)).toBe(true);
        const [fromSaid = "", toSaid = ""] = headline.slice(start.length).split(" to 2 in ");
        expect(fromSaid).toContain(dates(b.start_date, b.end_date));
        expect(toSaid).toContain(dates(a.start_date, a.end_date));
      }),
      { seed: 20_261_203, numRuns: 200 },
    );
  });

  it("says a report's ISO days and spans in the page's one style of dates (s9, finding 5)", () => {
    expect(
      plain(
        datesInWords(
          "Report on Shop (1) for 2026-11-01…2026-11-30 and 2026-12-02 (yesterday), dates in America/New_York: 3 rows.",
        ),
      ),
    ).toBe(
      "Report on Shop (1) for 1 – 30 Nov 2026 and 2 Dec 2026 (yesterday), dates in America/New_York: 3 rows.",
    );
    expect(datesInWords("2025-12-28…2026-01-03")).toBe(dates("2025-12-28", "2026-01-03"));
    expect(datesInWords("6 rows of 6; 39,997 quota tokens")).toBe("6 rows of 6; 39,997 quota tokens");
  });
});
