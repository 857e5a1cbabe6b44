/**
 * Trial s18, N185: a lead's whole history (18 activity types) took an error and two calls, since Marketo's
 * Get Lead Activities takes at most 10 type ids a read. With paginate true the step reads more types, or "all",
 * 10 at a time and joins them in time order. The invariant, fast-check over windows and lead filters through
 * MCP on the sandbox: the joined read is the reads of each group of 10 alone, together, in time order; count_by
 * over it adds up to its records. Without paginate the step says to give it, and doing so reads them.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { marketoOverMcp, NO_CALL_WINDOW } from "../helpers/marketo-mcp.js";

type Activity = { id: number; activityDate: string; activityTypeId: number; activityType: string | null };
interface Read {
  result: Activity[];
  complete: boolean;
}
interface Counted {
  result: { activityType?: string; count: number }[];
}
// Many whole reads: no limit on Marketo's calls (the limits have tests of their own, marketo-limit).
const mkto = marketoOverMcp({ rateLimit: 1_000_000 }, undefined, NO_CALL_WINDOW);
const READ = { method: "GET", endpoint: "/rest/v1/activities.json", paginate: true, max_pages: 200 };
const SEED = 20_261_204;

const records = async (query: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  (await mkto.ok<Read>({ ...READ, query_parameters: query, max_items: 100_000, ...extra })).data.result;

describe("more than 10 activity types in one call", () => {
  it("reads all types 10 at a time: the groups' reads together, in time order", {
    timeout: 180_000,
  }, async () => {
    const types = (
      await mkto.ok<{ result: { id: number }[] }>({
        method: "GET",
        endpoint: "/rest/v1/activities/types.json",
      })
    ).data.result.map((type) => type.id);
    expect(types.length).toBeGreaterThan(10);
    let seen = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("2026-11-24", "2026-11-28", "2026-11-30"),
        fc.constantFrom("7", "1234,2417", "12,13,14,15,16,17,18,19,20"),
        async (day, leads) => {
          const query = { sinceDatetime: `${day}T00:00:00Z`, leadIds: leads };
          const answer = await mkto.ok<Read>({
            ...READ,
            query_parameters: { ...query, activityTypeIds: "all" },
            max_items: 100_000,
          });
          expect(answer.first).toContain(`${types.length} activity types read 10 at a time`);
          expect(answer.data.complete).toBe(true);
          const joined = answer.data.result;
          seen += joined.length;
          const apart = [
            ...(await records({ ...query, activityTypeIds: types.slice(0, 10).join(",") })),
            ...(await records({ ...query, activityTypeIds: types.slice(10).join(",") })),
          ];
          expect(joined.map((a) => a.id).sort((a, b) => a - b)).toEqual(
            apart.map((a) => a.id).sort((a, b) => a - b),
          );
          const times = joined.map((a) => a.activityDate);
          expect(times).toEqual([...times].sort());
          expect(joined.every((a) => typeof a.activityType === "string")).toBe(true);
          const counted = await mkto.ok<Counted>({
            ...READ,
            query_parameters: { ...query, activityTypeIds: "all" },
            max_items: 100_000,
            count_by: "activityType",
          });
          expect(counted.data.result.length).toBe(types.length);
          expect(counted.data.result.reduce((sum, row) => sum + row.count, 0)).toBe(joined.length);
        },
      ),
      { numRuns: 3, seed: SEED },
    );
    expect(seen).toBeGreaterThan(0);
  });

  it("without paginate says to give it, and the call with it reads every type", async () => {
    const query = { sinceDatetime: "2026-11-28T00:00:00Z", activityTypeIds: "all" };
    const refused = await mkto.call({
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: query,
    });
    expect(refused.result.isError).toBe(true);
    expect(refused.first).toContain("with paginate true this step reads them 10 at a time");
    expect(refused.first).toContain("Send the same call with paginate true");
    const read = await mkto.ok<Read>({ ...READ, query_parameters: query });
    expect(read.data.complete).toBe(true);
  });

  it("stopped by max_items says so and how to read the rest", async () => {
    const query = { sinceDatetime: "2026-11-28T00:00:00Z", activityTypeIds: "all" };
    const cut = await mkto.ok<Read>({ ...READ, query_parameters: query, max_items: 10 });
    expect(cut.data.complete).toBe(false);
    expect(cut.first).toMatch(
      /The read stopped before its end \(.*\): raise max_items \(now 10, at most 100,000\)/,
    );
  });

  it("cut by max_items, counts no type it did not read whole as 0 and says so (review s20, finding 4)", async () => {
    const query = { sinceDatetime: "2026-11-20T00:00:00Z", activityTypeIds: "all" };
    const counted = await mkto.ok<Counted>({
      ...READ,
      query_parameters: query,
      max_items: 10,
      count_by: "activityType",
    });
    expect(counted.first).toMatch(
      /the read stopped before its end \(.*none is counted 0\): raise max_items \(now 10, at most 100,000\)/,
    );
    expect(counted.first).not.toContain("or count with count_by");
    expect(counted.first).not.toContain("The first activity read is on");
    expect(counted.data.result.every((row) => row.count > 0)).toBe(true);
    expect(counted.data.result.reduce((sum, row) => sum + row.count, 0)).toBe(10);
  });

  it("spends max_pages over the whole read, not per group (review s20, finding 5)", async () => {
    const answer = await mkto.ok<Read & { pages: number }>({
      ...READ,
      query_parameters: { sinceDatetime: "2026-11-01T00:00:00Z", activityTypeIds: "all", leadIds: "7" },
      max_pages: 4,
    });
    expect(answer.data.pages).toBeLessThanOrEqual(4);
    expect(answer.data.complete).toBe(false);
    expect(answer.first).toContain("raise max_pages (the whole read's, at most 200)");
  });

  it('refuses "all" beside other types, saying it stands alone', async () => {
    const refused = await mkto.call({
      ...READ,
      query_parameters: { sinceDatetime: "2026-11-28T00:00:00Z", activityTypeIds: "all,Open Email" },
    });
    expect(refused.result.isError).toBe(true);
    expect(refused.first).toContain('"all" stands alone');
  });

  it("refuses an id no activity type has, and says there is no paging token only of a whole read (review s21)", async () => {
    const refused = await mkto.call({
      ...READ,
      query_parameters: {
        sinceDatetime: "2026-11-28T00:00:00Z",
        activityTypeIds: "1,2,3,6,7,8,9,10,11,27,1000",
      },
    });
    expect(refused.result.isError).toBe(true);
    expect(refused.first).toContain("1000 is not the id of an activity type of this Marketo instance");
    const query = { sinceDatetime: "2026-12-01T00:00:00Z", activityTypeIds: "all" };
    const whole = await mkto.ok<Read>({ ...READ, query_parameters: { ...query, leadIds: "7" } });
    expect(whole.text).toContain(
      "Every group was read to its latest activity (the read is whole). No next_page_token",
    );
    const cut = await mkto.ok<Read>({ ...READ, query_parameters: query, max_items: 5 });
    expect(cut.data.complete).toBe(false);
    expect(cut.text).not.toContain("No next_page_token");
  });
});
