/**
 * scripts/ensure-built.mjs (`npm start`'s prestart): builds when dist/ is missing or older than the
 * sources, and only then, so that `npm install && npm start` works on a fresh clone without an install
 * script; step by step, saying what each makes, that it happens once, and that it still runs. Run here on
 * a copy of the script in a made-up project whose "npm" only records what it was asked to run.
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

const BUILD = "tsc -p tsconfig.build.json && vite build --config console/vite.config.ts";

/**
 * A project with sources written at `sources` and, unless `outputs` is undefined, a dist/ at `outputs`;
 * its package.json's build script is `build` (none: the file is not JSON). Its "npm" records each command
 * on a line, takes 150 ms, and fails with `failing` in its arguments.
 */
async function project(sources: Date, outputs: Date | undefined, build?: string, failing?: string) {
  const root = await tempDir("martech-ensure-built-");
  await mkdir(join(root, "scripts"));
  await copyFile(SCRIPT, join(root, "scripts", "ensure-built.mjs"));
  for (const path of ["src/index.ts", "console/src/App.tsx", "package.json", "tsconfig.json"]) {
    await write(root, path, sources);
  }
  if (build) {
    await writeFile(join(root, "package.json"), JSON.stringify({ scripts: { build } }));
    await utimes(join(root, "package.json"), sources, sources);
  }
  for (const path of OUTPUTS) if (outputs) await write(root, path, outputs);
  const npm = join(root, "fake-npm.cjs");
  await writeFile(
    npm,
    [
      "const args = process.argv.slice(2).join(' ');",
      `require("fs").appendFileSync(${JSON.stringify(join(root, "built"))}, args + "\\n");`,
      `setTimeout(() => process.exit(${JSON.stringify(failing ?? null)} && args.includes(${JSON.stringify(failing ?? "")}) ? 2 : 0), 150);`,
    ].join("\n"),
  );
  const run = execFileAsync(process.execPath, [join(root, "scripts", "ensure-built.mjs")], {
    env: { ...childEnv(), npm_execpath: npm, MARTECH_STEPS_BUILD_HEARTBEAT_MS: "40" },
  });
  const result = await run.then(
    (done) => ({ ...done, code: 0 }),
    (error: { stdout: string; stderr: string; code: number }) => error,
  );
  const built = await readFile(join(root, "built"), "utf8").catch(() => undefined);
  return { stdout: result.stdout, stderr: result.stderr, code: result.code, built };
}

const hourAgo = new Date(Date.now() - 3_600_000);
const now = new Date(Date.now() + 60_000);

describe("scripts/ensure-built.mjs", () => {
  it("builds when dist/ is missing, step by step: what each makes, that it happens once, that it still runs", async () => {
    const { built, stderr, stdout, code } = await project(hourAgo, undefined, BUILD);
    expect(code).toBe(0);
    expect(built?.trim().split("\n")).toEqual([
      "exec -- tsc -p tsconfig.build.json",
      "exec -- vite build --config console/vite.config.ts",
    ]);
    expect(stderr).toMatch(
      /^martech-steps: building once, because dist\/ is missing \(about 2 minutes; later starts skip this/,
    );
    expect(stderr).toContain("[1/2] the package's modules (TypeScript): tsc -p tsconfig.build.json");
    expect(stderr).toContain("[2/2] the browser console: vite build --config console/vite.config.ts");
    expect(stderr).toMatch(/still building \(0 s\)/);
    expect(stderr).toMatch(/done in \d+ s[\s\S]*martech-steps: built in \d+ s\.\n$/);
    // stdout stays clean: `npm run sandbox` prints export lines there.
    expect(stdout).toBe("");
  });

  it("builds when a source is newer than the oldest output", async () => {
    const { built, stderr } = await project(now, hourAgo, BUILD);
    expect(built?.trim().split("\n")).toHaveLength(2);
    expect(stderr).toMatch(/building once, because the sources changed since the last build/);
  });

  it("stops at a step that fails, names it, and exits with its code", async () => {
    const { built, stderr, code } = await project(hourAgo, undefined, BUILD, "tsc");
    expect(code).toBe(2);
    expect(built?.trim().split("\n")).toEqual(["exec -- tsc -p tsconfig.build.json"]);
    expect(stderr).toMatch(
      /the build failed at step 1 \(tsc -p tsconfig\.build\.json\); run `npm run build`/,
    );
  });

  it("runs npm run build whole when package.json's build script cannot be read", async () => {
    const { built } = await project(hourAgo, undefined);
    expect(built?.trim()).toBe("run build");
  });

  it("does nothing when dist/ is newer than every source", async () => {
    const { built, stderr } = await project(hourAgo, now, BUILD);
    expect(built).toBeUndefined();
    expect(stderr).toBe("");
  });
});
