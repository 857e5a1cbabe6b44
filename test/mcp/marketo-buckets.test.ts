import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { marketoOverMcp, NO_CALL_WINDOW, runningClock } from "../helpers/marketo-mcp.js";

/**
 * count_by's date buckets ("createdAt:day", ":week", ":month") and where's dates alone in time_zone, through
 * MCP on the sandbox (agent trial s7, N23: a model bucketed lead and activity timestamps by day itself, read
 * 89,560 characters and miscounted). Leads are created at chosen instants (the sandbox's clock held there for
 * the call); an export run to completion counts them. The truth for each lead's bucket is its creation
 * instant read on the zone's clock by Intl in another locale, apart from the step's own arithmetic.
 */
interface Answer {
  result: Record<string, unknown>[];
  computed?: { read: number; matched: number };
}

const T0 = Date.UTC(2026, 11, 2, 12);
const running = runningClock(T0);
let heldAt: number | undefined;

const mkto = marketoOverMcp(
  {
    leadCount: 50,
    seed: 5,
    now: () => heldAt ?? running(),
    bulkJobMs: 50,
    rateLimit: 1_000_000,
  },
  undefined,
  NO_CALL_WINDOW,
);

/** Leads created in the sandbox at each instant, with emails at `domain`. */
async function leadsAt(domain: string, instants: readonly number[]): Promise<void> {
  for (const [i, at] of instants.entries()) {
    heldAt = at;
    try {
      await mkto.ok({
        method: "POST",
        endpoint: "/rest/v1/leads.json",
        body: { action: "createOnly", input: [{ email: `lead${i}@${domain}` }] },
      });
    } finally {
      heldAt = undefined;
    }
  }
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** An export of the leads at `domain` created between two dates, run to completion. */
function leadExport(domain: string, from: string, to: string, extra: Record<string, unknown>) {
  return {
    method: "POST",
    endpoint: "/bulk/v1/leads/export/create.json",
    body: {
      fields: ["id", "email", "createdAt"],
      format: "CSV",
      filter: { createdAt: { startAt: from, endAt: to } },
    },
    run_to_completion: true,
    where: `email ends_with "@${domain}"`,
    ...extra,
  };
}

/** 03:00Z on 1 Nov 2026: still 23:00 on 31 Oct in New York (-04:00). */
const NOV_1_3AM = Date.UTC(2026, 10, 1, 3);

describe("count_by with a date bucket", () => {
  const domain = "days.example";
  const setUp = leadsAt.bind(null, domain, [NOV_1_3AM, Date.UTC(2026, 10, 1, 5), Date.UTC(2026, 10, 3, 12)]);
  let ready: Promise<void> | undefined;
  const made = () => {
    ready ??= setUp();
    return ready;
  };

  it("counts per day in time_zone, in date order, a day with no lead listed with 0", async () => {
    await made();
    const answer = await mkto.ok<Answer>(
      leadExport(domain, "2026-10-30", "2026-11-05", {
        count_by: "createdAt:day",
        time_zone: "America/New_York",
      }),
    );
    expect(answer.data.result).toEqual([
      { "createdAt:day": "2026-10-31", count: 1, percent: 33.3 },
      { "createdAt:day": "2026-11-01", count: 1, percent: 33.3 },
      { "createdAt:day": "2026-11-02", count: 0, percent: 0 },
      { "createdAt:day": "2026-11-03", count: 1, percent: 33.3 },
    ]);
    expect(answer.first).toContain("createdAt:day is the day of createdAt in America/New_York");
    // The zone is the call's choice: the instance's own is not to be had (trial s9, N44), said once.
    expect(answer.first.split("the instance's own time zone")).toHaveLength(2);
    expect(answer.first).toContain("Marketo's API does not give the instance's own time zone");
    expect(answer.first).toContain(
      "rows in date order; every day from the first to the last counted listed: 1 day with no record, count 0",
    );
  });

  it("counts per day in UTC without time_zone, and says so", async () => {
    await made();
    const answer = await mkto.ok<Answer>(
      leadExport(domain, "2026-10-30T00:00:00Z", "2026-11-05T00:00:00Z", { count_by: "createdAt:day" }),
    );
    expect(answer.data.result).toEqual([
      { "createdAt:day": "2026-11-01", count: 2, percent: 66.7 },
      { "createdAt:day": "2026-11-02", count: 0, percent: 0 },
      { "createdAt:day": "2026-11-03", count: 1, percent: 33.3 },
    ]);
    expect(answer.first).toContain(
      "createdAt:day is the day of createdAt in UTC (time_zone names another zone)",
    );
    expect(answer.first).toContain("Marketo's API does not give the instance's own time zone");
  });

  it("counts per ISO week (named by its Monday) and per month, with another field after the bucket", async () => {
    await made();
    const weeks = await mkto.ok<Answer>(
      leadExport(domain, "2026-10-30", "2026-11-05", {
        count_by: "createdAt:week,email",
        time_zone: "America/New_York",
      }),
    );
    // Saturday 31 Oct and Sunday 1 Nov are the week of Monday 26 Oct; Tuesday 3 Nov the week of 2 Nov.
    const inWeek = "percent_in_createdAt:week";
    expect(weeks.data.result).toEqual([
      { "createdAt:week": "2026-10-26", email: `lead0@${domain}`, count: 1, percent: 33.3, [inWeek]: 50 },
      { "createdAt:week": "2026-10-26", email: `lead1@${domain}`, count: 1, percent: 33.3, [inWeek]: 50 },
      { "createdAt:week": "2026-11-02", email: `lead2@${domain}`, count: 1, percent: 33.3, [inWeek]: 100 },
    ]);
    const months = await mkto.ok<Answer>(
      leadExport(domain, "2026-10-30", "2026-11-05", {
        count_by: "createdAt:month",
        time_zone: "America/New_York",
      }),
    );
    expect(months.data.result).toEqual([
      { "createdAt:month": "2026-10", count: 1, percent: 33.3 },
      { "createdAt:month": "2026-11", count: 2, percent: 66.7 },
    ]);
  });

  it("counts per weekday and hour of day in time_zone: all 168 cells, Monday 00 first, each lead in its New York cell", async () => {
    await made();
    const answer = await mkto.ok<Answer>(
      leadExport(domain, "2026-10-30", "2026-11-05", {
        count_by: "createdAt:weekday,createdAt:hour",
        time_zone: "America/New_York",
      }),
    );
    const rows = answer.data.result;
    expect(rows).toHaveLength(168);
    expect(rows[0]).toEqual({
      ...{ "createdAt:weekday": "Monday", "createdAt:hour": "00", count: 0, percent: 0 },
      "percent_in_createdAt:weekday": 0,
    });
    // The truth by Intl's own weekday and hour (en-GB), apart from the step's arithmetic: 03:00Z on 1 Nov is
    // Saturday 23:00 in New York, 05:00Z Sunday 01:00 (still -04:00), 12:00Z on 3 Nov Tuesday 07:00 (-05:00).
    const read = (at: number, part: "weekday" | "hour") =>
      new Intl.DateTimeFormat("en-GB", {
        timeZone: "America/New_York",
        [part]: part === "hour" ? "2-digit" : "long",
        hourCycle: "h23",
      }).format(at);
    const want = [NOV_1_3AM, Date.UTC(2026, 10, 1, 5), Date.UTC(2026, 10, 3, 12)].map(
      (at) => `${read(at, "weekday")} ${read(at, "hour")}`,
    );
    expect(want).toEqual(["Saturday 23", "Sunday 01", "Tuesday 07"]);
    const counted = rows.filter((row) => Number(row.count) > 0);
    expect(counted.map((row) => `${row["createdAt:weekday"]} ${row["createdAt:hour"]}`)).toEqual([
      "Tuesday 07",
      "Saturday 23",
      "Sunday 01",
    ]);
    expect(answer.first).toContain(
      "createdAt:weekday is the weekday (Monday to Sunday) of createdAt in America/New_York",
    );
    expect(answer.first).toContain(
      "all 168 createdAt:weekday × createdAt:hour cells listed: 165 with no record, count 0",
    );
  });

  it("refuses a value that is no date, naming the field and the value, and an unknown unit with the seven", async () => {
    await made();
    const notDate = await mkto.call<Answer>(
      leadExport(domain, "2026-10-30", "2026-11-05", { count_by: "email:day" }),
    );
    expect(notDate.result.isError).toBe(true);
    expect(notDate.first).toMatch(
      /count_by: email:day counts by date, and email holds "lead\d@days\.example"/,
    );
    mkto.fixture.sandbox.resetStats();
    const fortnight = await mkto.call<Answer>(
      leadExport(domain, "2026-10-30", "2026-11-05", { count_by: "createdAt:fortnight" }),
    );
    expect(fortnight.result.isError).toBe(true);
    expect(fortnight.first).toContain(
      '":fortnight" is not a date bucket; the buckets are :day, :week, :month, :quarter, :year, :weekday and :hour',
    );
    expect(mkto.fixture.sandbox.stats().apiCalls).toBe(0);
  });
});

describe("count_by per calendar quarter and year (trial s9, N54: a model added months into quarters itself)", () => {
  const domain = "quarters.example";
  // 03:30Z on 1 Apr 2026 is 23:30 on 31 Mar in New York (Q1 there, Q2 in UTC); 03:00Z on 1 Jan 2026 is
  // still 2025 there; then one lead in November 2026 and one in February 2028.
  const created = [
    Date.UTC(2026, 3, 1, 3, 30),
    Date.UTC(2026, 0, 1, 3),
    Date.UTC(2026, 10, 3, 12),
    Date.UTC(2028, 1, 10, 12),
  ];
  let ready: Promise<void> | undefined;
  const counted = async (unit: string, zone?: string) => {
    ready ??= leadsAt(domain, created);
    await ready;
    // A plain read of the four leads by email: no export over two years of 31-day windows.
    const answer = await mkto.ok<Answer>({
      method: "GET",
      endpoint: "/rest/v1/leads.json",
      query_parameters: {
        filterType: "email",
        filterValues: created.map((_, i) => `lead${i}@${domain}`).join(","),
        fields: "id,email,createdAt",
      },
      count_by: `createdAt:${unit}`,
      ...(zone ? { time_zone: zone } : {}),
    });
    expect(answer.data.computed?.read).toBe(created.length);
    const rows = answer.data.result.map((row) => [row[`createdAt:${unit}`], row.count]);
    expect(rows.reduce((sum, [, count]) => sum + Number(count), 0)).toBe(created.length);
    return { rows, first: answer.first };
  };

  it("counts per quarter in time_zone, in date order, every quarter between listed with 0", async () => {
    const inZone = await counted("quarter", "America/New_York");
    expect(inZone.rows).toEqual([
      ["2025-Q4", 1],
      ["2026-Q1", 1],
      ["2026-Q2", 0],
      ["2026-Q3", 0],
      ["2026-Q4", 1],
      ["2027-Q1", 0],
      ["2027-Q2", 0],
      ["2027-Q3", 0],
      ["2027-Q4", 0],
      ["2028-Q1", 1],
    ]);
    expect(inZone.first).toContain(
      "createdAt:quarter is the calendar quarter (Q1 is January to March) of createdAt in America/New_York",
    );
    expect(inZone.first).toContain(
      "every quarter from the first to the last counted listed: 6 quarters with no record, count 0",
    );
    const utc = await counted("quarter");
    expect(utc.rows.filter(([, count]) => count !== 0)).toEqual([
      ["2026-Q1", 1],
      ["2026-Q2", 1],
      ["2026-Q4", 1],
      ["2028-Q1", 1],
    ]);
  });

  it("counts per year in time_zone, a year with no lead listed with 0", async () => {
    expect((await counted("year", "America/New_York")).rows).toEqual([
      ["2025", 1],
      ["2026", 2],
      ["2027", 0],
      ["2028", 1],
    ]);
    expect((await counted("year")).rows).toEqual([
      ["2026", 3],
      ["2027", 0],
      ["2028", 1],
    ]);
  });
});

describe("the recipes resource's leads created per day last week", () => {
  it("runs as it stands with last week's dates: every day in New York in order, 0 where none", async () => {
    const { contents } = await mkto.session.client.readResource({ uri: "martech-steps://recipes/marketo" });
    const { computed } = JSON.parse((contents[0] as { text: string }).text) as {
      computed: { task: string; call: Record<string, unknown>; note: string }[];
    };
    const recipe = computed.find((r) => r.task.startsWith("leads created per day last week"));
    expect(recipe?.call.count_by).toBe("createdAt:day");
    // Monday 23 to Sunday 29 Nov 2026 in New York: leads at 23:30 on Monday (04:30Z Tuesday) and on Thursday.
    const domain = "week.example";
    await leadsAt(domain, [
      Date.UTC(2026, 10, 24, 4, 30),
      Date.UTC(2026, 10, 26, 15),
      Date.UTC(2026, 10, 26, 16),
    ]);
    const call = JSON.parse(
      JSON.stringify(recipe?.call).replace("<from>", "2026-11-23").replace("<to>", "2026-11-29"),
    ) as Record<string, unknown>;
    const answer = await mkto.ok<Answer>({ ...call, where: `email ends_with "@${domain}"` });
    expect(answer.data.result).toEqual([
      { "createdAt:day": "2026-11-23", count: 1, percent: 33.3 },
      { "createdAt:day": "2026-11-24", count: 0, percent: 0 },
      { "createdAt:day": "2026-11-25", count: 0, percent: 0 },
      { "createdAt:day": "2026-11-26", count: 2, percent: 66.7 },
    ]);
  });
});

describe("where's date alone in time_zone", () => {
  const domain = "where.example";
  it("reads >= and <= a date as the zone's day: a lead at 03:00Z on 1 Nov is 31 Oct in New York", async () => {
    await leadsAt(domain, [NOV_1_3AM]);
    const found = async (where: string, zone?: string) => {
      const answer = await mkto.ok<Answer>(
        leadExport(domain, "2026-10-30", "2026-11-02", {
          where: `email ends_with "@${domain}" and ${where}`,
          ...(zone ? { time_zone: zone } : {}),
        }),
      );
      return answer.data.result.length;
    };
    expect(await found('createdAt >= "2026-11-01"')).toBe(1);
    expect(await found('createdAt >= "2026-11-01"', "America/New_York")).toBe(0);
    expect(await found('createdAt <= "2026-10-31"')).toBe(0);
    expect(await found('createdAt <= "2026-10-31"', "America/New_York")).toBe(1);
    expect(await found('createdAt > "2026-10-31"', "America/New_York")).toBe(0);
    expect(await found('createdAt < "2026-11-01"', "America/New_York")).toBe(1);
    const said = await mkto.ok<Answer>(
      leadExport(domain, "2026-10-30", "2026-11-02", {
        where: 'createdAt <= "2026-10-31"',
        time_zone: "America/New_York",
      }),
    );
    expect(said.first).toContain(
      'where createdAt <= "2026-10-31" (dates in America/New_York, a date alone its whole day): ',
    );
  });
});

/** The zone's calendar date and weekday at an instant, read by Intl in other locales (sv-SE writes ISO dates). */
const dateIn = (zone: string, at: number) =>
  new Intl.DateTimeFormat("sv-SE", {
    timeZone: zone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(at);
const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const weekdayIn = (zone: string, at: number) =>
  WEEKDAYS.indexOf(new Intl.DateTimeFormat("en-US", { timeZone: zone, weekday: "short" }).format(at));

const QUARTER_OF: Record<string, string> = {
  ...{ "01": "Q1", "02": "Q1", "03": "Q1", "04": "Q2", "05": "Q2", "06": "Q2" },
  ...{ "07": "Q3", "08": "Q3", "09": "Q3", "10": "Q4", "11": "Q4", "12": "Q4" },
};

/** The bucket a lead created at `at` belongs in, from the zone's date and weekday as Intl reads them. */
function bucketIn(zone: string, unit: string, at: number): string {
  const date = dateIn(zone, at);
  if (unit === "month") return date.slice(0, 7);
  if (unit === "year") return date.slice(0, 4);
  // The quarter by the month's name, apart from the step's arithmetic.
  if (unit === "quarter") return `${date.slice(0, 4)}-${QUARTER_OF[date.slice(5, 7)]}`;
  if (unit === "day") return date;
  return day(Date.parse(`${date}T00:00:00Z`) - weekdayIn(zone, at) * 86_400_000);
}

const ZONES = [
  "America/New_York",
  "Europe/London",
  "Australia/Sydney",
  "Asia/Kolkata",
  "America/Santiago",
  "UTC",
];
/** Instants around the 2026 DST changes of those zones (and any in between): a bucket's edge is often near one. */
const CHANGES = [
  Date.UTC(2026, 2, 8, 7),
  Date.UTC(2026, 2, 29, 1),
  Date.UTC(2026, 3, 5, 3),
  Date.UTC(2026, 8, 6, 4),
  Date.UTC(2026, 9, 4, 16),
  Date.UTC(2026, 9, 25, 1),
  Date.UTC(2026, 10, 1, 6),
];
const HOUR = 3_600_000;
/** A few instants within 40 days (one or two export jobs) of a base: any time in 2026, or one by a DST change. */
const instants = fc
  .tuple(
    fc.oneof(
      fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2026, 10, 1) }),
      fc
        .tuple(fc.constantFrom(...CHANGES), fc.integer({ min: -30, max: 30 }))
        .map(([at, h]) => at + h * HOUR),
    ),
    fc.array(fc.integer({ min: 0, max: 40 * 24 * 60 }), { minLength: 1, maxLength: 5 }),
  )
  .map(([base, minutes]) => minutes.map((m) => Math.floor(base / 60_000) * 60_000 + m * 60_000));
let run = 0;

describe("date buckets (property, on the sandbox)", () => {
  it("add up to the leads counted, and each lead is in the bucket of its zone-local date", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ZONES),
        fc.constantFrom("day", "week", "month", "quarter", "year"),
        instants,
        async (zone, unit, instants) => {
          run += 1;
          const domain = `run${run}.example`;
          await leadsAt(domain, instants);
          const from = day(Math.min(...instants) - 2 * 86_400_000);
          const to = day(Math.max(...instants) + 2 * 86_400_000);
          const column = `createdAt:${unit}`;
          const answer = await mkto.ok<Answer>(
            leadExport(domain, from, to, { count_by: column, time_zone: zone, max_items: 100_000 }),
          );
          const rows = answer.data.result;
          const counts = new Map(rows.map((row) => [row[column] as string, Number(row.count)]));
          expect(rows.reduce((sum, row) => sum + Number(row.count), 0)).toBe(instants.length);
          expect(answer.data.computed?.matched).toBe(instants.length);
          const want = new Map<string, number>();
          for (const at of instants)
            want.set(bucketIn(zone, unit, at), (want.get(bucketIn(zone, unit, at)) ?? 0) + 1);
          for (const [bucket, count] of want) expect(counts.get(bucket), `${zone} ${bucket}`).toBe(count);
          // Every other row is a gap, in date order, between the first and last bucket.
          const labels = rows.map((row) => row[column] as string);
          expect(labels).toEqual([...labels].sort());
          expect(new Set(labels).size).toBe(labels.length);
          for (const row of rows) if (!want.has(row[column] as string)) expect(row.count).toBe(0);
        },
      ),
      { seed: 27, numRuns: 8 },
    );
    // Each case creates leads and runs an export on the sandbox: room for a loaded machine, not a measure.
  }, 120_000);
});
