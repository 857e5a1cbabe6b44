import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MarketoFixture, marketoFixture } from "../helpers/fixtures.js";
import { type McpSession, mcpSession } from "../helpers/mcp.js";

/**
 * A static list add or removal of more than 300 ids (Marketo's limit a call) in one marketo_api_call
 * (issue 27, agent trial N07: 864 ids were refused): sent as consecutive calls of at most 300 through the
 * normal send path, the per-id statuses joined in input order, the answer saying how many calls it made.
 * Through MCP on the sandbox; the list's members are read back.
 */
interface Answer {
  result: { id: number; status: string }[];
  record_errors: { index: number; id?: number }[];
  calls_used: number;
}

let fixture: MarketoFixture;
let session: McpSession;

async function call(args: Record<string, unknown>) {
  const result = (await session.client.callTool({
    name: "marketo_api_call",
    arguments: args,
  })) as CallToolResult;
  const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
  expect(result.isError, text).toBeFalsy();
  return { text, data: result.structuredContent as unknown as Answer, result };
}

/** A write's every status: its answer lists the exceptions and links them all (write-answer.ts). */
async function statuses(result: CallToolResult): Promise<Answer["result"]> {
  const link = result.content.find((c) => c.type === "resource_link");
  const uri = link?.type === "resource_link" ? link.uri : "";
  const { contents } = await session.client.readResource({ uri });
  return JSON.parse((contents[0] as { text: string }).text) as Answer["result"];
}

async function members(listId: number): Promise<Set<number>> {
  const { data } = await call({
    method: "GET",
    endpoint: `/rest/v1/lists/${listId}/leads.json`,
    query_parameters: { fields: "id", batchSize: 300 },
    paginate: true,
    max_items: 100_000,
  });
  return new Set(data.result.map((r) => r.id));
}

beforeAll(async () => {
  fixture = await marketoFixture({ leadCount: 1_000, rateLimit: 1_000_000 });
  session = await mcpSession(fixture.workspace);
});
afterAll(async () => {
  await session.close();
  await fixture.close();
});

describe("a list add or removal of more than 300 ids", () => {
  it("is sent as calls of at most 300, statuses in input order, and every id is added, then removed", async () => {
    const endpoint = "/rest/v1/lists/1002/leads.json";
    // 700 ids, one of which no lead has (at position 650): its error keeps its place in the whole input.
    const ids = Array.from({ length: 700 }, (_, i) => (i === 650 ? 999_999 : i + 1));
    fixture.sandbox.resetStats();
    const added = await call({ method: "POST", endpoint, body: { input: ids.map((id) => ({ id })) } });
    expect(fixture.sandbox.stats().callsByPath[endpoint]).toBe(3);
    expect(added.data.calls_used).toBe(3);
    expect((await statuses(added.result)).map((r) => r.id)).toEqual(ids);
    // Each record once: the skipped id in record_errors, the added ones not listed (write-answer.ts).
    expect(added.data.result).toEqual([]);
    expect(added.data.record_errors.map((e) => e.index)).toEqual([650]);
    expect(added.text).toContain("sent as 3 calls of at most 300 ids each");
    const after = await members(1002);
    for (const id of ids.filter((id) => id !== 999_999)) expect(after.has(id)).toBe(true);

    const removed = await call({ method: "DELETE", endpoint, query_parameters: { id: ids } });
    expect((await statuses(removed.result)).filter((r) => r.status === "removed")).toHaveLength(699);
    expect(removed.text).toContain("sent as 3 calls");
    const left = await members(1002);
    for (const id of ids) expect(left.has(id)).toBe(false);
  });

  it("numbers each record's seq by its place in the whole input, not in its call (review s28, finding 10)", async () => {
    const endpoint = "/rest/v1/programs/1005/members/status.json";
    const ids = Array.from({ length: 450 }, (_, i) => 2001 + i);
    const set = await call({
      method: "POST",
      endpoint,
      body: { statusName: "Attended", input: ids.map((leadId) => ({ leadId })) },
    });
    expect(set.text).toContain("sent as 2 calls of at most 300 ids each");
    const joined = (await statuses(set.result)) as { seq?: number; leadId?: number }[];
    expect(joined.map((r) => r.seq)).toEqual(ids.map((_, i) => i));
    expect(joined.map((r) => r.leadId)).toEqual(ids);
  });

  it("a program's member statuses for more than 300 leads too, every lead read back (trial s23, N282)", async () => {
    const program = 1027;
    const endpoint = `/rest/v1/leads/programs/${program}/status.json`;
    const ids = Array.from({ length: 450 }, (_, i) => i + 1);
    fixture.sandbox.resetStats();
    const set = await call({
      method: "POST",
      endpoint,
      body: { status: "Member", input: ids.map((id) => ({ id })) },
    });
    expect(fixture.sandbox.stats().callsByPath[endpoint]).toBe(2);
    expect(set.text).toContain("sent as 2 calls of at most 300 ids each");
    expect((await statuses(set.result)).map((r) => r.id)).toEqual(ids);
    // Read back as a count (the answer shows only part of a long read): all 450 are members at Member.
    const { data } = await call({
      method: "GET",
      endpoint: `/rest/v1/leads/programs/${program}.json`,
      query_parameters: { fields: "id", batchSize: 300 },
      paginate: true,
      max_items: 100_000,
      where: "id <= 450",
      count_by: "membership.progressionStatus",
    });
    const counted = data.result as unknown as { "membership.progressionStatus": string; count: number }[];
    expect(counted).toEqual([
      expect.objectContaining({ "membership.progressionStatus": "Member", count: 450 }),
    ]);
  });
});
