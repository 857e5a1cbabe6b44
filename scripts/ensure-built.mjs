#!/usr/bin/env node
// `npm start` and `npm run sandbox` in a clone: build dist/ first when it is missing or older than the
// sources. The build is not an install script (`prepare`), because npm 11 warns every consumer of the
// package about install scripts; it runs at `npm pack`/`publish` (prepack) and here, so that
// `npm install && npm start` still works on a fresh clone. Plain JavaScript: it runs before anything is built.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
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

/** What each step of `npm run build` makes, in words (a step not listed shows its command alone). */
const STEP_WORDS = [
  [/^tsc\b/, "the package's modules (TypeScript)"],
  [/scripts\/cli\.vite\.config/, "the command-line program"],
  [/echarts-server\.vite\.config/, "the chart renderer for MCP images"],
  [/console\/vite\.config/, "the browser console"],
  [/report-chart\.vite\.config/, "the chart view for MCP Apps"],
];
/** While a step runs, a line every this many milliseconds says it still does. */
const HEARTBEAT_MS = Number(process.env.MARTECH_STEPS_BUILD_HEARTBEAT_MS) || 30_000;

/** The steps of package.json's build script (`a && b && c`), or none when it cannot be read. */
function buildSteps() {
  try {
    const script = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts?.build;
    return typeof script === "string" ? script.split(/\s*&&\s*/).filter(Boolean) : [];
  } catch {
    return [];
  }
}

const seconds = (ms) => {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
};
const say = (line) => process.stderr.write(`${line}\n`);

/** Runs a command through npm's exec (so the project's own tsc and vite are found); its output to stderr. */
function run(args) {
  // stderr only: `npm run sandbox` prints export lines on stdout.
  const stdio = ["inherit", 2, 2];
  const npm = process.env.npm_execpath;
  const child = npm
    ? spawn(process.execPath, [npm, ...args], { cwd: root, stdio })
    : spawn("npm", args, { cwd: root, stdio, shell: process.platform === "win32" });
  return new Promise((resolve) => {
    child.on("error", () => resolve(1));
    child.on("exit", (code) => resolve(code ?? 1));
  });
}

/**
 * The build, step by step, each announced with what it makes and how long it took, and a line every
 * 30 s while one runs: a first `npm start` after a clone builds for about two minutes, which in silence
 * reads as a hang.
 */
async function build(why) {
  const steps = buildSteps();
  say(
    `martech-steps: building once, because ${why} (about 2 minutes; later starts skip this while the ` +
      "sources are unchanged).",
  );
  if (steps.length === 0) return run(["run", "build"]);
  const started = Date.now();
  for (const [index, step] of steps.entries()) {
    const words = STEP_WORDS.find(([pattern]) => pattern.test(step))?.[1];
    say(`  [${index + 1}/${steps.length}] ${words ? `${words}: ` : ""}${step}`);
    const stepStarted = Date.now();
    const beat = setInterval(
      () => say(`        still building (${seconds(Date.now() - stepStarted)})`),
      HEARTBEAT_MS,
    );
    const code = await run(["exec", "--", ...step.split(/\s+/)]);
    clearInterval(beat);
    if (code !== 0) {
      say(
        `martech-steps: the build failed at step ${index + 1} (${step}); run \`npm run build\` to see it again.`,
      );
      return code;
    }
    say(`        done in ${seconds(Date.now() - stepStarted)}`);
  }
  say(`martech-steps: built in ${seconds(Date.now() - started)}.`);
  return 0;
}

if (reason) process.exit(await build(reason));
