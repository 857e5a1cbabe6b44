import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MarketoFixture, marketoFixture } from "../helpers/fixtures.js";
import { type McpSession, mcpSession } from "../helpers/mcp.js";

/**
 * A bulk program member export and a bulk custom object export in one marketo_api_call
 * (run_to_completion), through MCP on the sandbox, as lead exports run (export-one-call.test.ts): the
 * row count, the rows, the whole file linked as JSON and CSV, and cancelling the call cancels the job.
 */
interface Answer {
  result: Record<string, unknown>[];
  extra?: { exportId: string; numberOfRecords: number; file_endpoint: string };
}

let fixture: MarketoFixture;
let session: McpSession;

beforeAll(async () => {
  fixture = await marketoFixture({ bulkJobMs: 200 });
  session = await mcpSession(fixture.workspace);
});
afterAll(async () => {
  await session.close();
  await fixture.close();
});

async function call(args: Record<string, unknown>, signal?: AbortSignal, onprogress?: (m: string) => void) {
  const result = (await session.client.callTool({ name: "marketo_api_call", arguments: args }, undefined, {
    ...(signal ? { signal } : {}),
    ...(onprogress ? { onprogress: (p: { message?: string }) => onprogress(p.message ?? "") } : {}),
  })) as CallToolResult;
  const first = result.content[0];
  return {
    result,
    text: first?.type === "text" ? first.text : "",
    data: result.structuredContent as unknown as Answer,
  };
}

async function readAll(uri: string): Promise<string[]> {
  const texts: string[] = [];
  let next: string | undefined = uri;
  while (next) {
    const content = (await session.client.readResource({ uri: next })).contents[0] as {
      text: string;
      _meta?: Record<string, { next?: string }>;
    };
    texts.push(content.text);
    next = content._meta?.["martech-steps/page"]?.next;
  }
  return texts;
}

/** The ids of a Lead DB read that fits one page (program 1001 has at most 200 members, list 1003 220). */
async function ids(endpoint: string): Promise<number[]> {
  const page = await call({ method: "GET", endpoint, query_parameters: { batchSize: 300, fields: "id" } });
  expect((page.data as unknown as { next_cursor?: string }).next_cursor).toBeUndefined();
  return page.data.result.map((row) => Number(row.id));
}

const EXPORTS = {
  "program members": {
    base: "/bulk/v1/program/members/export",
    body: { fields: ["leadId", "email", "statusName"], format: "CSV", filter: { programId: 1001 } },
    header: "leadId,email,statusName",
    key: "leadId",
    expected: () => ids("/rest/v1/leads/programs/1001.json"),
    otherFilter: { programId: 1002 },
  },
  "custom objects (car_c)": {
    base: "/bulk/v1/customobjects/car_c/export",
    body: { fields: ["leadId", "vin", "make"], format: "CSV", filter: { staticListId: 1003 } },
    header: "leadId,vin,make",
    key: "leadId",
    expected: () => ids("/rest/v1/lists/1003/leads.json"),
    otherFilter: { staticListId: 1001 },
  },
} as const;

describe.each(Object.entries(EXPORTS))("a bulk %s export in one call", (_name, kind) => {
  it("creates, enqueues, polls and reads the file: the row count, the rows, the whole file as JSON and CSV", async () => {
    fixture.sandbox.resetStats();
    const { result, text, data } = await call({
      method: "POST",
      endpoint: `${kind.base}/create.json`,
      body: kind.body,
      run_to_completion: true,
    });
    expect(result.isError, text).toBeFalsy();
    const id = data.extra?.exportId ?? "";
    const count = data.extra?.numberOfRecords ?? 0;
    expect(count).toBeGreaterThan(0);
    expect(text).toContain(
      `POST ${kind.base}/create.json run to completion: export ${id} created, enqueued and Completed`,
    );
    expect(text).toContain(`${count.toLocaleString("en-US")} rows read of its file`);
    const stats = fixture.sandbox.stats().callsByPath;
    expect(stats[`${kind.base}/${id}/enqueue.json`]).toBe(1);
    expect(stats[`${kind.base}/${id}/status.json`]).toBeGreaterThanOrEqual(1);

    const links = result.content.filter((b) => b.type === "resource_link") as {
      uri: string;
      mimeType: string;
    }[];
    expect(links.map((l) => l.mimeType)).toEqual(["application/json", "text/csv"]);
    const json = (await readAll(links[0]?.uri ?? "")).flatMap(
      (page) => JSON.parse(page) as Record<string, string>[],
    );
    expect(json).toHaveLength(count);
    const csv = (await readAll(links[1]?.uri ?? "")).flatMap((page, i) =>
      page
        .trimEnd()
        .split("\r\n")
        .slice(i === 0 ? 0 : 1),
    );
    expect(csv[0]).toBe(kind.header);
    expect(csv).toHaveLength(count + 1);
    // The rows belong to the selection: members of program 1001, cars of the leads of list 1003.
    const allowed = new Set(await kind.expected());
    for (const row of json) expect(allowed.has(Number(row[kind.key]))).toBe(true);
    // Every member of the program is a row (a lead has at most one membership per program).
    if (kind.base.includes("program")) expect(json).toHaveLength(allowed.size);
  });

  it("cancels the job at Marketo when the caller cancels the call", async () => {
    const controller = new AbortController();
    let exportId = "";
    // A filter no other test exported: the same body run again within 15 minutes answers from that
    // export's rows (export-reuse.ts), with no job to cancel.
    const body = { ...kind.body, filter: kind.otherFilter };
    const pending = call(
      { method: "POST", endpoint: `${kind.base}/create.json`, body, run_to_completion: true },
      controller.signal,
      (message) => {
        const id = /^Export (\S+) created and enqueued/.exec(message)?.[1];
        if (id) {
          exportId = id;
          controller.abort();
        }
      },
    );
    await expect(pending).rejects.toThrow();
    expect(exportId).not.toBe("");
    const path = `${kind.base}/${exportId}/cancel.json`;
    for (let i = 0; i < 100 && !fixture.sandbox.stats().callsByPath[path]; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(fixture.sandbox.stats().callsByPath[path]).toBe(1);
    const status = await call({ method: "GET", endpoint: `${kind.base}/${exportId}/status.json` });
    expect(status.data.result[0]?.status).toBe("Cancelled");
  });
});
