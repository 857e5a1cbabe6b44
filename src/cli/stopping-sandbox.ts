import { existsSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { processRunning, SANDBOX_HOME_PREFIX, UNSET_SANDBOX } from "../auth/store-core.js";
import { ConfigurationError } from "../errors.js";

/**
 * Stopping a sandbox whose exports a shell evaluated, and the window while it stops. Kept apart from
 * sandbox.ts (which loads the emulators) because every store command checks that window at start (and
 * named apart from dist/cli/sandbox*, which test/cli/lazy-start.test.ts keeps out of `serve`'s start).
 */

/** The file in a sandbox's own home that names its process: `--unset` stops only that process. */
const PID_FILE = "sandbox.pid";

/** How long `--unset` waits for the sandbox to close its emulators and remove its folder. */
const STOP_TIMEOUT_MS = 10_000;
/** How long it waits for a sandbox already stopping (its folder gone) to exit. */
const STOPPING_GRACE_MS = 3_000;

export async function writeSandboxPid(home: string): Promise<void> {
  await writeFile(join(home, PID_FILE), `${process.pid}\n`, { mode: 0o600 });
}

/** The sandbox pid the shell's exports name, or undefined. */
function exportedPid(env: NodeJS.ProcessEnv): number | undefined {
  const pid = Number(env.MARTECH_STEPS_SANDBOX_PID);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function isSandboxHome(home: string | undefined): home is string {
  return home !== undefined && basename(home).startsWith(SANDBOX_HOME_PREFIX);
}

/**
 * Linux keeps an exited process whose parent has not collected it as a zombie, which `kill -0` still
 * finds (https://man7.org/linux/man-pages/man5/proc_pid_stat.5.html): it has stopped all the same.
 */
function alive(pid: number): boolean {
  if (!processRunning(pid)) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return true;
  }
}

/** The arguments of a running process, where the system shows them (Linux), else undefined. */
function commandLine(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
  } catch {
    return undefined;
  }
}

/**
 * Whether `pid` is the sandbox of these exports: its home still names it (a sandbox removes its home
 * when it stops) and, where the system shows it, it runs `sandbox`. A pid that another process took
 * over after the sandbox was killed hard is never signalled.
 */
function isOurSandbox(pid: number, env: NodeJS.ProcessEnv): boolean {
  const home = env.MARTECH_STEPS_HOME;
  if (!isSandboxHome(home)) return false;
  try {
    if (Number(readFileSync(join(home, PID_FILE), "utf8").trim()) !== pid) return false;
  } catch {
    return false;
  }
  return commandLine(pid)?.includes("sandbox") ?? true;
}

/** Waits until `pid` has exited, for at most `ms`; whether it did. */
async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (alive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

/**
 * `--unset` stops the shell's sandbox before its exports are undone, and waits until it has exited
 * (it closes its emulators and removes its folder first, about a second), so that the shell is never
 * left with a sandbox nobody knows the pid of. Throws when it does not stop in time.
 */
export async function stopExportedSandbox(env: NodeJS.ProcessEnv): Promise<"stopped" | "not running"> {
  const pid = exportedPid(env);
  if (pid === undefined || !alive(pid)) return "not running";
  if (!isOurSandbox(pid, env)) {
    // Its folder is gone: it is stopping (the folder goes last), or the pid is another process's now.
    // Never signalled; a stopping sandbox gets a moment to exit.
    await waitForExit(pid, STOPPING_GRACE_MS);
    return "not running";
  }
  process.kill(pid, "SIGTERM");
  if (await waitForExit(pid, STOP_TIMEOUT_MS)) return "stopped";
  throw new ConfigurationError(
    `The sandbox (pid ${pid}) did not stop within ${STOP_TIMEOUT_MS / 1000} s of SIGTERM; its exports are left in place.`,
    { hint: `Stop it with: kill -9 ${pid}; then ${UNSET_SANDBOX}` },
  );
}

/**
 * In the window while a sandbox stops (after `kill`, before it has exited), its process still runs but
 * its folder is gone: a store command would read an empty store and print nothing found. It refuses.
 */
export function refuseStoppingSandbox(env: NodeJS.ProcessEnv): void {
  const pid = exportedPid(env);
  const home = env.MARTECH_STEPS_HOME;
  if (pid === undefined || !isSandboxHome(home) || existsSync(home) || !alive(pid)) return;
  throw new ConfigurationError(
    `The sandbox of this shell (MARTECH_STEPS_SANDBOX_PID ${pid}) is stopping: its credential folder ${home} is already gone.`,
    { hint: `Go back to your own configuration with: ${UNSET_SANDBOX} (it waits for the sandbox to exit).` },
  );
}
