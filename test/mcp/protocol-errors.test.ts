import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { MemoryCredentialStore } from "../../src/auth/credential-store.js";
import { type HttpServerHandle, startHttpServer } from "../../src/host/http.js";
import { MemoryResultStore } from "../../src/results/memory.js";
import { RedisResultStore } from "../../src/results/redis.js";
import type { ResultStore } from "../../src/results/types.js";
import { MemoryState } from "../../src/state/memory.js";
import { Workspace } from "../../src/workspace.js";
import { mcpSession, modernMcpSession } from "../helpers/mcp.js";
import { raw } from "../helpers/raw-http.js";
import { type RedisProcess, startRedis } from "../helpers/redis-process.js";

/*
 * Wrongly typed params are JSON-RPC -32602 with one plain sentence (not -32603 and zod's issue list),
 * names are looked up as the server's own (not on Object.prototype), and a crafted result URI is "not
 * found" with every result store.
 */

interface Answer {
  code?: number;
  message?: string;
  result?: unknown;
}

type Client = {
  request(request: { method: string; params?: Record<string, unknown> }, schema: z.ZodType): Promise<unknown>;
};

async function ask(client: Client, method: string, params: Record<string, unknown>): Promise<Answer> {
  try {
    return { result: await client.request({ method, params }, z.unknown()) };
  } catch (error) {
    const { code, message } = error as { code?: number; message?: string };
    return { code, message: message?.replace(/^MCP error -?\d+: /, "") };
  }
}

function expectPlain(answer: Answer, sentence: RegExp): void {
  expect(answer.code, JSON.stringify(answer)).toBe(-32602);
  expect(answer.message).toMatch(sentence);
  // One sentence, no issue dump: no brackets, no line breaks, no zod vocabulary.
  expect(answer.message).not.toMatch(/[[\]{}\n]|invalid_type|"code"/);
}

const BAD_PARAMS: [string, Record<string, unknown>, RegExp][] = [
  [
    "prompts/get",
    { name: 5 },
    /^prompts\/get needs "name" to be a string \(the prompt's name\), not a number\.$/,
  ],
  ["resources/read", { uri: 5 }, /^resources\/read needs "uri" to be a string/],
  [
    "prompts/list",
    { cursor: 5 },
    /^prompts\/list takes "cursor" as the string a previous page returned, not a number\.$/,
  ],
  ["tools/list", { cursor: {} }, /not an object\.$/],
  ["tools/call", { name: 5, arguments: {} }, /^tools\/call needs "name" to be a string/],
  ["tools/call", { name: "marketo_api_call", arguments: [] }, /"arguments" to be an object, not an array/],
  ["prompts/get", { name: "find_lead", arguments: { email: 5 } }, /"arguments" to be an object of strings/],
  [
    "tools/call",
    { name: "constructor", arguments: {} },
    /^There is no tool "constructor": tools\/list names them\.$/,
  ],
  ["tools/call", { name: "toString", arguments: {} }, /^There is no tool "toString"/],
  ["tools/call", { name: "__proto__", arguments: {} }, /^There is no tool "__proto__"/],
  ["prompts/get", { name: "__proto__" }, /^There is no prompt "__proto__": prompts\/list names them\.$/],
  ["prompts/get", { name: "hasOwnProperty" }, /^There is no prompt "hasOwnProperty"/],
];

const workspace = (results: ResultStore) =>
  new Workspace({ env: {}, store: new MemoryCredentialStore(), state: new MemoryState(), results });

describe.each([
  ["2025-11-25 (SDK v1 client)", mcpSession],
  ["2026-07-28 (SDK v2 client)", modernMcpSession],
] as const)("protocol errors, %s", (_era, open) => {
  let session: Awaited<ReturnType<typeof open>>;
  let client: Client;

  beforeAll(async () => {
    session = await open(workspace(new MemoryResultStore({ ttlMs: 60_000, perWorkspace: 5, maxBytes: 1e6 })));
    client = session.client as unknown as Client;
  });
  afterAll(() => session.close());

  it.each(BAD_PARAMS)("%s %j is -32602 with one sentence", async (method, params, sentence) => {
    expectPlain(await ask(client, method, params), sentence);
  });

  it("a real prompt and tool are still found", async () => {
    const prompt = await ask(client, "prompts/get", {
      name: "find_lead",
      arguments: { email: "a@b.example" },
    });
    expect(prompt.code, prompt.message).toBeUndefined();
    const call = await ask(client, "tools/call", { name: "marketo_api_call", arguments: {} });
    expect(call.code, call.message).toBeUndefined();
    expect(JSON.stringify(call.result)).toMatch(/isError/);
  });
});

describe("logging/setLevel (2025-11-25)", () => {
  it.each(["__proto__", "constructor", 5, "loud"])("level %j is -32602 naming the levels", async (level) => {
    const session = await mcpSession(
      workspace(new MemoryResultStore({ ttlMs: 60_000, perWorkspace: 5, maxBytes: 1e6 })),
    );
    try {
      const answer = await ask(session.client as unknown as Client, "logging/setLevel", { level });
      expectPlain(answer, /^logging\/setLevel needs "level" to be one of debug, info, .*emergency\.$/);
      expect(
        (await ask(session.client as unknown as Client, "logging/setLevel", { level: "info" })).code,
      ).toBeUndefined();
    } finally {
      await session.close();
    }
  });
});

describe("a crafted result URI is not found, in memory and in Redis", () => {
  let redis: RedisProcess;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis.stop());

  it.each(["memory", "redis"] as const)("with the %s store", async (kind) => {
    const results: ResultStore =
      kind === "memory"
        ? new MemoryResultStore({ ttlMs: 60_000, perWorkspace: 5, maxBytes: 1e6 })
        : new RedisResultStore({ ttlMs: 60_000, perWorkspace: 5 }, { url: redis.url, keyPrefix: "crafted:" });
    // A kept result, so that the workspace's index exists.
    await results.put("default", {
      meta: { tool: "t", kind: "rows", columns: [] },
      pages: [{ json: "[]", items: 0 }],
    });
    const session = await modernMcpSession(workspace(results));
    try {
      for (const id of ["index", "index:0", "AAAAAAAAAAAAAAAAAAAAAA"]) {
        const answer = await ask(session.client as unknown as Client, "resources/read", {
          uri: `martech-steps://results/${id}.json`,
        });
        expect(answer.code, answer.message).toBe(-32602);
        expect(answer.message).toMatch(/^No kept result at martech-steps:\/\/results\//);
        expect(answer.message).not.toMatch(/Redis/);
      }
    } finally {
      await session.close();
      await results.close();
    }
  });
});

describe("raw JSON-RPC over HTTP, 2026-07-28", () => {
  let http: HttpServerHandle;
  const META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const post = (id: number, method: string, params: Record<string, unknown>) =>
    raw(http.url, {
      headers: {
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": method,
        ...(typeof (params.name ?? params.uri) === "string"
          ? { "mcp-name": String(params.name ?? params.uri) }
          : {}),
      },
      body: { jsonrpc: "2.0", id, method, params: { ...params, _meta: META } },
    });

  beforeAll(async () => {
    const ws = workspace(new MemoryResultStore({ ttlMs: 60_000, perWorkspace: 5, maxBytes: 1e6 }));
    http = await startHttpServer({ workspace: () => ws });
  });
  afterAll(() => http.close());

  it.each(BAD_PARAMS)("%s %j is -32602 with one sentence", async (method, params, sentence) => {
    const answer = (await post(7, method, params)).json();
    expect(answer?.id).toBe(7);
    expectPlain({ code: answer?.error?.code, message: answer?.error?.message }, sentence);
  });
});
