import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDataSet } from "../../src/sandbox/marketo/seed.js";
import { type MarketoFixture, marketoFixture } from "../helpers/fixtures.js";
import { type McpSession, mcpSession } from "../helpers/mcp.js";

/**
 * Nested fields in where, order_by and count_by (issue 27, agent trial T10 and T16), through MCP on the
 * sandbox: program members carry their status in membership.progressionStatus, describe's records their
 * REST name in rest.name. A dotted path reaches them; count_by on the object itself is refused with the
 * paths inside it, and doing what the refusal says gives the counts. The truth is the sandbox's own data set.
 */
interface Answer {
  result: Record<string, unknown>[];
  computed?: { read: number; matched: number; groups?: number };
}

const T0 = Date.UTC(2026, 11, 1, 12);
const SEED = 42;
const LEADS = 1_000;
const world = buildDataSet({ leadCount: LEADS, seed: SEED, now: T0 });
const [programId, memberships] = [...world.programMembers.entries()].sort(
  (a, b) => b[1].size - a[1].size,
)[0] ?? [0, new Map()];
const statuses = [...memberships.values()].filter((m) => world.leads.has(m.leadId));

let fixture: MarketoFixture;
let session: McpSession;

async function run(args: Record<string, unknown>) {
  const result = (await session.client.callTool({
    name: "marketo_api_call",
    arguments: args,
  })) as CallToolResult;
  const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
  return { result, text, data: result.structuredContent as unknown as Answer };
}

const MEMBERS = {
  method: "GET",
  endpoint: `/rest/v1/leads/programs/${programId}.json`,
  query_parameters: { fields: "id,email", batchSize: 300 },
  paginate: true,
};

beforeAll(async () => {
  fixture = await marketoFixture({ leadCount: LEADS, seed: SEED, now: () => T0, rateLimit: 1_000_000 });
  session = await mcpSession(fixture.workspace);
  expect(statuses.length).toBeGreaterThan(20);
});
afterAll(async () => {
  await session.close();
  await fixture.close();
});

describe("dotted paths into a record's objects", () => {
  it("count_by membership.progressionStatus counts the program's members per status", async () => {
    const { result, text, data } = await run({ ...MEMBERS, count_by: "membership.progressionStatus" });
    expect(result.isError, text).toBeFalsy();
    const want = new Map<string, number>();
    for (const m of statuses) want.set(m.statusName, (want.get(m.statusName) ?? 0) + 1);
    expect(new Map(data.result.map((row) => [row["membership.progressionStatus"], row.count]))).toEqual(want);
  });

  it("where and order_by read a dotted path", async () => {
    const status = statuses[0]?.statusName ?? "";
    const { result, text, data } = await run({
      ...MEMBERS,
      where: `membership.progressionStatus == ${JSON.stringify(status)}`,
      order_by: "-membership.membershipDate,id",
    });
    expect(result.isError, text).toBeFalsy();
    const want = statuses.filter((m) => m.statusName === status);
    expect(data.computed?.matched).toBe(want.length);
    expect(new Set(data.result.map((row) => row.id))).toEqual(new Set(want.map((m) => m.leadId)));
    const dates = data.result.map((row) =>
      String((row.membership as { membershipDate: string }).membershipDate),
    );
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it("refuses count_by on the object itself with the paths inside it, and its example works", async () => {
    const refused = await run({ ...MEMBERS, count_by: "membership" });
    expect(refused.result.isError).toBe(true);
    expect(refused.text).toContain("membership holds objects");
    expect(refused.text).toContain("membership.progressionStatus");
    const example = /e\.g\. (\S+) \(a dotted path/.exec(refused.text)?.[1];
    expect(example, refused.text).toMatch(/^membership\./);
    const counted = await run({ ...MEMBERS, count_by: example });
    expect(counted.result.isError, counted.text).toBeFalsy();
    expect(counted.data.computed?.matched).toBe(statuses.length);
    expect(counted.data.computed?.groups).toBeLessThan(10);
  });

  it("an unknown field's refusal lists the dotted paths, and describe's rest.name is reachable", async () => {
    const wrong = await run({ ...MEMBERS, where: 'membership.status == "Attended"' });
    expect(wrong.result.isError).toBe(true);
    expect(wrong.text).toContain("membership.progressionStatus");
    const describe = await run({
      method: "GET",
      endpoint: "/rest/v1/leads/describe.json",
      where: 'rest.name == "leadScore"',
    });
    expect(describe.result.isError, describe.text).toBeFalsy();
    expect(describe.data.result).toHaveLength(1);
    expect(describe.data.result[0]?.rest).toMatchObject({ name: "leadScore" });
  });
});
