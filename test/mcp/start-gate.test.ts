import { Server } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MemoryCredentialStore } from "../../src/auth/credential-store.js";
import { startHttpServer } from "../../src/host/http.js";
import { MemoryState } from "../../src/state/memory.js";
import * as embedded from "../../src/web/oauth/embedded.js";
import { Workspace } from "../../src/workspace.js";
import { INIT, raw } from "../helpers/raw-http.js";

/**
 * Issue 26, item 0, on an ephemeral port (0): the OAuth layer names the /mcp URL, which carries the port,
 * so it can only be mounted once the socket listens. Until it is, /mcp, the metadata and every page answer
 * 503 with Retry-After, /readyz is 503 "starting" and /healthz 200 (the process answers). The embedded
 * authorization server's start is held here until the test has looked.
 */
vi.mock("../../src/web/oauth/embedded.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../src/web/oauth/embedded.js")>();
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    ...actual,
    releaseStart: () => release(),
    startEmbedded: async (options: Parameters<typeof actual.startEmbedded>[0]) => {
      await held;
      return actual.startEmbedded(options);
    },
  };
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a server listening on an ephemeral port while its OAuth layer is mounted", () => {
  it("answers 503 with Retry-After on /mcp and the metadata, /readyz 503, /healthz 200; then 401", async () => {
    const listen = Server.prototype.listen;
    let port: number | undefined;
    vi.spyOn(Server.prototype, "listen").mockImplementation(function (this: Server, ...args: unknown[]) {
      this.once("listening", () => {
        const address = this.address();
        if (address && typeof address !== "string") port = address.port;
      });
      return (listen as (...a: unknown[]) => Server).apply(this, args);
    });
    const workspace = new Workspace({
      env: {},
      store: new MemoryCredentialStore(),
      state: new MemoryState(),
    });
    const starting = startHttpServer({
      port: 0,
      workspace: () => workspace,
      oauth: { mode: "embedded", consent: async () => undefined },
    });
    while (port === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
    const base = `http://127.0.0.1:${port}`;
    const get = (path: string) => raw(`${base}${path}`, { method: "GET" });
    const mcp = await raw(`${base}/mcp`, { body: INIT });
    expect(mcp.status).toBe(503);
    expect(mcp.headers["retry-after"]).toBe("1");
    expect(mcp.json()?.error?.message).toMatch(/starting/);
    expect((await get("/.well-known/oauth-protected-resource/mcp")).status).toBe(503);
    expect((await get("/.well-known/oauth-authorization-server/oauth")).status).toBe(503);
    const readyz = await get("/readyz");
    expect(readyz.status).toBe(503);
    expect(JSON.parse(readyz.text)).toMatchObject({ status: "not ready", checks: { routes: "starting" } });
    expect((await get("/healthz")).status).toBe(200);

    (embedded as unknown as { releaseStart(): void }).releaseStart();
    const handle = await starting;
    try {
      expect((await raw(handle.url, { body: INIT })).status).toBe(401);
      expect((await get("/.well-known/oauth-protected-resource/mcp")).status).toBe(200);
      const ready = await get("/readyz");
      expect(ready.status).toBe(200);
      expect(JSON.parse(ready.text).checks.routes).toBe("ok");
    } finally {
      await handle.close();
    }
  });
});
