import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { childEnv } from "../helpers/child-env.js";

const ROOT = new URL("../../", import.meta.url).pathname;

/** Whether ioredis is loaded after importing `entry` (built) and running `then` in a fresh process. */
async function ioredisLoaded(entry: string, then = ""): Promise<boolean> {
  const script = `
    const m = await import(${JSON.stringify(`${ROOT}dist/${entry}`)});
    ${then}
    const { createRequire } = await import("node:module");
    const cache = createRequire(import.meta.url).cache;
    process.stdout.write(String(Object.keys(cache).some((k) => k.includes("/node_modules/ioredis/"))));
    process.exit(0);`;
  const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], {
    env: childEnv(),
  });
  return stdout === "true";
}

// Start-up pays for ioredis only when Redis is used: stdio servers and CLI commands never need it.
describe("ioredis is loaded only when Redis is used", () => {
  // The CLI's `serve` is bundled (no dist/cli/serve.js): test/cli/lazy-start.test.ts runs it and finds no
  // ioredis among what it loads before the tools are listed.
  it("not by the package or the HTTP server", async () => {
    expect(await ioredisLoaded("index.js")).toBe(false);
    expect(await ioredisLoaded("host/http.js")).toBe(false);
  });

  it("once a Redis state is made", async () => {
    expect(
      await ioredisLoaded(
        "state/index.js",
        `const s = m.createState({ REDIS_URL: "redis://127.0.0.1:1" }); s.close().catch(() => {});`,
      ),
    ).toBe(true);
  });
});
