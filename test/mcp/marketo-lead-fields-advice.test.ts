/**
 * A field a Lead Database read did not ask for (agent trial on new tasks, N07: count_by "unsubscribed" on a
 * list's members read without fields): the refusal says to add it to query_parameters.fields, with the call's
 * fields and it, and doing so answers. Through MCP on the sandbox.
 */
import { describe, expect, it } from "vitest";
import { buildDataSet } from "../../src/sandbox/marketo/seed.js";
import { marketoOverMcp, runningClock } from "../helpers/marketo-mcp.js";

const T0 = Date.UTC(2026, 11, 1, 12);
const SEED = 7;
const LEADS = 1_000;
const world = buildDataSet({ leadCount: LEADS, seed: SEED, now: T0 });
const members = [...(world.lists.find((list) => list.id === 1001)?.members ?? [])];

const mkto = marketoOverMcp({ leadCount: LEADS, seed: SEED, now: runningClock(T0), rateLimit: 1_000_000 });

const MEMBERS = { method: "GET", endpoint: "/rest/v1/lists/1001/leads.json", paginate: true };

/** The example the refusal gives, e.g. query_parameters {"fields":"id,email,unsubscribed"}. */
const example = (text: string) =>
  JSON.parse(/e\.g\. query_parameters (\{[^}]*\})/.exec(text)?.[1] ?? "null") as Record<
    string,
    string
  > | null;

describe("a field the read did not ask for", () => {
  it("count_by without fields: add it to query_parameters.fields, and that answers", async () => {
    const { result, text } = await mkto.call({ ...MEMBERS, count_by: "unsubscribed" });
    expect(result.isError).toBe(true);
    expect(text).toContain("has a field named unsubscribed");
    expect(text).toContain("so add unsubscribed to them");
    const query = example(text);
    expect(query).toEqual({ fields: "id,email,unsubscribed" });
    const { data } = await mkto.ok<{ result: { count: number }[] }>({
      ...MEMBERS,
      query_parameters: query,
      count_by: "unsubscribed",
    });
    expect(data.result.reduce((sum, row) => sum + row.count, 0)).toBe(members.length);
  });

  it("where with other fields given: the example keeps them and adds the one missing", async () => {
    const given = { ...MEMBERS, query_parameters: { fields: "id,email" }, where: "leadScore > 50" };
    const { result, text } = await mkto.call(given);
    expect(result.isError).toBe(true);
    expect(text).toContain("(here id, email)");
    const query = example(text);
    expect(query).toEqual({ fields: "id,email,leadScore" });
    const want = members.filter((id) => Number(world.leads.get(id)?.leadScore) > 50).length;
    const { data } = await mkto.ok<{ computed: { matched: number } }>({ ...given, query_parameters: query });
    expect(data.computed.matched).toBe(want);
  });

  it("a field the read asked for and no record has is refused as before, without that advice", async () => {
    const { result, text } = await mkto.call({
      ...MEMBERS,
      query_parameters: { fields: "id,nosuchfield" },
      count_by: "nosuchfield",
    });
    expect(result.isError).toBe(true);
    expect(text).not.toContain("add nosuchfield");
  });

  it("programId on one program's members: the path's id, and the per-id form counts by it (trial s24, N315)", async () => {
    const { result, text } = await mkto.call({
      method: "GET",
      endpoint: "/rest/v1/leads/programs/1030.json",
      query_parameters: { fields: "id" },
      paginate: true,
      count_by: "programId",
    });
    expect(result.isError).toBe(true);
    expect(text).toContain("programId is not a field of these records: all of them are of 1030");
    expect(text).not.toContain("add programId to them");
    // Doing what it says: the {programId} form, which tags each record with its program.
    const one = await mkto.ok<{ computed: { read: number } }>({
      method: "GET",
      endpoint: "/rest/v1/leads/programs/1030.json",
      query_parameters: { fields: "id" },
      paginate: true,
      count_by: "membership.progressionStatus",
    });
    const { data } = await mkto.ok<{ result: { programId: unknown; count: number }[] }>({
      method: "GET",
      endpoint: "/rest/v1/leads/programs/{programId}.json",
      query_parameters: { programId: [1030], fields: "id" },
      paginate: true,
      count_by: "programId",
    });
    expect(data.result).toEqual([expect.objectContaining({ count: one.data.computed.read })]);
  });
});
