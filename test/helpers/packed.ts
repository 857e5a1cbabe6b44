/**
 * The package as a user gets it: `npm pack` of the checkout (its dist/ as built), installed from the tarball
 * into an empty project, and its installed bin run as a user runs it. Nothing here imports the checkout's
 * src/ or dist/ (test/architecture/packed-imports.test.ts): what is tested is what npm ships.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { childEnv, stopChild } from "./child-env.js";
import { tempDir } from "./temp.js";

const execFileAsync = promisify(execFile);

/** The checkout: what `npm pack` packs, and the committed files the installed package is compared with. */
export const CHECKOUT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * npm's complaints about this machine's own npmrc (keys npm 11 no longer knows), which say nothing
 * about the package: every other `npm warn` line is the package's.
 */
const MACHINE_CONFIG_WARNING = /^npm warn Unknown (user|global|env|project|builtin) config /;

/** The `npm warn` lines of an npm command's stderr that are about the package. */
export function npmWarnings(stderr: string): string[] {
  return stderr
    .split("\n")
    .filter((line) => /^npm (warn|WARN)/.test(line) && !MACHINE_CONFIG_WARNING.test(line));
}

function npm(args: string[], cwd: string) {
  return execFileAsync("npm", [...args, "--no-audit", "--no-fund"], {
    cwd,
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, npm_config_update_notifier: "false" },
  });
}

export interface Installed {
  /** The temp folder holding the tarball, the project and the homes of the processes started. */
  work: string;
  /** The consumer project the tarball was installed into. */
  project: string;
  /** node_modules/.bin/martech-steps of that project. */
  bin: string;
  /** The package's folder in the project's node_modules. */
  packageDir: string;
  /** What `npm install` wrote on stderr. */
  installStderr: string;
  /** The checkout's package.json version (the installed one must be it). */
  version: string;
}

/**
 * Packs the checkout and installs the tarball into an empty project (from npm's cache where it can: the
 * suite runs offline). dist/ is built by `npm test` before the suite: prepack would only build it again.
 */
export async function packAndInstall(): Promise<Installed> {
  const work = await tempDir("martech-pack-");
  const project = join(work, "consumer");
  const { stdout } = await npm(["pack", "--ignore-scripts", "--json", "--pack-destination", work], CHECKOUT);
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
  await mkdir(project);
  await writeFile(join(project, "package.json"), '{ "name": "consumer", "private": true }\n');
  const { stderr } = await npm(["install", "--prefer-offline", join(work, filename)], project);
  const pkg = JSON.parse(await readFile(join(CHECKOUT, "package.json"), "utf8")) as { version: string };
  return {
    work,
    project,
    bin: join(project, "node_modules/.bin/martech-steps"),
    packageDir: join(project, "node_modules/martech-steps"),
    installStderr: stderr,
    version: pkg.version,
  };
}

/** Runs the installed bin to its end with only PATH, TMPDIR and `env` in its environment. */
export async function runBin(
  installed: Installed,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ stdout: string; stderr: string }> {
  return execFileAsync(installed.bin, args, {
    cwd: installed.project,
    env: childEnv(env),
    maxBuffer: 16 * 1024 * 1024,
    timeout: 60_000,
  });
}

export interface Running {
  child: ChildProcess;
  /** What the command printed on stderr until it was ready. */
  banner: string;
  stop(): Promise<void>;
}

/** Starts a long-running command of the installed bin (start, serve --http) and resolves once it is ready. */
export function startBin(
  installed: Installed,
  args: string[],
  env: NodeJS.ProcessEnv,
  ready = /Press Ctrl-C/,
): Promise<Running> {
  const child = spawn(installed.bin, args, {
    cwd: installed.project,
    env: childEnv(env),
    stdio: ["ignore", "ignore", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let banner = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${args.join(" ")} was not ready within 30 s: ${banner}`));
    }, 30_000);
    child.stderr?.on("data", (chunk) => {
      banner += chunk;
      if (ready.test(banner)) {
        clearTimeout(timer);
        resolve({ child, banner, stop: () => stopChild(child) });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(" ")} exited (${code}): ${banner}`));
    });
  });
}
