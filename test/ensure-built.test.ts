/**
 * scripts/ensure-built.mjs (`npm start`'s prestart): builds when dist/ is missing or older than the
 * sources, and only then, so that `npm install && npm start` works on a fresh clone without an install
 * script. Run here on a copy of the script in a made-up project whose "npm" only records the build.
 */
import { execFile } from "node:child_process";
import { copyFile, mkdir, readFile, utimes, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { childEnv } from "./helpers/child-env.js";
import { tempDir } from "./helpers/temp.js";

const execFileAsync = promisify(execFile);
const SCRIPT = new URL("../scripts/ensure-built.mjs", import.meta.url).pathname;
const OUTPUTS = [
  "dist/cli/main.js",
  "dist/charts/echarts-server.js",
  "dist/console-web/index.html",
  "dist/mcp-app/report-chart.html",
];

async function write(root: string, path: string, at: Date): Promise<void> {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), "x");
  await utimes(join(root, path), at, at);
}

/** A project with sources written at `sources` and, unless `outputs` is undefined, a dist/ at `outputs`. */
async function project(sources: Date, outputs: Date | undefined) {
  const root = await tempDir("martech-ensure-built-");
  await mkdir(join(root, "scripts"));
  await copyFile(SCRIPT, join(root, "scripts", "ensure-built.mjs"));
  for (const path of ["src/index.ts", "console/src/App.tsx", "package.json", "tsconfig.json"]) {
    await write(root, path, sources);
  }
  for (const path of OUTPUTS) if (outputs) await write(root, path, outputs);
  // What `npm run build` would be: records its arguments.
  const npm = join(root, "fake-npm.cjs");
  await writeFile(
    npm,
    `require("fs").writeFileSync(${JSON.stringify(join(root, "built"))}, process.argv.slice(2).join(" "));`,
  );
  const result = await execFileAsync(process.execPath, [join(root, "scripts", "ensure-built.mjs")], {
    env: { ...childEnv(), npm_execpath: npm },
  });
  const built = await readFile(join(root, "built"), "utf8").catch(() => undefined);
  return { ...result, built };
}

const hourAgo = new Date(Date.now() - 3_600_000);
const now = new Date(Date.now() + 60_000);

describe("scripts/ensure-built.mjs", () => {
  it("builds when dist/ is missing", async () => {
    const { built, stderr } = await project(hourAgo, undefined);
    expect(built).toBe("run build");
    expect(stderr).toMatch(/building \(dist\/ is missing\)/);
  });

  it("builds when a source is newer than the oldest output", async () => {
    const { built, stderr } = await project(now, hourAgo);
    expect(built).toBe("run build");
    expect(stderr).toMatch(/building \(the sources changed since the last build\)/);
  });

  it("does nothing when dist/ is newer than every source", async () => {
    const { built, stderr } = await project(hourAgo, now);
    expect(built).toBeUndefined();
    expect(stderr).toBe("");
  });
});
