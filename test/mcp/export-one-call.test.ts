import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MarketoFixture, marketoFixture } from "../helpers/fixtures.js";
import { type McpSession, mcpSession } from "../helpers/mcp.js";

/**
 * A bulk export in one marketo_api_call (run_to_completion), through MCP on the sandbox: create,
 * enqueue, status polls with progress, the file read; the answer has the row count, the first rows and
 * the whole file linked as JSON and CSV; cancelling the call cancels the job at Marketo. Program member
 * and custom object exports: export-one-call-members-objects.test.ts.
 */
interface Answer {
  result: Record<string, unknown>[];
  complete: boolean;
  next_cursor?: string;
  calls_used: number;
  extra?: { exportId: string; numberOfRecords: number; file_endpoint: string };
}

let fixture: MarketoFixture;
let session: McpSession;

const LEADS = {
  method: "POST",
  endpoint: "/bulk/v1/leads/export/create.json",
  body: { fields: ["id", "email", "firstName"], format: "CSV", filter: { staticListId: 1001 } },
  run_to_completion: true,
};

async function run(
  args: Record<string, unknown>,
  options: { onprogress?: (p: { message?: string }) => void; signal?: AbortSignal } = {},
) {
  const result = (await session.client.callTool({ name: "marketo_api_call", arguments: args }, undefined, {
    ...(options.onprogress ? { onprogress: options.onprogress } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  })) as CallToolResult;
  const first = result.content[0];
  const text = first?.type === "text" ? first.text : "";
  return { result, text, data: result.structuredContent as unknown as Answer };
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

beforeAll(async () => {
  fixture = await marketoFixture({ bulkJobMs: 200 });
  session = await mcpSession(fixture.workspace);
});
afterAll(async () => {
  await session.close();
  await fixture.close();
});

describe("a bulk export in one call", () => {
  it("creates, enqueues, polls with progress and reads the file: count, first rows, whole file linked", async () => {
    const messages: string[] = [];
    fixture.sandbox.resetStats();
    const { result, text, data } = await run(LEADS, { onprogress: (p) => messages.push(p.message ?? "") });
    expect(result.isError, text).toBeFalsy();
    const id = data.extra?.exportId ?? "";
    expect(data.extra?.numberOfRecords).toBe(1_250);
    expect(text.split("\n")[0]).toMatch(
      new RegExp(
        `^POST /bulk/v1/leads/export/create\\.json run to completion: export ${id} created, enqueued and Completed after \\d+ status checks? \\(\\d+ s\\); 1,250 rows read of its file \\(\\d+ KB\\)`,
      ),
    );
    // The file is linked: the answer shows a preview, and says max_items did not cut the read.
    expect(data.result).toHaveLength(10);
    expect(text).toContain(
      "the first 10 rows are shown here as a preview; all 1,250 are in the file linked below",
    );
    expect(text).toContain(
      "it is one CSV (the header once, then each of its rows) with the same rows as JSON, kept 24 hours",
    );
    expect(text).toContain(
      "all 1,250 rows of the export were read; max_items was not given, so it did not cut the read",
    );
    expect(Object.keys(data.result[0] ?? {})).toEqual(["id", "email", "firstName"]);
    expect(messages).toContain(`Export ${id} created and enqueued`);
    expect(messages.some((m) => new RegExp(`^Export ${id} is (Queued|Processing|Completed)`).test(m))).toBe(
      true,
    );
    const stats = fixture.sandbox.stats().callsByPath;
    expect(stats["/bulk/v1/leads/export/create.json"]).toBe(1);
    expect(stats[`/bulk/v1/leads/export/${id}/enqueue.json`]).toBe(1);
    expect(stats[`/bulk/v1/leads/export/${id}/status.json`]).toBeGreaterThanOrEqual(1);

    const links = result.content.filter((block) => block.type === "resource_link") as {
      uri: string;
      mimeType: string;
    }[];
    expect(links.map((l) => l.mimeType)).toEqual(["application/json", "text/csv"]);
    const json = (await readAll(links[0]?.uri ?? "")).flatMap((page) => JSON.parse(page) as { id: string }[]);
    expect(new Set(json.map((row) => row.id)).size).toBe(1_250);
    const csv = await readAll(links[1]?.uri ?? "");
    const rows = csv.flatMap((page) => page.trimEnd().split("\r\n").slice(1));
    expect(csv[0]?.split("\r\n")[0]).toBe("id,email,firstName");
    expect(rows).toHaveLength(1_250);

    // "to read on in answers, call GET <file> with cursor = next_cursor": done as said.
    const file = /call GET (\S+) with cursor = next_cursor/.exec(text)?.[1];
    expect(file).toBe(data.extra?.file_endpoint);
    const on = await run({ method: "GET", endpoint: file, cursor: data.next_cursor });
    expect(on.result.isError, on.text).toBeFalsy();
    expect(Number(on.data.result[0]?.id)).toBeGreaterThan(Number(data.result.at(-1)?.id));
  });

  it("runs an activity export too", async () => {
    const end = new Date();
    const start = new Date(end.getTime() - 7 * 86_400_000);
    const iso = (d: Date) => `${d.toISOString().slice(0, 19)}Z`;
    const { result, text, data } = await run({
      method: "POST",
      endpoint: "/bulk/v1/activities/export/create.json",
      body: {
        format: "CSV",
        filter: { createdAt: { startAt: iso(start), endAt: iso(end) }, activityTypeIds: [1, 2] },
      },
      run_to_completion: true,
    });
    expect(result.isError, text).toBeFalsy();
    expect(data.result.length).toBeGreaterThan(0);
    for (const row of data.result) expect(["1", "2"]).toContain(String(row.activityTypeId));
    expect(text).toContain("run to completion: export");
  });

  it("refuses run_to_completion on anything but a bulk export's create call, sending nothing", async () => {
    fixture.sandbox.resetStats();
    const { result, text } = await run({
      method: "GET",
      endpoint: "/rest/v1/lists.json",
      run_to_completion: true,
    });
    expect(result.isError).toBe(true);
    expect(text).toContain("Invalid run_to_completion");
    expect(fixture.sandbox.stats().apiCalls).toBe(0);
  });

  it("cancels the job at Marketo when the caller cancels the call", async () => {
    const controller = new AbortController();
    let exportId = "";
    // A filter no other test exported: the same body run again within 15 minutes answers from that
    // export's rows (export-reuse.ts), with no job to cancel.
    const pending = run(
      { ...LEADS, body: { ...LEADS.body, filter: { staticListId: 1002 } } },
      {
        signal: controller.signal,
        onprogress: (p) => {
          const id = /^Export (\S+) created and enqueued/.exec(p.message ?? "")?.[1];
          if (id) {
            exportId = id;
            controller.abort();
          }
        },
      },
    );
    await expect(pending).rejects.toThrow();
    expect(exportId).not.toBe("");
    // The server sends cancel.json after the abort; wait for it to arrive.
    for (
      let i = 0;
      i < 100 && !fixture.sandbox.stats().callsByPath[`/bulk/v1/leads/export/${exportId}/cancel.json`];
      i++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(fixture.sandbox.stats().callsByPath[`/bulk/v1/leads/export/${exportId}/cancel.json`]).toBe(1);
    const status = await run({ method: "GET", endpoint: `/bulk/v1/leads/export/${exportId}/status.json` });
    expect(status.data.result[0]?.status).toBe("Cancelled");
  });

  it("a call cancelled while the Completed job's file is read sends no cancel (Marketo refuses it: 1003)", async () => {
    // Every request takes 300 ms: the abort arrives before the call is done with the Completed job.
    const slow = await marketoFixture({ bulkJobMs: 100, latencyMs: 300 });
    const other = await mcpSession(slow.workspace);
    try {
      const controller = new AbortController();
      let exportId = "";
      const pending = other.client.callTool({ name: "marketo_api_call", arguments: LEADS }, undefined, {
        signal: controller.signal,
        onprogress: (p: { message?: string }) => {
          const id = /^Export (\S+) is Completed/.exec(p.message ?? "")?.[1];
          if (id) {
            exportId = id;
            controller.abort();
          }
        },
      });
      await expect(pending).rejects.toThrow();
      expect(exportId).not.toBe("");
      // Long enough for a cancel request (300 ms latency) to have arrived, had one been sent.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const paths = slow.sandbox.stats().callsByPath;
      expect(paths[`/bulk/v1/leads/export/${exportId}/cancel.json`]).toBeUndefined();
    } finally {
      await other.close();
      await slow.close();
    }
  });

  it("at the call's deadline leaves the job running and says how to pick it up, which works", async () => {
    // A job that takes 3 s, a call that may take 1.5 s.
    const slow = await marketoFixture({ bulkJobMs: 3_000 }, { MARTECH_STEPS_DEADLINE_MS: "1500" });
    const other = await mcpSession(slow.workspace);
    try {
      const result = (await other.client.callTool({
        name: "marketo_api_call",
        arguments: LEADS,
      })) as CallToolResult;
      const text = result.content[0]?.type === "text" ? result.content[0].text : "";
      expect(result.isError, text).toBe(true);
      const [, status, file] =
        /Poll GET (\S+status\.json) until Completed, then read GET (\S+file\.json)\./.exec(text) ?? [];
      expect(status, text).toBeDefined();
      expect(text).toContain("it keeps running at Marketo");
      const call = async (endpoint: string) =>
        (
          (await other.client.callTool({
            name: "marketo_api_call",
            arguments: { method: "GET", endpoint },
          })) as CallToolResult
        ).structuredContent as unknown as Answer;
      let state = "";
      for (let poll = 0; poll < 100 && state !== "Completed"; poll += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        state = String((await call(status ?? "")).result[0]?.status);
      }
      expect(state).toBe("Completed");
      expect((await call(file ?? "")).result.length).toBeGreaterThan(0);
    } finally {
      await other.close();
      await slow.close();
    }
  });
});
