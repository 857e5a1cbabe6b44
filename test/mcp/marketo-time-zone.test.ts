import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildDataSet } from "../../src/sandbox/marketo/seed.js";
import { heldClock, iso, marketoOverMcp, NO_CALL_WINDOW } from "../helpers/marketo-mcp.js";

/**
 * Dates of a Marketo call in a named time zone, through MCP on the sandbox (agent trial s6, N06: "leads
 * created in November, New York time" sent 1 Nov as -05:00 when New York was still on -04:00, and lost
 * a lead). With time_zone, export filter dates and sinceDatetime become the zone's midnights, DST
 * included; an offset that is not the zone's is refused before anything is sent, with the value to send,
 * and sending that value works. The truth is the sandbox: leads are created at chosen instants (its clock
 * held there for the call) and the export shows which of them the window sent holds.
 */
interface Answer {
  result: Record<string, unknown>[];
  computed?: { read: number; matched: number };
}

const T0 = Date.UTC(2026, 11, 2, 12);
const SEED = 11;
const LEADS = 300;
const world = buildDataSet({ leadCount: LEADS, seed: SEED, now: T0 });
/** The sandbox's clock, held at an instant while a lead is created there. */
const clock = heldClock(T0, { prefix: "zone", domain: "tz.example" });

/** 00:30 on 1 Nov 2026 in New York, still on -04:00 (DST ended at 02:00 that day). */
const NY_HALF_PAST_MIDNIGHT = Date.UTC(2026, 10, 1, 4, 30);
/** The lead created then, before the tests. */
let lead = 0;

const mkto = marketoOverMcp(
  { leadCount: LEADS, seed: SEED, now: clock.now, bulkJobMs: 50, rateLimit: 1_000_000 },
  async () => {
    lead = await leadAt(NY_HALF_PAST_MIDNIGHT);
  },
  NO_CALL_WINDOW,
);

/** A lead created in the sandbox at `at`; its id. */
const leadAt = (at: number) => clock.leadAt(mkto, at);

function novemberExport(filter: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    method: "POST",
    endpoint: "/bulk/v1/leads/export/create.json",
    body: { fields: ["id", "email", "createdAt"], format: "CSV", filter: { createdAt: filter } },
    run_to_completion: true,
    where: 'email ends_with "@tz.example"',
    ...extra,
  };
}

const ids = (answer: { data: Answer }) =>
  answer.data.result.map((row) => Number(row.id)).sort((a, b) => a - b);

describe("Marketo dates in a named time zone", () => {
  it("finds a lead created at 00:30 New York time on 1 Nov in a November export in New York dates", async () => {
    const answer = await mkto.ok<Answer>(
      novemberExport(
        { startAt: "2026-11-01", endAt: "2026-11-30" },
        { time_zone: "America/New_York", where: undefined },
      ),
    );
    const all = answer.data.computed?.read;
    const from = Date.UTC(2026, 10, 1, 4);
    const to = Date.UTC(2026, 11, 1, 5);
    const seeded = [...world.leads.values()].filter(
      (l) => Number(l.createdAt) >= from && Number(l.createdAt) <= to,
    );
    expect(all).toBe(seeded.length + 1);
    const withWhere = await mkto.ok<Answer>(
      novemberExport({ startAt: "2026-11-01", endAt: "2026-11-30" }, { time_zone: "America/New_York" }),
    );
    expect(ids(withWhere)).toEqual([lead]);
    expect(withWhere.first).toContain(
      "Dates in America/New_York: createdAt 1 Nov 2026 00:00 (-04:00) to 1 Dec 2026 00:00 (-05:00: the end of " +
        "30 Nov 2026), sent as 2026-11-01T04:00:00Z to 2026-12-01T05:00:00Z.",
    );
  });

  it("refuses -05:00 on 1 Nov before sending anything, and the value it says to send finds the lead", async () => {
    mkto.fixture.sandbox.resetStats();
    const wrong = await mkto.call<Answer>(
      novemberExport(
        { startAt: "2026-11-01T00:00:00-05:00", endAt: "2026-12-01T00:00:00-05:00" },
        { time_zone: "America/New_York" },
      ),
    );
    expect(wrong.result.isError).toBe(true);
    expect(wrong.text).toContain(
      "body.filter.createdAt.startAt: 2026-11-01T00:00:00-05:00 is not 00:00 in America/New_York on 1 Nov 2026 " +
        "(-04:00 then): send 2026-11-01T00:00:00-04:00, or the date 2026-11-01 with time_zone.",
    );
    expect(mkto.fixture.sandbox.stats().apiCalls).toBe(0);
    // Do what it says: the value it names.
    const suggested = /send (\S+), or the date/.exec(wrong.text)?.[1] ?? "";
    const fixed = await mkto.ok<Answer>(
      novemberExport(
        { startAt: suggested, endAt: "2026-12-01T00:00:00-05:00" },
        { time_zone: "America/New_York" },
      ),
    );
    expect(ids(fixed)).toEqual([lead]);
    expect(fixed.first).toContain("sent as 2026-11-01T04:00:00Z to 2026-12-01T05:00:00Z");
    // Or the date it names, with time_zone.
    const date = /or the date (\d{4}-\d{2}-\d{2}) with time_zone/.exec(wrong.text)?.[1] ?? "";
    const byDate = await mkto.ok<Answer>(
      novemberExport({ startAt: date, endAt: "2026-11-30" }, { time_zone: "America/New_York" }),
    );
    expect(ids(byDate)).toEqual([lead]);
  });

  it("reads a clock time without an offset in the zone", async () => {
    const answer = await mkto.ok<Answer>(
      novemberExport(
        { startAt: "2026-11-01T00:30:00", endAt: "2026-11-01T00:30:00" },
        { time_zone: "America/New_York" },
      ),
    );
    expect(ids(answer)).toEqual([lead]);
    expect(answer.first).toContain(
      "createdAt 1 Nov 2026 00:30 (-04:00) to 1 Nov 2026 00:30 (-04:00), sent as 2026-11-01T04:30:00Z to " +
        "2026-11-01T04:30:00Z.",
    );
  });

  it("refuses a wrong end offset with the end date that means it", async () => {
    const wrong = await mkto.call<Answer>(
      novemberExport(
        { startAt: "2026-11-01", endAt: "2026-12-01T00:00:00-04:00" },
        { time_zone: "America/New_York" },
      ),
    );
    expect(wrong.result.isError).toBe(true);
    expect(wrong.text).toContain(
      "body.filter.createdAt.endAt: 2026-12-01T00:00:00-04:00 is not 00:00 in America/New_York on 1 Dec 2026 " +
        "(-05:00 then): send 2026-12-01T00:00:00-05:00, or the date 2026-11-30 with time_zone.",
    );
  });

  it("checks an offset in where against time_zone too, and the value it says to send keeps the lead", async () => {
    const where = (at: string) => `email ends_with "@tz.example" and createdAt >= "${at}"`;
    const span = { startAt: "2026-10-31", endAt: "2026-11-30" };
    mkto.fixture.sandbox.resetStats();
    const wrong = await mkto.call<Answer>(
      novemberExport(span, { time_zone: "America/New_York", where: where("2026-11-01T00:00:00-05:00") }),
    );
    expect(wrong.result.isError).toBe(true);
    expect(wrong.text).toContain(
      "Invalid where: 2026-11-01T00:00:00-05:00 is not 00:00 in America/New_York on 1 Nov 2026 (-04:00 then): " +
        "send 2026-11-01T00:00:00-04:00.",
    );
    expect(mkto.fixture.sandbox.stats().apiCalls).toBe(0);
    const suggested = /send (\S+)\.$/m.exec(wrong.first)?.[1] ?? "";
    const fixed = await mkto.ok<Answer>(
      novemberExport(span, { time_zone: "America/New_York", where: where(suggested) }),
    );
    expect(ids(fixed)).toEqual([lead]);
  });

  it("without time_zone sends the offsets given and states the window in UTC (the lead is outside it)", async () => {
    const answer = await mkto.ok<Answer>(
      novemberExport({ startAt: "2026-11-01T00:00:00-05:00", endAt: "2026-12-01T00:00:00-05:00" }),
    );
    expect(ids(answer)).toEqual([]);
    expect(answer.first).toContain(
      "Dates sent: createdAt 2026-11-01T00:00:00-05:00 to 2026-12-01T00:00:00-05:00 is 2026-11-01T05:00:00Z to " +
        "2026-12-01T05:00:00Z in UTC",
    );
  });

  it("takes a time in UTC (Z) as the instant it names, beside a zone for count_by (trial s37, N543)", async () => {
    mkto.fixture.sandbox.resetStats();
    const utc = await mkto.ok<Answer>(
      novemberExport(
        { startAt: "2026-11-01T04:00:00Z", endAt: "2026-12-01T05:00:00Z" },
        { time_zone: "America/New_York" },
      ),
    );
    expect(ids(utc)).toEqual([lead]);
    expect(utc.first).toContain("sent as 2026-11-01T04:00:00Z to 2026-12-01T05:00:00Z");
    // The hours are New York's: the lead made at 00:30 there counts in hour 0.
    const hours = await mkto.ok<Answer>({
      ...novemberExport(
        { startAt: "2026-11-01T04:00:00Z", endAt: "2026-11-02T04:00:00Z" },
        { time_zone: "America/New_York" },
      ),
      count_by: "createdAt:hour",
    });
    expect(hours.data.result.find((row) => row["createdAt:hour"] === "00")?.count).toBe(1);
  });

  it("reads activities from a date's midnight in the zone (sinceDatetime)", async () => {
    const answer = await mkto.ok<Answer>({
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: { sinceDatetime: "2026-11-01", leadIds: String(lead), activityTypeIds: "New Lead" },
      time_zone: "America/New_York",
      paginate: true,
      max_pages: 200,
    });
    expect(answer.data.result.map((a) => a.leadId)).toEqual([lead]);
    expect(answer.first).toContain(
      "Dates in America/New_York: sinceDatetime 1 Nov 2026 00:00 (-04:00), sent as 2026-11-01T04:00:00Z.",
    );
    // Trial s14, N104: the records' dates are UTC as Marketo writes them, and the answer says so.
    expect(answer.first).toContain(
      "The records' dates stay as Marketo writes them, in UTC (ending Z); where's quoted dates and count_by's " +
        "date buckets are on America/New_York's clock.",
    );
    expect(answer.data.result.every((a) => String(a.activityDate).endsWith("Z"))).toBe(true);
  });

  it("runs the recipes resource's month-in-a-zone call as it stands, and the window is the one its note states", async () => {
    const { contents } = await mkto.session.client.readResource({ uri: "martech-steps://recipes/marketo" });
    const { computed } = JSON.parse((contents[0] as { text: string }).text) as {
      computed: { task: string; call: Record<string, unknown>; note: string }[];
    };
    const recipe = computed.find((r) =>
      r.task.startsWith("leads created in a calendar month in a time zone"),
    );
    expect(recipe).toBeDefined();
    const answer = await mkto.ok<Answer>({ ...recipe?.call, where: 'email ends_with "@tz.example"' });
    expect(ids(answer)).toEqual([lead]);
    const window = /here (\S+) to (\S+)\./.exec(recipe?.note ?? "");
    expect(answer.first).toContain(`sent as ${window?.[1]} to ${window?.[2]}`);
  });

  it("refuses an unknown zone, naming the field and an example, and a zone with no date to apply to", async () => {
    const unknown = await mkto.call<Answer>(
      novemberExport({ startAt: "2026-11-01", endAt: "2026-11-30" }, { time_zone: "America/Nowhere" }),
    );
    expect(unknown.result.isError).toBe(true);
    expect(unknown.text).toMatch(/time_zone/);
    expect(unknown.text).toContain('"America/New_York"');
    const idle = await mkto.call<Answer>({
      method: "GET",
      endpoint: "/rest/v1/lists.json",
      time_zone: "UTC",
    });
    expect(idle.result.isError).toBe(true);
    expect(idle.text).toContain("Invalid time_zone: it applies to an export create's body.filter");
  });
});

/**
 * The reference, found apart from the step's own arithmetic: the zone's clock read with Intl in another
 * locale, scanning the offsets every zone has used (-12:00 to +14:00, quarter hours) for the first instant
 * that reads 00:00:00 on the date.
 */
const reads = (zone: string, at: number) =>
  new Intl.DateTimeFormat("sv-SE", {
    timeZone: zone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).format(new Date(at));

function midnight(zone: string, day: number): number {
  const date = new Date(day).toISOString().slice(0, 10);
  const found: number[] = [];
  for (let quarter = -12 * 4; quarter <= 14 * 4; quarter += 1) {
    const at = day - quarter * 15 * 60_000;
    if (reads(zone, at) === `${date} 00:00:00`) found.push(at);
  }
  expect(found.length, `${zone} ${date}`).toBeGreaterThan(0);
  return Math.min(...found);
}

const DAY = 86_400_000;
const ZONES = ["America/New_York", "Europe/London", "Australia/Sydney", "Asia/Kolkata", "UTC"];
const DAYS = 5 * 365;
const DAY_ZERO = Date.UTC(2024, 0, 1);

/** The zone's offset at an instant, from its clock read back (whole minutes). */
const offsetOf = (zone: string, at: number) => Date.parse(`${reads(zone, at).replace(" ", "T")}Z`) - at;

/**
 * The days (from DAY_ZERO) around each of the zone's offset changes in the years generated: the day of a
 * change and the day after, so a generated range starts or ends on one as often as anywhere else.
 */
function changeDays(zone: string): number[] {
  const days: number[] = [];
  for (let day = 0; day < DAYS; day += 1) {
    const noon = DAY_ZERO + day * DAY + DAY / 2;
    if (offsetOf(zone, noon) !== offsetOf(zone, noon + DAY)) days.push(day, day + 1);
  }
  return days;
}

/** A zone, a day (any, or one by an offset change of that zone), a span, and whether the day ends the range. */
const zoneDays = fc.constantFrom(...ZONES).chain((zone) => {
  const changes = changeDays(zone);
  const any = fc.integer({ min: 0, max: DAYS });
  return fc.tuple(
    fc.constant(zone),
    changes.length > 0 ? fc.oneof(any, fc.constantFrom(...changes)) : any,
    fc.integer({ min: 0, max: 40 }),
    fc.boolean(),
  );
});

describe("the window sent for dates in a zone (property)", () => {
  it("is the zone's midnight of the first date to its midnight after the last, DST included", async () => {
    await fc.assert(
      // Days from 1 Jan 2024 to the end of 2028, and spans of up to 40 days (over 31: several jobs).
      fc.asyncProperty(zoneDays, async ([zone, picked, span, endsThere]) => {
        const first = DAY_ZERO + Math.max(0, endsThere ? picked - span : picked) * DAY;
        const last = first + span * DAY;
        const start = midnight(zone, first);
        const end = midnight(zone, last + DAY);
        // The reference reads right: a second earlier is still the day before, in the zone.
        expect(reads(zone, start - 1000).slice(11)).toBe("23:59:59");
        expect(reads(zone, end - 1000).slice(0, 10)).toBe(new Date(last).toISOString().slice(0, 10));
        const inside = [await leadAt(start), await leadAt(end)];
        const outside = [await leadAt(start - 1000), await leadAt(end + 1000)];
        const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
        const answer = await mkto.ok<Answer>(
          novemberExport({ startAt: day(first), endAt: day(last) }, { time_zone: zone }),
        );
        expect(answer.first).toContain(`sent as ${iso(start)} to ${iso(end)}`);
        // Marketo's range counts both ends in: the leads at the two midnights, not those a second outside.
        const found = ids(answer);
        for (const id of inside) expect(found).toContain(id);
        for (const id of outside) expect(found).not.toContain(id);
      }),
      { seed: 27, numRuns: 12 },
    );
    // Twelve export runs: about 15 s alone, twice that beside other files on two cores (a limit, not a timing).
  }, 90_000);
});
