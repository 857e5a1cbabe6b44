/**
 * The CLI turns on Node's module compile cache where Node has it (22.1 and later: the suite runs on
 * 20, 22 and 24 in CI), in the system's temporary folder, and still starts on Node 20, which has none.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE } from "../../src/version.js";
import { freshHome, run } from "../helpers/cli.js";

describe("the CLI's compile cache", () => {
  it("is written to the temporary folder on Node 22 and later, and is no obstacle on Node 20", async () => {
    const tmp = await freshHome("martech-compile-cache-");
    // Only TMPDIR: NODE_COMPILE_CACHE would turn the cache on by itself, without the CLI.
    const result = await run(["--version"], { TMPDIR: tmp, MARTECH_STEPS_HOME: join(tmp, "home") });
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(PACKAGE.version);
    const major = Number(process.versions.node.split(".")[0]);
    const cache = await readdir(join(tmp, "node-compile-cache")).catch(() => []);
    if (major >= 22) expect(cache.length).toBeGreaterThan(0);
    else expect(cache).toEqual([]);
  });
});
