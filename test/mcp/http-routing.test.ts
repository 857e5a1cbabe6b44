import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { log } from "../../src/log.js";
import { type HttpServerHandle, startHttpServer } from "../../src/mcp/http.js";
import { Workspace } from "../../src/workspace.js";
import { INIT, raw } from "../helpers/raw-http.js";

/**
 * What routing on hono must not change (src/mcp/node-bridge.ts): paths are matched as sent (an escaped
 * "/mcp" is not the endpoint), methods a web Request cannot carry are still answered, and a request
 * target the URL parser refuses is an error answer, never a crashed server.
 */

/** One request written by hand (a request line no HTTP client would send); the status line answered. */
function statusLineOf(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.end(request));
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      text += chunk;
    });
    socket.on("close", () => resolve(text.split("\r\n")[0] ?? ""));
    socket.on("error", reject);
  });
}

describe("HTTP routing", () => {
  let http: HttpServerHandle;
  let origin: string;
  beforeAll(async () => {
    http = await startHttpServer({ workspace: (name) => new Workspace({ name, env: {} }) });
    origin = new URL(http.url).origin;
  });
  afterAll(async () => {
    await http.close();
  });

  it("matches the path as sent: an escaped /mcp is not the endpoint", async () => {
    const escaped = await raw(`${origin}/%6Dcp`, { body: INIT });
    expect(escaped.status).toBe(404);
    expect(escaped.json()?.error?.message).toBe("Not found: the MCP endpoint is /mcp.");
    expect((await raw(http.url, { body: INIT })).status).toBe(200);
  });

  it("answers methods a web Request cannot carry (TRACE) as before, on every path", async () => {
    const host = `Host: 127.0.0.1:${http.port}\r\nConnection: close\r\n\r\n`;
    expect(await statusLineOf(http.port, `TRACE /healthz HTTP/1.1\r\n${host}`)).toBe(
      "HTTP/1.1 405 Method Not Allowed",
    );
    expect(await statusLineOf(http.port, `TRACE /elsewhere HTTP/1.1\r\n${host}`)).toBe(
      "HTTP/1.1 404 Not Found",
    );
  });

  it("answers a request target the URL parser refuses with 500, and keeps serving", async () => {
    // The server logs what failed (on stderr): kept out of the test's output, and checked.
    const logged = vi.spyOn(log, "error").mockImplementation(() => undefined);
    const line = await statusLineOf(
      http.port,
      `GET http://[bad/ HTTP/1.1\r\nHost: 127.0.0.1:${http.port}\r\nConnection: close\r\n\r\n`,
    );
    expect(line).toBe("HTTP/1.1 500 Internal Server Error");
    expect(logged).toHaveBeenCalledWith(expect.anything(), "MCP HTTP request failed");
    logged.mockRestore();
    expect((await raw(http.url, { body: INIT })).status).toBe(200);
  });
});
