import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { raw } from "./helpers/raw-http.js";

/**
 * The tests' raw HTTP client ends every exchange: a response its server cut off mid-body (a replica killed
 * while it streamed an answer) rejects, naming ECONNRESET, instead of leaving the caller waiting (a burst
 * test through killed replicas waited out its 90 s timeout on such a call).
 */
let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const started = createServer(handler);
  server = started;
  return new Promise((resolve) =>
    started.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(started.address() as AddressInfo).port}/mcp`),
    ),
  );
}

describe("raw", () => {
  it("rejects a response cut off after its headers and part of its body", async () => {
    const url = await serve((_, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("event: message\n");
      setTimeout(() => res.socket?.destroy(), 20);
    });
    await expect(raw(url, { body: {} })).rejects.toThrow(/cut off before its end: .*\(ECONNRESET\)/);
  });

  it("resolves a whole response with its body", async () => {
    const url = await serve((_, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"jsonrpc":"2.0","id":1,"result":{}}');
    });
    const answer = await raw(url, { body: {} });
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
  });
});
