#!/usr/bin/env node
// `npm start` and `npm run sandbox` in a clone: build dist/ first when it is missing or older than the
// sources. The build is not an install script (`prepare`), because npm 11 warns every consumer of the
// package about install scripts; it runs at `npm pack`/`publish` (prepack) and here, so that
// `npm install && npm start` still works on a fresh clone. Plain JavaScript: it runs before anything is built.
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

/**
 * What a build writes last of each of its steps (tsc and the CLI's bundle over it, the chart bundle, the
 * console, the MCP App view).
 */
const OUTPUTS = [
  "dist/cli/main.js",
  "dist/charts/echarts-server.js",
  "dist/console-web/index.html",
  "dist/mcp-app/report-chart.html",
];
/** What the build reads: a change to any of these makes dist/ stale. */
const INPUTS = [
  "src",
  "console",
  "scripts/cli.vite.config.ts",
  "scripts/echarts-server.vite.config.ts",
  "package.json",
  "tsconfig.json",
  "tsconfig.build.json",
];

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/** The newest modification time of the files under a file or folder (node_modules left out). */
function newest(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(path)) {
    if (entry === "node_modules") continue;
    latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

const built = OUTPUTS.map((output) => mtime(join(root, output)));
const oldestOutput = built.includes(undefined) ? undefined : Math.min(...built);
const reason =
  oldestOutput === undefined
    ? "dist/ is missing"
    : INPUTS.some((input) => newest(join(root, input)) > oldestOutput)
      ? "the sources changed since the last build"
      : undefined;

if (reason) {
  process.stderr.write(`martech-steps: building (${reason}): npm run build\n`);
  // The build's output goes to stderr: `npm run sandbox` prints export lines on stdout.
  const stdio = ["inherit", 2, 2];
  const npm = process.env.npm_execpath;
  const result = npm
    ? spawnSync(process.execPath, [npm, "run", "build"], { cwd: root, stdio })
    : spawnSync("npm", ["run", "build"], { cwd: root, stdio, shell: process.platform === "win32" });
  process.exit(result.status ?? 1);
}
