import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type HttpServerHandle, parseApiKeys, startHttpServer } from "../../src/host/http.js";
import { log } from "../../src/log.js";
import { Workspace } from "../../src/workspace.js";

/**
 * /mcp read up to 4 MB of a request's body before its Host, Origin and credential checks: 100 connections
 * with a foreign Host, each holding back the last byte of a 4 MB body, took the server from 110 to 512 MiB,
 * and each aborted body logged an error line. Here a request declares a 4 MB body and sends only its first
 * bytes: a refusal must come at once, without waiting for (or reading) the rest.
 */
const KEY = "k".repeat(32);

interface Held {
  socket: Socket;
  /** Everything the server answered until it closed the connection (or the test's wait ran out). */
  answer: Promise<string>;
}

/** A POST /mcp declaring `length` bytes of body and sending only `sent` of them, the rest held back. */
function holdBack(port: number, headers: Record<string, string>, length: number, sent: string): Held {
  const socket = connect(port, "127.0.0.1");
  const lines = [
    "POST /mcp HTTP/1.1",
    ...Object.entries({ host: `127.0.0.1:${port}`, "content-type": "application/json", ...headers }).map(
      ([name, value]) => `${name}: ${value}`,
    ),
    `content-length: ${length}`,
  ];
  socket.write(`${lines.join("\r\n")}\r\n\r\n${sent}`);
  const answer = new Promise<string>((resolve) => {
    let text = "";
    socket.on("data", (chunk) => {
      text += chunk.toString();
    });
    socket.on("close", () => resolve(text));
    socket.on("error", () => resolve(text));
    setTimeout(() => resolve(text), 2_000).unref();
  });
  return { socket, answer };
}

describe("/mcp checks Host, Origin and the credential before reading the body", () => {
  let http: HttpServerHandle;
  let port: number;
  beforeAll(async () => {
    http = await startHttpServer({
      apiKeys: parseApiKeys(`team:${KEY}`),
      workspace: (name) => new Workspace({ name, env: {} }),
    });
    port = Number(new URL(http.url).port);
  });
  afterAll(async () => {
    await http.close();
  });

  const start = '{"jsonrpc":"2.0","id":7,';
  const FOUR_MB = 4 * 1024 * 1024 - 1;

  it("refuses a foreign Host, a foreign Origin and a missing key at once, with 4 MB declared and held back", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ host: "evil.example", authorization: `Bearer ${KEY}` }, "403 Forbidden"],
      [{ origin: "http://evil.example", authorization: `Bearer ${KEY}` }, "403 Forbidden"],
      [{}, "401 Unauthorized"],
      [{ authorization: "Bearer not-the-key-not-the-key-not-the-key" }, "401 Unauthorized"],
    ];
    for (const [headers, status] of cases) {
      const held = holdBack(port, headers, FOUR_MB, start);
      const answer = await held.answer;
      held.socket.destroy();
      // Answered and closed by the server (the rest of the body never came): nothing was waited for.
      expect(answer, JSON.stringify(headers)).toMatch(new RegExp(`^HTTP/1.1 ${status}`));
      expect(answer.toLowerCase()).toContain("connection: close");
    }
  });

  it("refuses a declared body over 4 MB of an authenticated request before reading it", async () => {
    const held = holdBack(port, { authorization: `Bearer ${KEY}` }, 4 * 1024 * 1024 + 1, start);
    const answer = await held.answer;
    held.socket.destroy();
    expect(answer).toMatch(/^HTTP\/1.1 413/);
  });

  it("logs a body the client aborted at debug level, not as an error", async () => {
    const error = vi.spyOn(log, "error");
    try {
      for (let i = 0; i < 5; i++) {
        const held = holdBack(port, { authorization: `Bearer ${KEY}` }, 1_000, start);
        await new Promise((resolve) => setTimeout(resolve, 50));
        held.socket.destroy();
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(error).not.toHaveBeenCalled();
    } finally {
      error.mockRestore();
    }
  });
});
