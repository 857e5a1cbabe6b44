import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MarketoFixture, marketoFixture } from "../helpers/fixtures.js";
import { type McpSession, mcpSession } from "../helpers/mcp.js";

/**
 * A bulk lead export run end to end through marketo_api_call over MCP, against the sandbox: create,
 * enqueue, poll the status, then read the file as records, by resume positions and by the resource link.
 */
describe("a bulk lead export through marketo_api_call", () => {
  let fixture: MarketoFixture;
  let session: McpSession;
  let exportId: string;
  let records: number;
  const call = async (args: Record<string, unknown>) => {
    const result = (await session.client.callTool({
      name: "marketo_api_call",
      arguments: args,
    })) as CallToolResult;
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    return {
      result,
      data: result.structuredContent as {
        result: Record<string, unknown>[];
        complete: boolean;
        next_cursor?: string;
        calls_used: number;
        pages: number;
      },
    };
  };
  const file = () => `/bulk/v1/leads/export/${exportId}/file.json`;

  beforeAll(async () => {
    fixture = await marketoFixture({ bulkJobMs: 50 });
    session = await mcpSession(fixture.workspace);
    const created = await call({
      method: "POST",
      endpoint: "/bulk/v1/leads/export/create.json",
      body: {
        fields: ["id", "email", "firstName", "lastName", "company"],
        format: "CSV",
        filter: { staticListId: 1001 },
      },
    });
    exportId = created.data.result[0]?.exportId as string;
    expect(created.data.result[0]?.status).toBe("Created");
    const queued = await call({ method: "POST", endpoint: `/bulk/v1/leads/export/${exportId}/enqueue.json` });
    expect(queued.data.result[0]?.status).toBe("Queued");
    let status = "";
    for (let poll = 0; poll < 100 && status !== "Completed"; poll += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const answer = await call({ method: "GET", endpoint: `/bulk/v1/leads/export/${exportId}/status.json` });
      status = answer.data.result[0]?.status as string;
      records = answer.data.result[0]?.numberOfRecords as number;
    }
    expect(status).toBe("Completed");
  });
  afterAll(async () => {
    await session.close();
    await fixture.close();
  });

  it("reads the file as records keyed by its header, in Range requests, every record once by resume positions", async () => {
    expect(records).toBe(1_250);
    const ids: number[] = [];
    let cursor: string | undefined;
    let answers = 0;
    for (;;) {
      const { data } = await call({ method: "GET", endpoint: file(), ...(cursor ? { cursor } : {}) });
      if (answers === 0) {
        expect(Object.keys(data.result[0] ?? {})).toEqual([
          "id",
          "email",
          "firstName",
          "lastName",
          "company",
        ]);
        expect(data.result[0]?.email).toMatch(/@example\.com$/);
      }
      ids.push(...data.result.map((record) => Number(record.id)));
      answers += 1;
      if (data.complete) break;
      cursor = data.next_cursor;
      expect(answers).toBeLessThan(50);
    }
    expect(answers).toBeGreaterThan(1);
    expect(ids).toHaveLength(records);
    expect(new Set(ids).size).toBe(records);
  });

  it("offers the whole file through the resource link, as JSON and as CSV", async () => {
    const { result, data } = await call({ method: "GET", endpoint: file() });
    expect(data.complete).toBe(false);
    const [json, csv] = result.content.filter((block) => block.type === "resource_link") as { uri: string }[];
    const items: { id: string }[] = [];
    let uri: string | undefined = json?.uri;
    while (uri) {
      const { contents } = await session.client.readResource({ uri });
      const content = contents[0] as { text: string; _meta?: Record<string, { next?: string }> };
      items.push(...(JSON.parse(content.text) as { id: string }[]));
      uri = content._meta?.["martech-steps/page"]?.next;
    }
    expect(items.map((item) => Number(item.id))).toEqual(
      [...items].map((item) => Number(item.id)).sort((a, b) => a - b),
    );
    expect(new Set(items.map((item) => item.id)).size).toBe(records);
    const first = await session.client.readResource({ uri: csv?.uri ?? "" });
    expect((first.contents[0] as { text: string }).text.split("\r\n")[0]).toBe(
      "id,email,firstName,lastName,company",
    );
  });

  it("counts every Range request as a Marketo call", async () => {
    fixture.sandbox.resetStats();
    const { data } = await call({ method: "GET", endpoint: file() });
    expect(data.calls_used).toBe(data.pages);
    expect(fixture.sandbox.stats().callsByPath[file()]).toBe(data.pages);
  });
});
