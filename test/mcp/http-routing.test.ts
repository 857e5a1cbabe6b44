import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpServerHandle, startHttpServer } from "../../src/host/http.js";
import { Workspace } from "../../src/workspace.js";
import { INIT, raw } from "../helpers/raw-http.js";

/**
 * What routing on hono must not change (src/web/node-bridge.ts): paths are matched as sent (an escaped
 * "/mcp" is not the endpoint, nor is "//host/mcp"), methods a web Request cannot carry are still answered,
 * and a request target that is not a path is the client's mistake, never a crashed server.
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
    expect(escaped.json()?.error?.message).toMatch(/^Not found: the MCP endpoint is \/mcp\./);
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

  it("routes the path as sent: //host/mcp is not /mcp, as a path filter in front of the server sees it", async () => {
    const doubled = await raw(`${origin}//127.0.0.1:${http.port}/mcp`, { body: INIT });
    expect(doubled.status).toBe(404);
    expect(doubled.json()?.error?.message).toMatch(/^Not found: the MCP endpoint is \/mcp\./);
  });

  it("answers a request target that is not a path (absolute-form, *, unparsable) with 400, and keeps serving", async () => {
    const host = `Host: 127.0.0.1:${http.port}\r\nConnection: close\r\n\r\n`;
    for (const target of [
      "http://[bad/",
      `http://127.0.0.1:${http.port}/mcp`,
      "http://evil.example/mcp",
      "*",
    ])
      expect(await statusLineOf(http.port, `GET ${target} HTTP/1.1\r\n${host}`), target).toBe(
        "HTTP/1.1 400 Bad Request",
      );
    expect((await raw(http.url, { body: INIT })).status).toBe(200);
  });
});
