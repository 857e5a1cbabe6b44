/**
 * count_distinct (issue 27; agent trial on new tasks, N08: unique opens per email took one export per email
 * and type): with count_by, each group's count is the number of distinct values of a field among its
 * records, and `records` its records. Through MCP on the sandbox, against the sandbox's own data set: on a
 * paged REST read, an export run to completion, the same export answered from its kept rows, and its file.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildDataSet } from "../../src/sandbox/marketo/seed.js";
import type { Activity } from "../../src/sandbox/marketo/types.js";
import { iso, marketoOverMcp, runningClock } from "../helpers/marketo-mcp.js";

interface Answer {
  result: Record<string, unknown>[];
  complete: boolean;
  computed?: Record<string, number>;
  extra?: Record<string, unknown>;
}

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 11, 1, 12);
const SEED = 11;
const LEADS = 1_000;
const world = buildDataSet({ leadCount: LEADS, seed: SEED, now: T0 });
const typeName = new Map(world.activityTypes.map((t) => [t.id, t.name]));
const typeId = new Map(world.activityTypes.map((t) => [t.name, t.id]));
const EMAIL_TYPES = ["Send Email", "Email Delivered", "Open Email", "Click Email"];

const mkto = marketoOverMcp({
  leadCount: LEADS,
  seed: SEED,
  now: runningClock(T0),
  bulkJobMs: 50,
  rateLimit: 1_000_000,
});
const ok = (args: Record<string, unknown>) => mkto.ok<Answer>(args);

type Field = "primaryAttributeValue" | "activityType" | "leadId";
const read = (a: Activity, field: Field): string | null => {
  const value =
    field === "activityType"
      ? typeName.get(a.activityTypeId)
      : (a as unknown as Record<string, unknown>)[field];
  return value === undefined || value === null || value === "" ? null : String(value);
};

/** The reference: per group of `by`, the distinct values of `distinct` and the records. */
function truth(activities: readonly Activity[], by: Field[], distinct: Field) {
  const groups = new Map<string, { values: Set<string>; records: number }>();
  for (const a of activities) {
    const key = JSON.stringify(by.map((field) => read(a, field)));
    const group = groups.get(key) ?? { values: new Set<string>(), records: 0 };
    group.records += 1;
    const value = read(a, distinct);
    if (value !== null) group.values.add(value);
    groups.set(key, group);
  }
  return new Map([...groups].map(([key, group]) => [key, [group.values.size, group.records] as const]));
}

const got = (rows: Record<string, unknown>[], by: Field[]) =>
  new Map(
    rows.map((row) => [
      JSON.stringify(by.map((field) => (row[field] === null ? null : String(row[field])))),
      [Number(row.count), Number(row.records)],
    ]),
  );

describe("count_distinct on a paged REST read (property, fast-check)", () => {
  const since = T0 - 3 * DAY;
  const recent = world.activities.filter((a) => a.at >= since);

  it("each group counts the distinct values of the field among its records, and its records", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.constantFrom(...EMAIL_TYPES, "Visit Webpage", "Fill Out Form"), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.constantFrom<Field[]>(
          ["primaryAttributeValue"],
          ["primaryAttributeValue", "activityType"],
          ["activityType"],
        ),
        fc.constantFrom<Field>("leadId", "primaryAttributeValue"),
        fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
        async (types, by, distinct, least) => {
          const ids = types.map((name) => typeId.get(name));
          const { data, text } = await ok({
            method: "GET",
            endpoint: "/rest/v1/activities.json",
            query_parameters: { sinceDatetime: iso(since), activityTypeIds: types },
            paginate: true,
            max_pages: 200,
            max_items: 100_000,
            count_by: by.join(","),
            count_distinct: distinct,
            ...(least !== undefined ? { min_count: least } : {}),
          });
          const want = truth(
            recent.filter((a) => ids.includes(a.activityTypeId)),
            by,
            distinct,
          );
          const kept = [...want].filter(([, [count]]) => least === undefined || count >= least);
          // A type asked for with no activity reads 0 (a row of its own) when counted by type alone.
          const rows = data.result.filter((row) => Number(row.records) > 0);
          expect(got(rows, by)).toEqual(new Map(kept));
          expect(text).toContain(`counted distinct ${distinct}`);
          expect(data.computed?.read).toBe(recent.filter((a) => ids.includes(a.activityTypeId)).length);
        },
      ),
      { seed: 2708, numRuns: 10 },
    );
  });
});

describe("count_distinct on an activity export: run to completion, kept rows, and its file", () => {
  const from = T0 - 40 * DAY;
  const to = T0 - 60_000;
  const ids = EMAIL_TYPES.map((name) => typeId.get(name));
  const inSpan = world.activities.filter(
    (a) => a.at >= Date.parse(iso(from)) && a.at <= Date.parse(iso(to)) && ids.includes(a.activityTypeId),
  );
  const by: Field[] = ["primaryAttributeValue", "activityType"];
  const want = truth(inSpan, by, "leadId");
  const call = {
    method: "POST",
    endpoint: "/bulk/v1/activities/export/create.json",
    body: {
      format: "CSV",
      filter: { createdAt: { startAt: iso(from), endAt: iso(to) }, activityTypeIds: EMAIL_TYPES },
    },
    run_to_completion: true,
    count_by: "primaryAttributeValue,activityType",
    count_distinct: "leadId",
  };

  it("unique leads per email and type, with the total records of each, over a span of two jobs", async () => {
    const { data, text } = await ok(call);
    expect([...want.values()].some(([unique, total]) => unique < total)).toBe(true);
    expect(got(data.result, by)).toEqual(want);
    expect(text).toContain("counted distinct leadId");
    expect(text).toContain(`its rows, which add up to ${inSpan.length.toLocaleString("en-US")}`);
    // The same export again is answered from its kept rows, counted the same way.
    const again = await ok(call);
    expect(again.data.extra?.reused_export_finished_at).toBeDefined();
    expect(got(again.data.result, by)).toEqual(want);
  });

  it("the same counts from one job's export file read with count_distinct", async () => {
    const start = T0 - 20 * DAY;
    const one = {
      ...call.body,
      filter: { ...call.body.filter, createdAt: { startAt: iso(start), endAt: iso(to) } },
    };
    const { data } = await ok({ ...call, body: one, count_by: undefined, count_distinct: undefined });
    const file = String(data.extra?.file_endpoint);
    const { data: counted } = await ok({
      method: "GET",
      endpoint: file,
      count_by: "primaryAttributeValue",
      count_distinct: "leadId",
      min_count: 3,
    });
    const span = inSpan.filter((a) => a.at >= Date.parse(iso(start)));
    const kept = [...truth(span, ["primaryAttributeValue"], "leadId")].filter(([, [count]]) => count >= 3);
    expect(got(counted.result, ["primaryAttributeValue"])).toEqual(new Map(kept));
  });
});

describe("count_distinct's refusals", () => {
  const LIST = {
    method: "GET",
    endpoint: "/rest/v1/lists/1001/leads.json",
    query_parameters: { fields: "id,email,leadSource" },
    paginate: true,
  };

  it("says the distinct values over all rows and per each field's value, as the whole read has them (property; trial s42, N590)", {
    timeout: 120_000,
  }, async () => {
    const base = {
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: { sinceDatetime: iso(T0 - 20 * DAY), activityTypeIds: EMAIL_TYPES.join(",") },
      paginate: true,
      max_pages: 200,
    };
    const records = await mkto.results<Record<string, unknown>>(await ok(base));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(["activityType", "primaryAttributeValue"], ["primaryAttributeValue", "activityType"]),
        async (fields) => {
          const answer = await ok({
            ...base,
            count_by: fields.join(","),
            count_distinct: "leadId",
            limit: 3,
          });
          const leads = (keep: (r: Record<string, unknown>) => boolean) =>
            new Set(records.filter(keep).map((r) => r.leadId)).size;
          expect(answer.first).toContain(
            `${leads(() => true).toLocaleString("en-US")} distinct leadId over all the records counted`,
          );
          for (const field of fields) {
            const said = new RegExp(
              `distinct leadId per ${field}: ([^;]+(?:; [^;]+)*?)(?:; distinct|; the records')`,
            ).exec(answer.first)?.[1];
            expect(said, answer.first).toBeDefined();
            const values = [...new Set(records.map((r) => String(r[field])))];
            const expected = values
              .map((value) => ({ value, count: leads((r) => String(r[field]) === value) }))
              .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1))
              .map(({ value, count }) => `${value} ${count.toLocaleString("en-US")}`);
            expect(said?.split("; ")).toEqual(expected);
          }
        },
      ),
      { numRuns: 2 },
    );
  });

  it("says a field of many values is left to a count of its own, and that min_count's rows are in the totals (review s52, 7)", async () => {
    const answer = await ok({
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: { sinceDatetime: iso(T0 - 20 * DAY), activityTypeIds: EMAIL_TYPES.join(",") },
      paginate: true,
      max_pages: 200,
      count_by: "leadId,activityType",
      count_distinct: "primaryAttributeValue",
      min_count: 2,
    });
    expect(answer.first).toMatch(
      /[\d,]+ leadId values: count by leadId alone for each one's distinct primaryAttributeValue/,
    );
    expect(answer.first).toContain(
      "(one in several rows counts once, rows min_count or limit leave out too)",
    );
    expect(answer.first).toMatch(/distinct primaryAttributeValue per activityType: /);
  });

  it("refuses count_distinct without count_by, naming count_by, and does what its hint says", async () => {
    mkto.fixture.sandbox.resetStats();
    const { result, text } = await mkto.call({ ...LIST, count_distinct: "email" });
    expect(result.isError).toBe(true);
    expect(text).toContain("Invalid count_distinct");
    expect(text).toContain("give count_by too");
    expect(mkto.fixture.sandbox.stats().apiCalls).toBe(0);
    const example = /E\.g\. count_by "(\w+)", count_distinct "(\w+)"/.exec(text);
    expect(example).not.toBeNull();
    const { text: done } = await ok({
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: { sinceDatetime: iso(T0 - DAY), activityTypeIds: "Open Email" },
      paginate: true,
      count_by: example?.[1],
      count_distinct: example?.[2],
    });
    expect(done).toContain(`counted distinct ${example?.[2]}`);
  });

  it("refuses a field no record has, naming count_distinct and the fields there are", async () => {
    const { result, text } = await mkto.call({ ...LIST, count_by: "leadSource", count_distinct: "nope" });
    expect(result.isError).toBe(true);
    expect(text).toContain("Invalid count_distinct");
    expect(text).toContain("email");
  });
});
