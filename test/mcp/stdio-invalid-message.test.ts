import { PassThrough } from "node:stream";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { afterEach, describe, expect, it } from "vitest";
import { MemoryCredentialStore } from "../../src/auth/credential-store.js";
import { createMcpServer } from "../../src/mcp/server.js";
import { checkedStdioTransport } from "../../src/mcp/stdio-guard.js";
import { MemoryState } from "../../src/state/memory.js";
import { Workspace } from "../../src/workspace.js";

/*
 * Over stdio the SDK dropped a request that is JSON but not a valid JSON-RPC message (a `_meta` that is
 * not an object): no answer, the client waited for its timeout. It is answered with its id; every valid
 * line still reaches the server, in order, split across chunks or not.
 */

interface Answer {
  id?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

let handle: { close(): Promise<void> } | undefined;
afterEach(async () => {
  await handle?.close();
  handle = undefined;
});

function start() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const answers: Answer[] = [];
  let text = "";
  stdout.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
    for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n")) {
      answers.push(JSON.parse(text.slice(0, end)) as Answer);
      text = text.slice(end + 1);
    }
  });
  const workspace = new Workspace({ env: {}, store: new MemoryCredentialStore(), state: new MemoryState() });
  handle = serveStdio(() => createMcpServer({ workspace }).server, {
    transport: checkedStdioTransport(stdin, stdout),
  });
  const send = (message: unknown) => stdin.write(`${JSON.stringify(message)}\n`);
  const answerTo = async (id: unknown): Promise<Answer> => {
    for (let waited = 0; waited < 5_000; waited += 10) {
      const found = answers.find((answer) => answer.id === id);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no answer to ${JSON.stringify(id)}`);
  };
  return { stdin, send, answerTo, answers };
}

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
};

describe("stdio: requests that are not valid JSON-RPC", () => {
  it.each([
    [{ _meta: 5 }, -32602, /^tools\/list needs params\._meta to be an object\.$/],
    [{ _meta: "x" }, -32602, /_meta to be an object/],
    [{ _meta: [] }, -32602, /_meta to be an object/],
    [7, -32602, /^tools\/list needs params to be an object\.$/],
  ])("params %j is answered %i with its id, and the session goes on", async (params, code, message) => {
    const { send, answerTo } = start();
    send(INIT);
    expect((await answerTo(1)).result).toBeDefined();
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: "bad-1", method: "tools/list", params });
    const answer = await answerTo("bad-1");
    expect(answer.error?.code).toBe(code);
    expect(answer.error?.message).toMatch(message);
    send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    expect(JSON.stringify((await answerTo(2)).result)).toMatch(/marketo_api_call/);
  });

  it("a wrong jsonrpc version is -32600 with its id; a notification or a response is not answered", async () => {
    const { send, answerTo, answers, stdin } = start();
    send(INIT);
    await answerTo(1);
    send({ jsonrpc: "2.0", method: "notifications/initialized", params: { _meta: 5 } });
    send({ jsonrpc: "2.0", id: 40, result: 5, error: 5 });
    send({ jsonrpc: "1.0", id: 41, method: "ping" });
    expect((await answerTo(41)).error?.code).toBe(-32600);
    // A valid request cut in two chunks, with the next one in the second chunk.
    const line = `${JSON.stringify({ jsonrpc: "2.0", id: 42, method: "ping" })}\n`;
    stdin.write(line.slice(0, 10));
    stdin.write(`${line.slice(10)}${JSON.stringify({ jsonrpc: "2.0", id: 43, method: "ping" })}\n`);
    expect((await answerTo(42)).result).toEqual({});
    expect((await answerTo(43)).result).toEqual({});
    expect(answers.map((answer) => answer.id)).toEqual([1, 41, 42, 43]);
  });
});
