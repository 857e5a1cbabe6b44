import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bucketSpan, MAX_FILLED } from "../../../src/tools/records/buckets.js";
import { computeSpec, RecordCompute } from "../../../src/tools/records/compute.js";

/**
 * count_by's date buckets over generated timestamps and zones (the sandbox test, test/mcp/marketo-buckets.test.ts,
 * runs fewer cases end to end): the counts add up to the records counted, and each record is in the bucket
 * of its date on the zone's clock as Intl reads it in other locales, DST and skipped midnights included.
 */
const DAY = 86_400_000;
const ZONES = [
  "UTC",
  "America/New_York",
  "America/Santiago",
  "Europe/London",
  "Australia/Lord_Howe",
  "Asia/Kathmandu",
  "Pacific/Apia",
];
const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const QUARTERS: Record<string, string> = {
  ...{ "01": "Q1", "02": "Q1", "03": "Q1", "04": "Q2", "05": "Q2", "06": "Q2" },
  ...{ "07": "Q3", "08": "Q3", "09": "Q3", "10": "Q4", "11": "Q4", "12": "Q4" },
};

function expected(zone: string | undefined, unit: string, at: number): string {
  const timeZone = zone ?? "UTC";
  const date = new Intl.DateTimeFormat("sv-SE", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(at);
  if (unit === "day") return date;
  if (unit === "month") return date.slice(0, 7);
  // The quarter from the month's number by a table, apart from the step's arithmetic.
  if (unit === "quarter") return `${date.slice(0, 4)}-${QUARTERS[date.slice(5, 7)]}`;
  if (unit === "year") return date.slice(0, 4);
  const back = WEEKDAYS.indexOf(new Intl.DateTimeFormat("en-US", { timeZone, weekday: "short" }).format(at));
  return new Date(Date.parse(`${date}T00:00:00Z`) - back * DAY).toISOString().slice(0, 10);
}

/** A timestamp as Marketo writes one: ISO 8601 in UTC, or with an offset (the same instant). */
const written = fc
  .tuple(
    fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }),
    fc.integer({ min: -12, max: 14 }),
  )
  .map(([ms, hours]) => {
    const at = Math.floor(ms / 1000) * 1000;
    const shifted = new Date(at + hours * 3_600_000).toISOString().slice(0, 19);
    const sign = hours < 0 ? "-" : "+";
    return { at, text: `${shifted}${sign}${String(Math.abs(hours)).padStart(2, "0")}:00` };
  });

describe("date buckets (property)", () => {
  it("add up to the records counted, each record in its zone-local bucket, gaps at 0 in date order", () => {
    fc.assert(
      fc.property(
        fc.option(fc.constantFrom(...ZONES), { nil: undefined }),
        fc.constantFrom("day", "week", "month", "quarter", "year"),
        fc.array(fc.tuple(written, fc.nat({ max: 4 * DAY })), { minLength: 1, maxLength: 30 }),
        (zone, unit, picks) => {
          // Records close together (within days of the first), so a span lists its gaps.
          const base = picks[0]?.[0].at ?? 0;
          const records = picks.map(([{ at }, near], i) => {
            const ms = i % 2 === 0 ? at : base + near;
            return { ms, createdAt: i % 2 === 0 ? picks[i]?.[0].text : new Date(ms).toISOString() };
          });
          const column = `createdAt:${unit}`;
          const spec = computeSpec({ count_by: column, time_zone: zone }, "");
          const compute = new RecordCompute(spec ?? {});
          for (const record of records) compute.see({ createdAt: record.createdAt });
          const rows = compute.finish([]);
          expect(rows.reduce((sum, row) => sum + Number(row.count), 0)).toBe(records.length);
          const want = new Map<string, number>();
          for (const { ms } of records) {
            const label = expected(zone, unit, ms);
            want.set(label, (want.get(label) ?? 0) + 1);
          }
          const got = new Map(rows.map((row) => [row[column], row.count]));
          for (const [label, count] of want) expect(got.get(label), `${zone} ${label}`).toBe(count);
          const labels = rows.map((row) => row[column] as string);
          expect(labels).toEqual([...labels].sort());
          const span = bucketSpan(unit as "day", [...want.keys()]);
          if (span) expect(labels).toEqual(span);
          else expect(compute.unfilled).toBe(want.size);
        },
      ),
      { seed: 27, numRuns: 400 },
    );
  });

  it("stops filling gaps past MAX_FILLED buckets", () => {
    expect(bucketSpan("day", ["2026-01-01", "2026-01-03"])).toEqual([
      "2026-01-01",
      "2026-01-02",
      "2026-01-03",
    ]);
    expect(bucketSpan("month", ["2026-11", "2027-01"])).toEqual(["2026-11", "2026-12", "2027-01"]);
    expect(bucketSpan("quarter", ["2026-Q3", "2027-Q2"])).toEqual([
      "2026-Q3",
      "2026-Q4",
      "2027-Q1",
      "2027-Q2",
    ]);
    expect(bucketSpan("year", ["2024", "2026"])).toEqual(["2024", "2025", "2026"]);
    expect(bucketSpan("week", ["2026-11-30", "2026-12-14"])).toEqual([
      "2026-11-30",
      "2026-12-07",
      "2026-12-14",
    ]);
    const last = new Date(Date.UTC(2026, 0, 1) + MAX_FILLED * DAY).toISOString().slice(0, 10);
    expect(bucketSpan("day", ["2026-01-01", last])).toBeUndefined();
  });
});

const DAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/** A record's weekday and hour on the zone's clock, by Intl in another locale (the step uses en-US parts). */
function weekdayHour(zone: string | undefined, at: number): { weekday: string; hour: string } {
  const timeZone = zone ?? "UTC";
  const short = new Intl.DateTimeFormat("en-US", { timeZone, weekday: "short" }).format(at);
  const hour = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", hourCycle: "h23" }).format(at);
  return { weekday: DAY_NAMES[WEEKDAYS.indexOf(short)] as string, hour: hour.padStart(2, "0") };
}

describe("weekday and hour buckets (property)", () => {
  it("list every weekday × hour cell in cycle order, add up to the records, each record in its zone-local cell", () => {
    fc.assert(
      fc.property(
        fc.option(fc.constantFrom(...ZONES), { nil: undefined }),
        fc.array(written, { minLength: 1, maxLength: 40 }),
        (zone, picks) => {
          const spec = computeSpec(
            { count_by: "activityDate:weekday,activityDate:hour", time_zone: zone },
            "",
          );
          const compute = new RecordCompute(spec ?? {});
          for (const { text } of picks) compute.see({ activityDate: text });
          const rows = compute.finish([]);
          expect(rows).toHaveLength(168);
          expect(rows.reduce((sum, row) => sum + Number(row.count), 0)).toBe(picks.length);
          const want = new Map<string, number>();
          for (const { at } of picks) {
            const { weekday, hour } = weekdayHour(zone, at);
            want.set(`${weekday} ${hour}`, (want.get(`${weekday} ${hour}`) ?? 0) + 1);
          }
          const cells = rows.map((row) => `${row["activityDate:weekday"]} ${row["activityDate:hour"]}`);
          for (const [i, cell] of cells.entries()) {
            expect(cell).toBe(`${DAY_NAMES[Math.floor(i / 24)]} ${String(i % 24).padStart(2, "0")}`);
            expect(rows[i]?.count, `${zone} ${cell}`).toBe(want.get(cell) ?? 0);
          }
        },
      ),
      { seed: 27, numRuns: 300 },
    );
  });

  it("lists all seven weekdays alone, Monday first, and refuses an unknown suffix naming all seven", () => {
    const compute = new RecordCompute(computeSpec({ count_by: "createdAt:weekday" }, "") ?? {});
    compute.see({ createdAt: "2026-12-02T10:00:00Z" });
    expect(compute.finish([]).map((row) => [row["createdAt:weekday"], row.count])).toEqual(
      DAY_NAMES.map((day) => [day, day === "Wednesday" ? 1 : 0]),
    );
    expect(() => computeSpec({ count_by: "createdAt:dow" }, "")).toThrow(
      /:day, :week, :month, :quarter, :year, :weekday and :hour/,
    );
    const hours = new RecordCompute(computeSpec({ count_by: "createdAt:hour" }, "") ?? {});
    expect(() => hours.see({ createdAt: "soon" })).toThrow(/not a date/);
  });
});

/** An integer over 10^decimals as a person writes it ("1.25"), exactly. */
function decimal(whole: bigint, decimals: number): string {
  const sign = whole < 0n ? "-" : "";
  const digits = (whole < 0n ? -whole : whole).toString().padStart(decimals + 1, "0");
  const text = decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
  return sign + String(Number(text));
}

/** floor(a / b) for bigints of any sign (BigInt division truncates toward 0). */
const floorDiv = (a: bigint, b: bigint) => (a % b !== 0n && a < 0n !== b < 0n ? a / b - 1n : a / b);

describe("count_by a number's bands", () => {
  it("puts each decimal value in the band whose low end it reaches, edges included, as exact arithmetic does (fast-check)", () => {
    // 0.3 / 0.1 is 2.9999999999999996 in floating point: 0.3 went to "0.2 to <0.3" (review s30, finding 1).
    const value = fc.tuple(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.integer({ min: 0, max: 3 }));
    const width = fc.tuple(fc.integer({ min: 1, max: 500 }), fc.integer({ min: 0, max: 3 }));
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 20 }), width, (values, [w, e]) => {
        const widthText = decimal(BigInt(w), e);
        const compute = new RecordCompute(computeSpec({ count_by: `v:${widthText}` }, "") ?? {});
        const want = new Map<string, number>();
        for (const [n, d] of values) {
          compute.see({ v: Number(decimal(BigInt(n), d)) });
          const scale = Math.max(d, e);
          const k = floorDiv(BigInt(n) * 10n ** BigInt(scale - d), BigInt(w) * 10n ** BigInt(scale - e));
          const label = `${decimal(k * BigInt(w), e)} to <${decimal((k + 1n) * BigInt(w), e)}`;
          want.set(label, (want.get(label) ?? 0) + 1);
        }
        const rows = compute.finish([]) as { [key: string]: unknown; count: number }[];
        const got = new Map(
          rows.filter((row) => row.count > 0).map((row) => [String(row[`v:${widthText}`]), row.count]),
        );
        expect(got).toEqual(want);
      }),
      { numRuns: 300 },
    );
  });

  it("counts the review's edges in their own bands: 0.3 by 0.1, 33 by 1.1, 0.57 by 0.01", () => {
    const cases: [number, string, string][] = [
      [0.3, "0.1", "0.3 to <0.4"],
      [0.7, "0.1", "0.7 to <0.8"],
      [33, "1.1", "33 to <34.1"],
      [0.57, "0.01", "0.57 to <0.58"],
      [-0.3, "0.1", "-0.3 to <-0.2"],
    ];
    for (const [v, width, label] of cases) {
      const compute = new RecordCompute(computeSpec({ count_by: `v:${width}` }, "") ?? {});
      compute.see({ v });
      const rows = compute.finish([]) as Record<string, unknown>[];
      expect(rows.find((row) => row.count === 1)?.[`v:${width}`], `${v} by ${width}`).toBe(label);
    }
    expect(() => computeSpec({ count_by: "v:0.0000000001" }, "")).toThrow(/at least 0.000001 wide/);
  });
});

describe("count_by bands' order", () => {
  it("lists the bands in order, gaps included, and the empty row last, asked or not (fast-check)", () => {
    // An empty score between bands read as a band of its own (review s31, finding 4).
    const scores = fc.array(fc.option(fc.integer({ min: -60, max: 200 }), { nil: null }), {
      minLength: 1,
      maxLength: 30,
    });
    fc.assert(
      fc.property(scores, fc.constantFrom(undefined, "leadScore:25", "-leadScore:25"), (values, order) => {
        const compute = new RecordCompute(
          computeSpec({ count_by: "leadScore:25", ...(order ? { order_by: order } : {}) }, "") ?? {},
        );
        for (const leadScore of values) compute.see({ leadScore });
        const labels = (compute.finish([]) as Record<string, unknown>[]).map((row) => row["leadScore:25"]);
        const empty = labels.indexOf(null);
        if (empty >= 0) expect(empty).toBe(labels.length - 1);
        const lows = labels
          .filter((label) => label !== null)
          .map((label) => Number.parseFloat(String(label)));
        const sorted = [...lows].sort((a, b) => (order === "-leadScore:25" ? b - a : a - b));
        expect(lows).toEqual(sorted);
      }),
      { numRuns: 200 },
    );
  });
});
