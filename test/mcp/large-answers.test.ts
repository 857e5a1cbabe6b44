import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryCredentialStore } from "../../src/auth/credential-store.js";
import { MemoryResultStore } from "../../src/results/memory.js";
import { RedisResultStore } from "../../src/results/redis.js";
import { MemoryState } from "../../src/state/memory.js";
import { Workspace } from "../../src/workspace.js";
import { type MarketoFixture, marketoFixture, marketoWorkspace } from "../helpers/fixtures.js";
import { mcpSession, modernMcpSession } from "../helpers/mcp.js";

/** Static list 1001 of the sandbox: 1,250 members. */
const LIST = "/rest/v1/lists/1001/leads.json";
const MEMBERS = 1_250;

interface Answer {
  result: { id: number }[];
  complete: boolean;
  next_cursor?: string;
  next_page_token?: string;
  warnings: string[];
}

type Call = (args: Record<string, unknown>) => Promise<CallToolResult>;
type Read = (uri: string) => Promise<{ text: string; mimeType?: string; _meta?: Record<string, unknown> }>;

/** Every member, by following next_cursor from answer to answer. */
async function readByCursor(call: Call, args: Record<string, unknown>) {
  const ids: number[] = [];
  let cursor: string | undefined;
  let answers = 0;
  for (;;) {
    const result = await call({ ...args, ...(cursor ? { cursor } : {}) });
    expect(result.isError).toBeFalsy();
    const data = result.structuredContent as unknown as Answer;
    ids.push(...data.result.map((lead) => lead.id));
    answers += 1;
    if (data.complete) {
      expect(data.next_cursor).toBeUndefined();
      break;
    }
    expect(data.next_cursor).toBeDefined();
    cursor = data.next_cursor;
    expect(answers).toBeLessThan(50);
  }
  return { ids, answers };
}

/** Every item of a kept result, page after page, as resources/read serves them. */
async function readLinked(read: Read, first: string) {
  const items: { id: number }[] = [];
  let uri: string | undefined = first;
  let pages = 0;
  while (uri) {
    const content = await read(uri);
    items.push(...(JSON.parse(content.text) as { id: number }[]));
    uri = (content._meta?.["martech-steps/page"] as { next?: string } | undefined)?.next;
    pages += 1;
  }
  return { items, pages };
}

describe.each([
  ["an SDK v1 client (2025-11-25)", mcpSession],
  ["an SDK v2 client (2026-07-28)", modernMcpSession],
] as const)("reading all 1,250 members of list 1001 over MCP, with %s", (_name, open) => {
  let fixture: MarketoFixture;
  let session: Awaited<ReturnType<typeof open>>;
  let call: Call;
  let read: Read;

  beforeAll(async () => {
    fixture = await marketoFixture();
    session = await open(fixture.workspace);
    call = async (args) =>
      (await session.client.callTool({
        name: "marketo_api_call",
        arguments: { method: "GET", endpoint: LIST, ...args },
      })) as CallToolResult;
    read = async (uri) => {
      const { contents } = await session.client.readResource({ uri });
      return contents[0] as { text: string; mimeType?: string; _meta?: Record<string, unknown> };
    };
  });
  afterAll(async () => {
    await session.close();
    await fixture.close();
  });

  it("gets every member exactly once by resume positions, one page per answer", async () => {
    const { ids, answers } = await readByCursor(call, {});
    expect(ids).toHaveLength(MEMBERS);
    expect(new Set(ids).size).toBe(MEMBERS);
    expect(answers).toBeGreaterThan(Math.ceil(MEMBERS / 300));
  });

  it("gets every member exactly once by resume positions while paginating", async () => {
    const { ids } = await readByCursor(call, { paginate: true, max_items: 400 });
    expect(ids).toHaveLength(MEMBERS);
    expect(new Set(ids).size).toBe(MEMBERS);
  });

  it("gets every member exactly once through the resource link, in pages, as JSON and as CSV", async () => {
    const result = await call({ paginate: true });
    const data = result.structuredContent as unknown as Answer;
    expect(data.complete).toBe(false);
    expect(data.result.length).toBeLessThan(MEMBERS);
    const links = result.content.filter((block) => block.type === "resource_link") as {
      uri: string;
      mimeType?: string;
    }[];
    expect(links.map((link) => link.mimeType)).toEqual(["application/json", "text/csv"]);
    const text = (result.content[0] as { text: string }).text;
    expect(text).toContain(links[0]?.uri);

    const json = await readLinked(read, links[0]?.uri ?? "");
    expect(json.pages).toBeGreaterThan(1);
    const ids = json.items.map((lead) => lead.id);
    expect(ids).toHaveLength(MEMBERS);
    expect(new Set(ids).size).toBe(MEMBERS);
    // The answer's own records are the first of the whole result.
    expect(ids.slice(0, data.result.length)).toEqual(data.result.map((lead) => lead.id));

    const csvPages: string[] = [];
    let uri: string | undefined = links[1]?.uri;
    while (uri) {
      const content = await read(uri);
      expect(content.mimeType).toBe("text/csv");
      csvPages.push(content.text);
      uri = (content._meta?.["martech-steps/page"] as { next?: string } | undefined)?.next;
    }
    // Every page starts with the header row (a page is often read on its own), then its members.
    const header = csvPages[0]?.split("\r\n")[0] ?? "";
    expect(header.split(",")).toContain("id");
    const rows = csvPages.flatMap((page) => {
      const lines = page.trimEnd().split("\r\n");
      expect(lines[0]).toBe(header);
      return lines.slice(1);
    });
    expect(rows).toHaveLength(MEMBERS);
  });
});

describe("kept results belong to the workspace that produced them", () => {
  it("answers another workspace's read of a result as not found", async () => {
    const fixture = await marketoFixture();
    const results = new MemoryResultStore({ ttlMs: 60_000, perWorkspace: 5, maxBytes: 10_000_000 });
    const producer = marketoWorkspace(fixture.sandbox, { results });
    const other = new Workspace({
      name: "other",
      env: {},
      store: new MemoryCredentialStore(),
      state: new MemoryState(),
      results,
    });
    const mine = await mcpSession(producer);
    const theirs = await mcpSession(other);
    try {
      const result = (await mine.client.callTool({
        name: "marketo_api_call",
        arguments: { method: "GET", endpoint: LIST, paginate: true },
      })) as CallToolResult;
      const link = result.content.find((block) => block.type === "resource_link") as { uri: string };
      await expect(mine.client.readResource({ uri: link.uri })).resolves.toBeDefined();
      await expect(theirs.client.readResource({ uri: link.uri })).rejects.toThrow(/No kept result/);
    } finally {
      await mine.close();
      await theirs.close();
      await fixture.close();
    }
  });
});

describe.skipIf(!process.env.REDIS_URL)("kept results shared through Redis by replicas", () => {
  it("lets a replica that did not run the call serve its result", async () => {
    const fixture = await marketoFixture();
    const keyPrefix = `martech-test:${Date.now()}:`;
    const replica = (results: RedisResultStore) => marketoWorkspace(fixture.sandbox, { results });
    const stores = [0, 1].map(
      () =>
        new RedisResultStore({ ttlMs: 60_000, perWorkspace: 5 }, { url: process.env.REDIS_URL, keyPrefix }),
    );
    const [one, two] = await Promise.all(stores.map((store) => modernMcpSession(replica(store))));
    try {
      const result = (await one?.client.callTool({
        name: "marketo_api_call",
        arguments: { method: "GET", endpoint: LIST, paginate: true },
      })) as CallToolResult;
      const link = result.content.find((block) => block.type === "resource_link") as { uri: string };
      const { items } = await readLinked(async (uri) => {
        const { contents } = (await two?.client.readResource({ uri })) ?? { contents: [] };
        return contents[0] as { text: string; _meta?: Record<string, unknown> };
      }, link.uri);
      expect(new Set(items.map((lead) => lead.id)).size).toBe(MEMBERS);
    } finally {
      await Promise.all([one?.close(), two?.close()]);
      await Promise.all(stores.map((store) => store.close()));
      await fixture.close();
    }
  });
});
