/**
 * An activity's attributes read by name (issue 27; agent trial on new tasks, N08: count_by
 * `attributes.Choice Number` on an export file failed four times, and its error advised quoting). On the REST
 * API `attributes` is a list of {name, value}; in an activity export's file it is JSON text. A dotted path
 * (attributes.Choice Number, attributes."Campaign Run ID", "attributes.Step ID") reads the attribute in both,
 * in where, order_by, count_by and count_distinct. Through MCP on the sandbox, against its own data set.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildDataSet } from "../../src/sandbox/marketo/seed.js";
import type { Activity } from "../../src/sandbox/marketo/types.js";
import { iso, marketoOverMcp, runningClock } from "../helpers/marketo-mcp.js";

interface Answer {
  result: Record<string, unknown>[];
  computed?: Record<string, number>;
  extra?: Record<string, unknown>;
}

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 11, 1, 12);
const SEED = 11;
const LEADS = 1_000;
const world = buildDataSet({ leadCount: LEADS, seed: SEED, now: T0 });
const SINCE = T0 - 3 * DAY;
const TO = T0 - 60_000;
const recent = world.activities.filter((a) => a.at >= SINCE && a.at <= TO);
/** The types with activities in the window, each with the attribute names its activities carry. */
const TYPES = [...new Set(recent.map((a) => a.activityTypeId))]
  .map((id) => ({
    id,
    names: [
      ...new Set(
        recent.filter((a) => a.activityTypeId === id).flatMap((a) => a.attributes.map((x) => x.name)),
      ),
    ],
  }))
  // The REST read of Change Data Value leaves its New/Old Value out of attributes (they are its fields).
  .filter((type) => type.id !== 13 && type.names.length > 0);

const mkto = marketoOverMcp({
  leadCount: LEADS,
  seed: SEED,
  now: runningClock(T0),
  bulkJobMs: 50,
  rateLimit: 1_000_000,
});
const ok = (args: Record<string, unknown>) => mkto.ok<Answer>(args);

const attributeOf = (a: Activity, name: string): string | null => {
  const value = a.attributes.find((x) => x.name === name)?.value;
  return value === undefined || value === null || value === "" ? null : String(value);
};

function tally(activities: readonly Activity[], name: string): Map<string | null, number> {
  const counts = new Map<string | null, number>();
  for (const a of activities) counts.set(attributeOf(a, name), (counts.get(attributeOf(a, name)) ?? 0) + 1);
  return counts;
}

const counted = (rows: Record<string, unknown>[], field: string) =>
  new Map(rows.map((row) => [row[field] === null ? null : String(row[field]), Number(row.count)]));

/** The three ways to write the path to an attribute; the answer's column is the path with the name unquoted. */
const written = (name: string) => [`attributes.${name}`, `attributes."${name}"`, `"attributes.${name}"`];

const rest = (typeId: number) => ({
  method: "GET",
  endpoint: "/rest/v1/activities.json",
  query_parameters: { sinceDatetime: iso(SINCE), activityTypeIds: String(typeId) },
  paginate: true,
  max_pages: 200,
  max_items: 100_000,
});

/** The window's activity export, run once; its file endpoint. */
let file: string | undefined;
async function exportFile(): Promise<string> {
  if (file) return file;
  const { data } = await ok({
    method: "POST",
    endpoint: "/bulk/v1/activities/export/create.json",
    body: { format: "CSV", filter: { createdAt: { startAt: iso(SINCE), endAt: iso(TO) } } },
    run_to_completion: true,
  });
  file = String(data.extra?.file_endpoint);
  return file;
}

describe("count_by an attribute (property, fast-check)", () => {
  it("counts each value of the attribute, on the REST read and in the export's file alike", async () => {
    expect(TYPES.length).toBeGreaterThan(3);
    await fc.assert(
      fc.asyncProperty(
        fc
          .constantFrom(...TYPES)
          .chain((type) => fc.tuple(fc.constant(type), fc.constantFrom(...type.names))),
        fc.integer({ min: 0, max: 2 }),
        fc.boolean(),
        async ([type, name], how, onFile) => {
          const path = written(name)[how] as string;
          const where = `activityTypeId = ${type.id}`;
          const { data } = onFile
            ? await ok({ method: "GET", endpoint: await exportFile(), where, count_by: path })
            : await ok({ ...rest(type.id), count_by: path });
          const want = tally(
            recent.filter((a) => a.activityTypeId === type.id),
            name,
          );
          expect(counted(data.result, `attributes.${name}`)).toEqual(want);
        },
      ),
      { seed: 2709, numRuns: 16 },
    );
  });
});

describe("an email's clicks by link and opens by device (trial s25, N318 and N319)", () => {
  it("counts Click Email by email and link, and Open Email by Is Mobile Device, each in one call", async () => {
    const clicks = recent.filter((a) => a.activityTypeId === 11);
    const opens = recent.filter((a) => a.activityTypeId === 10);
    expect(clicks.length).toBeGreaterThan(0);
    const byLink = await ok({ ...rest(11), count_by: "attributes.Link" });
    expect(counted(byLink.data.result, "attributes.Link")).toEqual(tally(clicks, "Link"));
    // Every click has a link under its email's own path.
    for (const click of clicks)
      expect(attributeOf(click, "Link")).toMatch(/^https:\/\/www\.example\.com\/[a-z0-9-]+\/[a-z]+$/);
    const byDevice = await ok({ ...rest(10), count_by: "attributes.Is Mobile Device" });
    const mobile = tally(opens, "Is Mobile Device");
    expect(counted(byDevice.data.result, "attributes.Is Mobile Device")).toEqual(mobile);
    expect(mobile.get("true")).toBeGreaterThan(0);
    expect(mobile.get("false")).toBeGreaterThan(0);
  });
});

describe("where, order_by and count_distinct on attributes", () => {
  const sends = recent.filter((a) => a.activityTypeId === 6);
  const run = sends.map((a) => Number(attributeOf(a, "Campaign Run ID")));
  const pick = [...new Set(run)].sort((a, b) => a - b)[0] ?? 0;

  it('where attributes."Campaign Run ID" keeps the same activities in the file and on the REST read', async () => {
    const want = sends.filter((a) => Number(attributeOf(a, "Campaign Run ID")) === pick).length;
    expect(want).toBeGreaterThan(0);
    const where = `attributes."Campaign Run ID" = ${pick}`;
    const onRest = await ok({ ...rest(6), where });
    expect(onRest.data.computed?.matched).toBe(want);
    const onFile = await ok({
      method: "GET",
      endpoint: await exportFile(),
      where: `activityTypeId = 6 and ${where}`,
    });
    expect(onFile.data.computed?.matched).toBe(want);
  });

  it("order_by and count_distinct read an attribute too", async () => {
    const { data } = await ok({
      method: "GET",
      endpoint: await exportFile(),
      where: "activityTypeId = 6",
      order_by: '-attributes."Campaign Run ID"',
      max_items: 100_000,
    });
    const values = data.result.map((row) => Number(JSON.parse(String(row.attributes))["Campaign Run ID"]));
    expect(values).toEqual([...run].sort((a, b) => b - a).slice(0, values.length));
    const distinct = await ok({
      method: "GET",
      endpoint: await exportFile(),
      where: "activityTypeId = 6",
      count_by: "primaryAttributeValue",
      count_distinct: 'attributes."Campaign Run ID"',
    });
    const want = new Map<string, Set<number>>();
    for (const a of sends) {
      const runs = want.get(String(a.primaryAttributeValue)) ?? new Set<number>();
      runs.add(Number(attributeOf(a, "Campaign Run ID")));
      want.set(String(a.primaryAttributeValue), runs);
    }
    expect(counted(distinct.data.result, "primaryAttributeValue")).toEqual(
      new Map([...want].map(([email, runs]) => [email, runs.size])),
    );
  });
});

describe("a path that cannot be read says why and what works", () => {
  const LIST = {
    method: "GET",
    endpoint: "/rest/v1/lists/1001/leads.json",
    query_parameters: { fields: "id,email" },
    paginate: true,
  };

  it("an attribute no activity has: the error names the attributes there are", async () => {
    const { result, text } = await mkto.call({ ...rest(6), count_by: "attributes.Nope" });
    expect(result.isError).toBe(true);
    expect(text).toContain('"attributes.Choice Number"');
    // Its hint, done: the example name counts.
    const example = /e\.g\. ("attributes\.[^"]+")\.$/.exec(text)?.[1];
    expect(example).toBeDefined();
    await ok({ ...rest(6), count_by: example });
  });

  it("a path into a text field: it holds no object to read inside; where … contains works", async () => {
    const { result, text } = await mkto.call({ ...LIST, count_by: "email.domain" });
    expect(result.isError).toBe(true);
    expect(text).toContain("email.domain reads inside email, which in the");
    expect(text).toContain('where email contains "…"');
    const { data } = await ok({ ...LIST, where: 'email contains "@example.com"' });
    expect(data.computed?.matched).toBeGreaterThan(0);
  });
});
