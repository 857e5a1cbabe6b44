import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { httpOptions } from "../../src/cli/serve.js";
import { parseApiKeys, startHttpServer } from "../../src/host/http.js";
import { Workspace } from "../../src/workspace.js";
import { INIT, raw } from "../helpers/raw-http.js";

/**
 * On loopback, /mcp trusts every local process and user unless the server has API keys. An operator on a
 * shared host can require a key there too: MARTECH_STEPS_REQUIRE_KEY=1 (issue 16, item 8).
 */

const KEY = "r".repeat(32);
const BIN = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
const workspace = (name: string) => new Workspace({ name, env: {} });

describe("MARTECH_STEPS_REQUIRE_KEY", () => {
  it("is off by default: on loopback without keys, /mcp answers a call with no credential", async () => {
    expect(httpOptions({}, {}).requireKey).toBe(false);
    const http = await startHttpServer({ ...httpOptions({}, {}), port: 0, workspace });
    try {
      expect((await raw(http.url, { body: INIT })).status).toBe(200);
    } finally {
      await http.close();
    }
  });

  it("on, with keys: loopback /mcp refuses a call without a key and serves the key's workspace", async () => {
    const env = { MARTECH_STEPS_REQUIRE_KEY: "1", MARTECH_STEPS_API_KEYS: `team:${KEY}` };
    const http = await startHttpServer({ ...httpOptions(env, {}), port: 0, workspace });
    try {
      const refused = await raw(http.url, { body: INIT });
      expect(refused.status).toBe(401);
      expect(refused.headers["www-authenticate"]).toBe('Bearer realm="martech-steps"');
      const served = await raw(http.url, { headers: { authorization: `Bearer ${KEY}` }, body: INIT });
      expect(served.status).toBe(200);
    } finally {
      await http.close();
    }
  });

  it("on, without keys: the server does not start, and says which setting to add", async () => {
    await expect(
      startHttpServer({ requireKey: true, apiKeys: parseApiKeys(undefined), port: 0, workspace }),
    ).rejects.toThrow(/MARTECH_STEPS_REQUIRE_KEY/);
    const home = mkdtempSync(join(tmpdir(), "martech-require-key-"));
    try {
      const child = spawn(process.execPath, [BIN, "serve", "--http", "--port", "0"], {
        env: { PATH: process.env.PATH, MARTECH_STEPS_HOME: home, MARTECH_STEPS_REQUIRE_KEY: "1" },
      });
      let stderr = "";
      child.stderr.on("data", (chunk) => {
        stderr += chunk;
      });
      const code = await new Promise((resolve) => child.on("close", resolve));
      expect(code).not.toBe(0);
      expect(stderr).toMatch(/^error: Refusing to serve MCP without API keys/m);
      expect(stderr).toMatch(/MARTECH_STEPS_API_KEYS=workspace:key/);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("is read as 1 or 0, and anything else is refused rather than guessed", () => {
    expect(httpOptions({ MARTECH_STEPS_REQUIRE_KEY: "true" }, {}).requireKey).toBe(true);
    expect(httpOptions({ MARTECH_STEPS_REQUIRE_KEY: "0" }, {}).requireKey).toBe(false);
    expect(() => httpOptions({ MARTECH_STEPS_REQUIRE_KEY: "yes please" }, {})).toThrow(
      'MARTECH_STEPS_REQUIRE_KEY must be 1 or 0, not "yes please".',
    );
  });
});
