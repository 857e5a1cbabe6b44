import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MarketoFixture, marketoFixture } from "../helpers/fixtures.js";
import { type McpSession, mcpSession } from "../helpers/mcp.js";

/**
 * Agent trial s4 (T01, T06): "5,000 rows read", equal to the default max_items, left unclear whether the
 * read was cut, and with count_by the link's "all 5,000 records" were count rows. Every answer now says
 * whether max_items cut the read, and with count_by how many count rows stand over how many records.
 */
interface Answer {
  result: Record<string, unknown>[];
  complete: boolean;
  computed?: { read: number; matched: number; groups?: number };
}

let fixture: MarketoFixture;
let session: McpSession;

async function run(args: Record<string, unknown>) {
  const result = (await session.client.callTool({
    name: "marketo_api_call",
    arguments: args,
  })) as CallToolResult;
  const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
  expect(result.isError, text).toBeFalsy();
  const links = result.content.filter((c) => c.type === "resource_link") as { uri: string; title?: string }[];
  return { text, links, data: result.structuredContent as unknown as Answer };
}

const n = (value: number) => value.toLocaleString("en-US");

function countExport(list: number, extra: Record<string, unknown> = {}) {
  return {
    method: "POST",
    endpoint: "/bulk/v1/leads/export/create.json",
    body: { fields: ["id", "leadSource"], format: "CSV", filter: { staticListId: list } },
    run_to_completion: true,
    count_by: "leadSource",
    ...extra,
  };
}

beforeAll(async () => {
  fixture = await marketoFixture({ bulkJobMs: 20 });
  session = await mcpSession(fixture.workspace);
});
afterAll(async () => {
  await session.close();
  await fixture.close();
});

describe("whether max_items cut the read, said in every answer", () => {
  it("an export counted whole says max_items did not cut it, and its count rows over the rows read", async () => {
    const { text, data } = await run(countExport(1001));
    const read = data.computed?.read ?? 0;
    expect(read).toBeGreaterThan(0);
    expect(data.complete).toBe(true);
    expect(text).toContain(
      `all ${n(read)} rows of the export were read; max_items was not given, so it did not cut the read`,
    );
    expect(text).toContain(`${n(data.result.length)} count rows (over ${n(read)} rows read)`);
    const sum = data.result.reduce((total, row) => total + Number(row.count), 0);
    expect(sum).toBe(read);
  });

  it("an export cut by max_items says so with count_by too, and its counts cover only the rows read", async () => {
    // A list no other test here exported (a recent export of the same body would be reused).
    const cut = await run(countExport(1002, { max_items: 7 }));
    expect(cut.data.computed?.read).toBe(7);
    expect(cut.data.complete).toBe(false);
    expect(cut.text).toContain(
      "max_items 7 cut the read: it stopped after 7 rows, before the end of the export",
    );
    expect(cut.data.result.reduce((total, row) => total + Number(row.count), 0)).toBe(7);
    // Done as it says: without max_items the whole export is read and counted.
    const whole = await run(countExport(1002));
    expect(whole.data.computed?.read).toBeGreaterThan(7);
    expect(whole.text).toContain("max_items was not given, so it did not cut the read");
  });

  it("a paginated read with count_by says the default max_items did not cut it, or that max_items did", async () => {
    const read = {
      method: "GET",
      endpoint: "/rest/v1/lists/1001/leads.json",
      query_parameters: { fields: "id,leadSource" },
      paginate: true,
      count_by: "leadSource",
    };
    const whole = await run(read);
    const records = whole.data.computed?.read ?? 0;
    expect(whole.text).toContain(
      `max_items 5,000 (the default) did not cut the read of ${n(records)} records`,
    );
    expect(whole.text).toContain(`count rows (over ${n(records)} records read)`);
    const cut = await run({ ...read, max_items: 3 });
    expect(cut.text).not.toContain("did not cut the read");
    expect(cut.text).toContain("the read stopped at max_items");
  });
});
