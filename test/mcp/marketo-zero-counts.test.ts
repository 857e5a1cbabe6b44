/**
 * Issue 27 (trial s5, T16): count_by over the activity type of an activity read or export whose
 * activityTypeIds named the types shows every named type, a type with no activity counted 0, instead of
 * leaving it out. Through MCP on the sandbox, counts checked against the sandbox's own data set.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildDataSet } from "../../src/sandbox/marketo/seed.js";
import { iso, marketoOverMcp, runningClock } from "../helpers/marketo-mcp.js";

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 11, 1, 12);
const SEED = 11;
const LEADS = 1_000;
const world = buildDataSet({ leadCount: LEADS, seed: SEED, now: T0 });
const SINCE = T0 - 2 * DAY;
/** Activities per type id since SINCE, as the sandbox holds them. */
const counted = new Map<number, number>();
for (const a of world.activities) {
  if (a.at >= SINCE) counted.set(a.activityTypeId, (counted.get(a.activityTypeId) ?? 0) + 1);
}
const types = world.activityTypes.map((t) => ({ id: t.id, name: t.name, count: counted.get(t.id) ?? 0 }));
const absent = types.filter((t) => t.count === 0);
const present = types.filter((t) => t.count > 0);

const mkto = marketoOverMcp({
  leadCount: LEADS,
  seed: SEED,
  now: runningClock(T0),
  bulkJobMs: 50,
  rateLimit: 1_000_000,
});

async function ok(args: Record<string, unknown>) {
  const { text, data } = await mkto.ok<{ result: Record<string, unknown>[] }>(args);
  return { text, rows: data.result };
}

describe("activity types asked for and never seen are counted 0", () => {
  it("the data set has types with and without activities in the window", () => {
    expect(absent.length).toBeGreaterThan(0);
    expect(present.length).toBeGreaterThan(0);
  });

  it("a read with count_by over the type shows each type named, by name or id, with its count", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.constantFrom(...types), { minLength: 1, maxLength: 4, selector: (t) => t.id }),
        fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
        fc.constantFrom("activityType", "activityTypeId", "activityTypeId,activityType"),
        async (asked, byName, countBy) => {
          const { rows } = await ok({
            method: "GET",
            endpoint: "/rest/v1/activities.json",
            query_parameters: {
              sinceDatetime: iso(SINCE),
              activityTypeIds: asked.map((t, i) => (byName[i] ? t.name : t.id)),
            },
            paginate: true,
            max_pages: 200,
            max_items: 100_000,
            count_by: countBy,
          });
          const field = countBy.startsWith("activityTypeId") ? "activityTypeId" : "activityType";
          const got = new Map(rows.map((row) => [String(row[field]), Number(row.count)]));
          const want = new Map(asked.map((t) => [String(field === "activityType" ? t.name : t.id), t.count]));
          expect(got).toEqual(want);
          // count_by's order: most first, so a type counted 0 comes last.
          expect(rows.map((row) => Number(row.count))).toEqual(
            [...rows.map((row) => Number(row.count))].sort((a, b) => b - a),
          );
        },
      ),
      { numRuns: 8 },
    );
  });

  it("T16: an activity export run to completion counts a named type with no activity as 0", async () => {
    const none = absent.find((t) => t.name === "Unsubscribe Email")!;
    expect(none, "no Unsubscribe Email in the window").toBeDefined();
    const some = present[0]!;
    const { rows, text } = await ok({
      method: "POST",
      endpoint: "/bulk/v1/activities/export/create.json",
      body: {
        format: "CSV",
        filter: {
          createdAt: { startAt: iso(SINCE), endAt: iso(T0) },
          activityTypeIds: [some.name, none.name],
        },
      },
      run_to_completion: true,
      count_by: "activityType",
    });
    expect(
      rows.find((row) => row.activityType === none.name),
      text,
    ).toEqual({
      activityType: none.name,
      count: 0,
      percent: 0,
    });
    expect(Number(rows.find((row) => row.activityType === some.name)?.count)).toBeGreaterThan(0);
    expect(text).toContain(`${none.name}\t0`);
    // Named (trial s10, N58: the agent found which from the all-zero column).
    expect(text).toContain(
      `1 activityType value named in the request that no row has, counted 0 (${JSON.stringify(none.name)})`,
    );
  });
});
