import { afterEach, describe, expect, it } from "vitest";
import { type HttpServerHandle, startHttpServer } from "../../src/host/http.js";
import { Workspace } from "../../src/workspace.js";
import { INIT, raw } from "../helpers/raw-http.js";

/**
 * Bound to a loopback address other than 127.0.0.1 (any of 127/8, e.g. to keep two servers apart), the
 * URL the server prints must be one it answers (issue 16, item 3), while the Host check stays as strict.
 */

const servers: HttpServerHandle[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

describe("a server bound to 127.0.0.2", () => {
  it("answers the URL it prints, and still refuses a name it was not given (DNS rebinding)", async () => {
    const http = await startHttpServer({
      host: "127.0.0.2",
      workspace: (name) => new Workspace({ name, env: {} }),
    });
    servers.push(http);
    expect(http.urls).toEqual([`http://127.0.0.2:${http.port}/mcp`]);
    expect((await raw(http.url, { body: INIT })).status).toBe(200);
    const rebound = await raw(http.url, { body: INIT, headers: { host: `attacker.example:${http.port}` } });
    expect(rebound.status).toBe(403);
    const other = await raw(http.url, { body: INIT, headers: { host: `127.0.0.3:${http.port}` } });
    expect(other.status).toBe(403);
  });
});
