/**
 * Issue 27, trial s31 N455 ("how many people opened on a phone only, a computer only, or both?"): the agent read
 * 775,697 characters of opens to group them per lead by hand. `per "leadId,attributes.Is Mobile Device"` lists,
 * on each lead's row, the field's distinct values (sorted, joined by " + ") and how many there are
 * (`attributes.Is Mobile Device_count`), so count_by over the rows answers in one call.
 *
 * The invariants, fast-check over windows, types, listed fields and where through MCP on the sandbox: each row's
 * listed values are those of the plain read's matching records of its lead, grouped by hand; count_by over a
 * listed field counts the rows per combination and adds up to the rows; the same on an export run to completion.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { activityExport, seededMarketo } from "../helpers/marketo-mcp.js";

type Activity = Record<string, unknown> & { leadId: number };
type Row = Record<string, unknown> & { leadId: number; records: number };
interface Read<T> {
  result: T[];
  complete: boolean;
}

const mkto = seededMarketo(300);
const READ = {
  method: "GET",
  endpoint: "/rest/v1/activities.json",
  paginate: true,
  max_pages: 200,
  max_items: 100_000,
};

/** A field of an activity as the REST API or an export's row writes it: top-level, or a name/value attribute. */
function fieldOf(record: Activity, field: string): unknown {
  if (!field.startsWith("attributes.")) return record[field];
  const name = field.slice("attributes.".length);
  const attributes = record.attributes;
  if (typeof attributes === "string") return (JSON.parse(attributes) as Record<string, unknown>)[name];
  return (attributes as { name: string; value: unknown }[] | undefined)?.find((a) => a.name === name)?.value;
}

/** Each lead's distinct values of `field` among the records, worked out by hand, as per lists them. */
function listedByHand(
  records: Activity[],
  field: string,
): Map<number, { values: string | null; count: number }> {
  const sets = new Map<number, Set<string>>();
  for (const record of records) {
    const set = sets.get(record.leadId) ?? new Set<string>();
    const value = fieldOf(record, field);
    if (value !== undefined && value !== null && value !== "") set.add(String(value));
    sets.set(record.leadId, set);
  }
  return new Map(
    [...sets].map(([leadId, set]) => [
      leadId,
      { values: set.size === 0 ? null : [...set].sort().join(" + "), count: set.size },
    ]),
  );
}

const tally = (values: (string | null)[]): Map<string | null, number> => {
  const counts = new Map<string | null, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
};

describe("per with listed fields: each row lists a field's distinct values and their number", () => {
  it("lists as the plain read's matching records grouped by hand, and count_by counts the combinations", {
    timeout: 180_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("2026-11-10", "2026-11-24"),
        fc.constantFrom("Open Email", "Open Email,Click Email", "Send Email,Open Email"),
        fc.constantFrom("attributes.Is Mobile Device", "primaryAttributeValue", "attributes.Platform"),
        fc.constantFrom(undefined, 'activityType = "Open Email"'),
        async (day, types, field, where) => {
          const query = { sinceDatetime: `${day}T00:00:00Z`, activityTypeIds: types };
          const plain = await mkto.ok<Read<Activity>>({
            ...READ,
            query_parameters: query,
            ...(where ? { where } : {}),
          });
          const want = listedByHand(await mkto.results(plain), field);

          const rolled = await mkto.ok<Read<Row>>({
            ...READ,
            query_parameters: query,
            per: `leadId,${field}`,
            ...(where ? { where } : {}),
          });
          const rows = await mkto.results(rolled);
          expect(rows).toHaveLength(want.size);
          for (const row of rows) {
            expect({ values: row[field], count: row[`${field}_count`] }).toEqual(want.get(row.leadId));
          }

          const counted = await mkto.ok<Read<Record<string, unknown> & { count: number }>>({
            ...READ,
            query_parameters: query,
            per: `leadId,${field}`,
            count_by: field,
            ...(where ? { where } : {}),
          });
          const byCombination = tally([...want.values()].map((row) => row.values));
          expect(new Map(counted.data.result.map((row) => [row[field] as string | null, row.count]))).toEqual(
            byCombination,
          );
          expect(counted.data.result.reduce((sum, row) => sum + row.count, 0)).toBe(want.size);
        },
      ),
      { numRuns: 8 },
    );
  });

  it("answers phone only, computer only or both in one call, as the opens grouped by hand", async () => {
    const query = { sinceDatetime: "2026-09-01T00:00:00Z", activityTypeIds: "Open Email" };
    const field = "attributes.Is Mobile Device";
    const plain = await mkto.ok<Read<Activity>>({ ...READ, query_parameters: query });
    const want = tally([...listedByHand(await mkto.results(plain), field).values()].map((row) => row.values));
    // The leads who opened on both are a row of their own.
    expect(want.get("false + true")).toBeGreaterThan(0);
    const counted = await mkto.ok<Read<Record<string, unknown> & { count: number }>>({
      ...READ,
      query_parameters: query,
      per: `leadId,${field}`,
      count_by: field,
    });
    expect(new Map(counted.data.result.map((row) => [row[field] as string | null, row.count]))).toEqual(want);
    expect(counted.data.complete).toBe(true);
    // The field's name in double quotes is the same field (review s39, 6).
    const quoted = await mkto.ok<Read<Record<string, unknown> & { count: number }>>({
      ...READ,
      query_parameters: query,
      per: `leadId,"${field}"`,
      count_by: field,
    });
    expect(quoted.data.result).toEqual(counted.data.result);
  });

  it("lists a date bucket of a field, on the zone's clock: the days each lead visited, as counted by hand (trial s33 N481)", async () => {
    const query = { sinceDatetime: "2026-11-06", activityTypeIds: "Visit Webpage,Fill Out Form" };
    for (const zone of [undefined, "America/Los_Angeles", "Asia/Tokyo"]) {
      const plain = await mkto.results(
        await mkto.ok<Read<Activity>>({
          ...READ,
          query_parameters: query,
          ...(zone ? { time_zone: zone } : {}),
        }),
      );
      const dayOf = (at: unknown) =>
        new Intl.DateTimeFormat("en-CA", { timeZone: zone ?? "UTC" }).format(new Date(String(at)));
      const days = new Map<number, Set<string>>();
      for (const visit of plain)
        days.set(visit.leadId, (days.get(visit.leadId) ?? new Set()).add(dayOf(visit.activityDate)));
      const counted = await mkto.ok<Read<{ "activityDate:day_count": number; count: number }>>({
        ...READ,
        query_parameters: query,
        ...(zone ? { time_zone: zone } : {}),
        per: "leadId,activityDate:day",
        count_by: "activityDate:day_count",
      });
      const want = tally([...days.values()].map((set) => String(set.size)));
      expect(
        new Map(counted.data.result.map((row) => [String(row["activityDate:day_count"]), row.count])),
        zone,
      ).toEqual(want);
      // Each row lists its days, sorted, and a lead with visits on 3 days or more is counted as by hand.
      const rows = await mkto.results(
        await mkto.ok<Read<Row>>({
          ...READ,
          query_parameters: query,
          ...(zone ? { time_zone: zone } : {}),
          per: "leadId,activityDate:day",
        }),
      );
      for (const row of rows) {
        expect(String(row["activityDate:day"]).split(" + ")).toEqual(
          [...(days.get(row.leadId) ?? [])].sort(),
        );
      }
    }
  });

  it("orders rows by a band or weekday by its place, and lists listed ones so (review s39, 2 and 12)", async () => {
    const query = { sinceDatetime: "2026-09-01T00:00:00Z", activityTypeIds: "Visit Webpage" };
    const low = (label: string) => Number(label.split(" ")[0]);
    const WEEK = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
    const bands = await mkto.ok<Read<Row & { "lead.leadScore:25": string }>>({
      ...READ,
      query_parameters: query,
      lead_fields: "leadScore",
      per: "lead.leadScore:25,activityDate:weekday",
      order_by: "-lead.leadScore:25",
      limit: 2,
    });
    const all = await mkto.results(
      await mkto.ok<Read<Row & { "lead.leadScore:25": string; "activityDate:weekday": string }>>({
        ...READ,
        query_parameters: query,
        lead_fields: "leadScore",
        per: "lead.leadScore:25,activityDate:weekday",
      }),
    );
    const top = all.map((row) => row["lead.leadScore:25"]).sort((a, b) => low(b) - low(a));
    expect(bands.data.result.map((row) => row["lead.leadScore:25"])).toEqual(top.slice(0, 2));
    for (const row of all) {
      const days = row["activityDate:weekday"].split(" + ");
      expect(days).toEqual([...days].sort((a, b) => WEEK.indexOf(a) - WEEK.indexOf(b)));
    }
    const last = await mkto.ok<Read<Row & { "activityDate:weekday": string }>>({
      ...READ,
      query_parameters: query,
      per: "activityDate:weekday,leadId",
      order_by: "-activityDate:weekday",
      limit: 1,
    });
    expect(last.data.result[0]?.["activityDate:weekday"]).toBe("Sunday");
    // Without order_by, the rows are in the bucket's order too (review s40, 5).
    const week = await mkto.ok<Read<Row & { "activityDate:weekday": string }>>({
      ...READ,
      query_parameters: query,
      per: "activityDate:weekday,leadId",
    });
    const days = (await mkto.results(week)).map((row) => row["activityDate:weekday"]);
    expect(days).toEqual([...days].sort((a, b) => WEEK.indexOf(a) - WEEK.indexOf(b)));
    expect(days).toHaveLength(7);
  });

  it("takes time_zone for per's date buckets alone and says their clock; a bucket's refusal names per (review s39, 3, 9)", async () => {
    const MEMBERS = {
      method: "GET",
      endpoint: "/rest/v1/lists/1001/leads.json",
      query_parameters: { fields: "id,createdAt,leadSource" },
      paginate: true,
      per: "leadSource,createdAt:month",
    };
    const utc = await mkto.ok<Read<Row>>(MEMBERS);
    expect(utc.first).toContain("createdAt:month in UTC (time_zone names another zone)");
    const zoned = await mkto.ok<Read<Row & { leadSource: string; "createdAt:month": string }>>({
      ...MEMBERS,
      time_zone: "Pacific/Kiritimati",
    });
    expect(zoned.first).toContain("createdAt:month on Pacific/Kiritimati's clock");
    // The months as counted by hand on that clock (UTC+14).
    const members = await mkto.results(
      await mkto.ok<Read<{ leadSource?: string; createdAt: string }>>({ ...MEMBERS, per: undefined }),
    );
    const month = (at: string) => new Date(Date.parse(at) + 14 * 3_600_000).toISOString().slice(0, 7);
    for (const row of await mkto.results(zoned)) {
      const want = new Set(
        members.filter((m) => m.leadSource === row.leadSource).map((m) => month(m.createdAt)),
      );
      expect(row["createdAt:month"]).toBe([...want].sort().join(" + "));
    }
    const wrong = await mkto.call({ ...MEMBERS, per: "leadSource,createdAt:days" });
    expect(wrong.first).toMatch(/^Invalid per: "createdAt:days"/);
  });

  it("names the quoted column when count_by names a bucket column of per's rows unquoted, which then counts them (review s39, 4)", async () => {
    const query = { sinceDatetime: "2026-11-06", activityTypeIds: "Visit Webpage" };
    const base = { ...READ, query_parameters: query, per: "leadId,activityDate:day" };
    const refused = await mkto.call({ ...base, count_by: "activityDate:day" });
    expect(refused.result.isError).toBe(true);
    const quoted = /count_by "(\\"[^\\]+\\")"/.exec(refused.first)?.[1]?.replaceAll("\\", "");
    expect(quoted).toBe('"activityDate:day"');
    const counted = await mkto.ok<Read<{ "activityDate:day": string; count: number }>>({
      ...base,
      count_by: quoted,
    });
    const rows = await mkto.results(await mkto.ok<Read<Row & { "activityDate:day": string }>>(base));
    expect(new Map(counted.data.result.map((r) => [r["activityDate:day"], r.count]))).toEqual(
      tally(rows.map((row) => row["activityDate:day"])),
    );
  });

  it("says when a row lists many values, and the count it names gives each row's number of them (review s38, 14)", async () => {
    const query = { sinceDatetime: "2026-11-01T00:00:00Z", activityTypeIds: "Visit Webpage,Open Email" };
    const listed = await mkto.ok<Read<Row & { activityType: string; leadId_count: number }>>({
      ...READ,
      query_parameters: query,
      per: "activityType,leadId",
    });
    const rows = await mkto.results(listed);
    const most = Math.max(...rows.map((row) => row.leadId_count));
    expect(most).toBeGreaterThan(100);
    expect(listed.first).toContain(`a row lists up to ${most.toLocaleString("en-US")} values of leadId`);
    const hint = /count_by "([^"]+)" with count_distinct "([^"]+)"/.exec(listed.first);
    const counted = await mkto.ok<Read<{ activityType: string; count: number }>>({
      ...READ,
      query_parameters: query,
      count_by: hint?.[1],
      count_distinct: hint?.[2],
    });
    expect(new Map(counted.data.result.map((row) => [row.activityType, row.count]))).toEqual(
      new Map(rows.map((row) => [row.activityType, row.leadId_count])),
    );
    // A short list is not remarked on.
    const few = await mkto.ok({ ...READ, query_parameters: query, per: "leadId,activityType" });
    expect(few.first).not.toContain("a row lists up to");
  });

  it("counts leads by how many distinct emails they opened (the _count field), over an export run to completion", {
    timeout: 60_000,
  }, async () => {
    const EXPORT = activityExport("2026-11-05T00:00:00Z", "2026-12-01T00:00:00Z", ["Open Email"]);
    const plain = await mkto.ok<Read<Activity>>(EXPORT);
    const json = plain.links.find((l) => l.mimeType === "application/json");
    const rows = (JSON.parse(await mkto.whole(json?.uri ?? "")) as Record<string, string>[]).map(
      (row): Activity => ({ ...row, leadId: Number(row.leadId) }),
    );
    const want = tally([...listedByHand(rows, "primaryAttributeValue").values()].map((r) => String(r.count)));
    const counted = await mkto.ok<Read<{ primaryAttributeValue_count: number; count: number }>>({
      ...EXPORT,
      per: "leadId,primaryAttributeValue",
      count_by: "primaryAttributeValue_count",
    });
    expect(
      new Map(counted.data.result.map((row) => [String(row.primaryAttributeValue_count), row.count])),
    ).toEqual(want);
    expect(counted.first).toContain("primaryAttributeValue (its distinct values");
  });

  it("refuses a listed field no record has with the fields they have; the closest named works", async () => {
    const query = { sinceDatetime: "2026-11-28T00:00:00Z", activityTypeIds: "Open Email" };
    const wrong = await mkto.call({ ...READ, query_parameters: query, per: "leadId,attributes.Is Mobile" });
    expect(wrong.result.isError).toBe(true);
    expect(wrong.first).toContain("has a field named attributes.Is Mobile;");
    const closest = /they have "([^"]+)"/.exec(wrong.first)?.[1];
    expect(closest).toBe("attributes.Is Mobile Device");
    await mkto.ok({ ...READ, query_parameters: query, per: `leadId,${closest}`, count_by: closest });
    // A where on a row's count is refused before the read, with the count_by that does it.
    const onRows = await mkto.call({
      ...READ,
      query_parameters: query,
      per: "leadId,primaryAttributeValue",
      where: "primaryAttributeValue_count > 2",
    });
    expect(onRows.first).toContain("where tests the records read, before per rolls them up");
  });

  it("checks every field per names before any read, and refuses a joined value in where or sum and a list to list; numbers in number order (review s37, 3-5, 8)", async () => {
    const query = { sinceDatetime: "2026-11-20T00:00:00Z", activityTypeIds: "Open Email" };
    mkto.fixture.sandbox.resetStats();
    const refusals = [
      [{ per: "leadId,lead.country" }, 'Add it: lead_fields "country"'],
      [{ per: "leadId,next_hours" }, "next_hours is a field of next, which this call does not give"],
      [{ per: ",leadId" }, "its first field, the one each row is for, is empty"],
      [
        {
          per: "leadId,attributes.Is Mobile Device",
          where: '"attributes.Is Mobile Device" == "false + true"',
        },
        'count_by "attributes.Is Mobile Device"',
      ],
      [
        { per: "leadId,primaryAttributeValue", count_by: "types", sum: "primaryAttributeValue" },
        '"primaryAttributeValue_count"',
      ],
      // Either quote (review s38, 9).
      [
        {
          per: "leadId,attributes.Is Mobile Device",
          where: "\"attributes.Is Mobile Device\" == 'false + true'",
        },
        'count_by "attributes.Is Mobile Device"',
      ],
      // Objects by the call's own inputs, refused before the read (review s38, 12).
      [{ per: "attributes" }, "attributes holds the activity's attributes (a name/value list"],
      [{ per: "leadId,lead", lead_fields: "email" }, 'per "leadId,lead.email"'],
      [{ per: "leadId,next", next: "Click Email" }, 'per "leadId,next.primaryAttributeValue"'],
      // A date bucket of a field that holds ids (review s39, 9).
      [{ per: "leadId,leadId:week" }, "leadId:week is a date bucket of leadId, which holds ids or names"],
      [{ per: "leadId,activityDate:days" }, '"activityDate:days": ":days" is not a date bucket'],
    ] as const;
    for (const [extra, words] of refusals) {
      const refused = await mkto.call({ ...READ, query_parameters: query, ...extra });
      expect(refused.result.isError, JSON.stringify(extra)).toBe(true);
      expect(refused.first).toContain(words);
    }
    expect(mkto.fixture.sandbox.stats().callsByPath["/rest/v1/activities.json"]).toBeUndefined();
    // A " + " in another field's value is no joined value (review s39, 7): the call is answered.
    const other = await mkto.call({
      ...READ,
      query_parameters: query,
      per: "leadId,primaryAttributeValue",
      where: 'primaryAttributeValue contains "Email" and activityType != "Webinar + Demo"',
    });
    expect(other.result.isError, other.first).toBeFalsy();
    // The sum the refusal names works: each row's sum is its count of distinct emails.
    const summed = await mkto.ok<Read<{ count: number; sum: number }>>({
      ...READ,
      query_parameters: query,
      per: "leadId,primaryAttributeValue",
      count_by: "types",
      sum: "primaryAttributeValue_count",
    });
    expect(summed.data.result[0]?.sum).toBeGreaterThanOrEqual(summed.data.result[0]?.count ?? Infinity);
    // A list is no value to list: the refusal names one inside it, which works (review s37, 8).
    mkto.fixture.sandbox.resetStats();
    const whole = await mkto.call({ ...READ, query_parameters: query, per: "leadId,attributes" });
    expect(whole.first).toContain("attributes holds the activity's attributes (a name/value list");
    expect(mkto.fixture.sandbox.stats().callsByPath["/rest/v1/activities.json"]).toBeUndefined();
    const inside = /per "leadId,([^"]+)"/.exec(whole.first)?.[1];
    expect(inside).toMatch(/^attributes\./);
    const listed = await mkto.ok<Read<Row>>({ ...READ, query_parameters: query, per: `leadId,${inside}` });
    expect((await mkto.results(listed)).some((row) => row[inside ?? ""] !== null)).toBe(true);
    // A long where is said back by its start and length, as without per (trial s32 N458: 7,667 characters of ids).
    const ids = Array.from({ length: 1_000 }, (_, i) => i + 1).join(",");
    const long = await mkto.ok({
      ...READ,
      query_parameters: query,
      per: "leadId",
      where: `leadId in (${ids})`,
    });
    expect(long.first).toContain(`where leadId in (1,2,3,`);
    expect(long.first).toContain(`(${(ids.length + 12).toLocaleString("en-US")} characters in all)`);
    expect(long.first.split("\n")[0]?.length).toBeLessThan(700);
    // Numbers are listed in number order (lead ids: 109 after 1077 read as text).
    const byCampaign = await mkto.ok<Read<Row & { leadId: string }>>({
      ...READ,
      query_parameters: query,
      per: "primaryAttributeValue,leadId",
    });
    for (const row of await mkto.results(byCampaign)) {
      const ids = String(row.leadId).split(" + ").map(Number);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    }
    // A lead field first, with lead_fields naming it: rows per lead source, each listing its leads.
    const bySource = await mkto.ok<Read<Row & { "lead.leadSource": string; leadId_count: number }>>({
      ...READ,
      query_parameters: query,
      per: "lead.leadSource,leadId",
      lead_fields: "leadSource",
    });
    const distinct = await mkto.ok<Read<{ "lead.leadSource": string; records: number }>>({
      ...READ,
      query_parameters: query,
      lead_fields: "leadSource",
      count_by: "lead.leadSource",
      count_distinct: "leadId",
    });
    const want = new Map(distinct.data.result.map((row) => [row["lead.leadSource"], row.records]));
    const rows = await mkto.results(bySource);
    expect(new Map(rows.map((row) => [row["lead.leadSource"], row.leadId_count]))).toEqual(
      new Map([...want].filter(([source]) => source !== null && source !== "")),
    );
  });
});
