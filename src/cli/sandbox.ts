import { spawn } from "node:child_process";
import { mkdtemp, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileCredentialStore, processRunning, SANDBOX_HOME_PREFIX } from "../auth/credential-store.js";
import type { ConnectionKind } from "../connections/registry.js";
import { ConfigurationError, ValidationError } from "../errors.js";
import { DEFAULT_WORKSPACE } from "../workspace.js";
import { stopWhenNpmParentExits } from "./npm-parent.js";
import { type PortOption, sandboxPortOptions } from "./sandbox-options.js";
import {
  connectSandbox,
  type Emulators,
  type PortChoice,
  sandboxOf,
  startEmulators,
} from "./sandbox-wiring.js";
import { parsePort } from "./serve.js";
import { stopExportedSandbox, writeSandboxPid } from "./stopping-sandbox.js";

export interface SandboxOptions {
  detach?: boolean;
  /** Print the `unset` line that undoes the exports (after the sandbox stopped). */
  unset?: boolean;
  /** Set by --detach on the background process it starts: report the environment over IPC. */
  reportToParent?: boolean;
  /** Each room's port option, by commander's name for it (PortOption.attribute). */
  [port: string]: string | boolean | undefined;
}

/** The rooms' emulators' port options, in registry order. */
const PORTS = sandboxPortOptions();

/** Every variable the export lines may set (the emulators', then the sandbox's own); `--unset` undoes them. */
export const SANDBOX_VARIABLES = [
  ...PORTS.flatMap((port) => port.variables),
  "MARTECH_STEPS_HOME",
  "MARTECH_STEPS_STORE",
  "MARTECH_STEPS_SANDBOX_PID",
  "MARTECH_STEPS_SANDBOX_OWN_HOME",
  "MARTECH_STEPS_SANDBOX_OWN_STORE",
];

/**
 * The settings that choose the user's own store, which the exports replace: kept beside them so
 * `--unset` puts them back (they are paths and a store kind, never secrets). In a shell already on a
 * sandbox, the ones that sandbox kept.
 */
const OWN_STORE_SETTINGS = [
  ["MARTECH_STEPS_HOME", "MARTECH_STEPS_SANDBOX_OWN_HOME"],
  ["MARTECH_STEPS_STORE", "MARTECH_STEPS_SANDBOX_OWN_STORE"],
] as const;

function ownStoreSettings(env: NodeJS.ProcessEnv): Record<string, string> {
  const onSandbox = env.MARTECH_STEPS_SANDBOX_PID !== undefined;
  const kept: Record<string, string> = {};
  for (const [name, keptAs] of OWN_STORE_SETTINGS) {
    const value = onSandbox ? env[keptAs] : env[name];
    if (value !== undefined) kept[keptAs] = value;
  }
  return kept;
}

/**
 * `--unset`: stops the shell's sandbox (and waits until it has exited), then prints the lines that take
 * its exports out of the shell, for `eval` (as `ssh-agent -k`). A sandbox that does not stop leaves the
 * exports in place: stdout stays empty and the error says what to do.
 */
async function unsetExports(): Promise<void> {
  const stopped = await stopExportedSandbox(process.env);
  const restore = OWN_STORE_SETTINGS.flatMap(([name, keptAs]) => {
    const value = process.env[keptAs];
    return value === undefined ? [] : [`export ${name}=${shellWord(value)}\n`];
  });
  process.stdout.write(`unset ${SANDBOX_VARIABLES.join(" ")}\n${restore.join("")}`);
  if (stopped === "stopped") {
    process.stderr.write(`Stopped the sandbox (pid ${process.env.MARTECH_STEPS_SANDBOX_PID}).\n`);
  }
}

/**
 * A second `eval "$(martech-steps sandbox --detach)"` in a shell whose sandbox still runs would
 * replace its exports, leaving the first sandbox running with nobody knowing its pid to stop it.
 */
function refuseSecondDetached(env: NodeJS.ProcessEnv): void {
  const pid = Number(env.MARTECH_STEPS_SANDBOX_PID);
  if (!Number.isInteger(pid) || pid <= 0 || !processRunning(pid)) return;
  throw new ConfigurationError(
    `This shell already has a sandbox running in the background (MARTECH_STEPS_SANDBOX_PID ${pid}); a second one would take over its exports and leave it running with nobody to stop it.`,
    {
      hint: 'Keep using it, or stop it first: eval "$(martech-steps sandbox --unset)".',
    },
  );
}

/** A value as one shell word: bare when it is safe, otherwise single-quoted. */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

function exportLines(env: Record<string, string>): string {
  return Object.entries(env)
    .map(([name, value]) => `export ${name}=${shellWord(value)}\n`)
    .join("");
}

/**
 * `martech-steps sandbox`: the emulators alone, with a credential store of their own (a temporary
 * MARTECH_STEPS_HOME that holds the sandbox connections, removed when the sandbox stops). The
 * `export` lines that point martech-steps at them go to stdout; the human banner goes to stderr.
 */
export async function runSandbox(options: SandboxOptions): Promise<void> {
  if (options.unset) return unsetExports();
  if (options.detach) {
    refuseSecondDetached(process.env);
    return detach(options);
  }
  // In the background nobody reads the ports, so any free ones do; in a terminal, the well-known ones.
  const fallback = options.reportToParent ? 0 : undefined;
  // In the background, a parent that goes away before it printed the exports (Ctrl-C, a closed
  // terminal) leaves nobody who knows this process: then it cleans up and exits by itself.
  const parent = options.reportToParent ? watchParent() : undefined;
  const emulators = await startEmulators(emulatorPorts(options, fallback));
  const home = await mkdtemp(join(tmpdir(), SANDBOX_HOME_PREFIX));
  const stop = async () => {
    await emulators.close();
    // Renamed first, so that the folder goes at once: a command in the shell never reads it half removed.
    const leaving = `${home}.stopping`;
    await rename(home, leaving).catch(() => undefined);
    await rm(leaving, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  };
  // What the sandbox still does to its folder (connecting the account) ends before the folder goes.
  let setup: Promise<unknown> = Promise.resolve();
  let stopping = false;
  const exit = () => {
    if (stopping) return;
    stopping = true;
    setup
      .catch(() => undefined)
      .then(stop)
      .finally(() => process.exit(0));
  };
  // However it is stopped: Ctrl-C, kill, or its terminal closing (SIGHUP), the folder with its key goes.
  // `on`, not `once`: a second signal while it stops (kill, then --unset) must not end it before that.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, exit);
  // A detached sandbox outlives the command that started it on purpose: only a foreground one watches npm.
  if (!options.reportToParent) stopWhenNpmParentExits(exit);
  const env = sandboxEnv(emulators.env, home);
  // Names this process in its own folder: `--unset` stops only the sandbox the exports belong to.
  await writeSandboxPid(home);
  const store = new FileCredentialStore({ home, env: { ...process.env, ...env } });
  // The key pair is made on the thread pool while the account connects.
  setup = Promise.all([
    connectSandbox(store, DEFAULT_WORKSPACE, emulators, { ...process.env, ...env }),
    furnishHome(emulators, home),
  ]);
  parent?.onGone(exit);
  try {
    await setup;
  } catch (error) {
    await stop();
    throw error;
  }
  if (stopping) return;
  if (parent) {
    // Nobody reads our stdio once the parent has gone: a late write must not crash the sandbox.
    process.stderr.on("error", () => undefined);
    parent.handOver(exportLines(env));
    return;
  }
  process.stdout.write(exportLines(env));
  await printBanner(emulators, home);
}

/** A port option's value as given (commander gives a string for `<port>`). */
function given(options: SandboxOptions, port: PortOption): string | undefined {
  const value = options[port.attribute];
  return typeof value === "string" ? value : undefined;
}

/** The port of each room's emulator, from the options (or `fallback`, then the well-known ones). */
function emulatorPorts(
  options: SandboxOptions,
  fallback: number | undefined,
): Partial<Record<ConnectionKind, PortChoice>> {
  const chosen: Partial<Record<ConnectionKind, PortChoice>> = {};
  const taken: { flag: string; port: number }[] = [];
  for (const option of PORTS) {
    const port = parsePort(given(options, option), fallback ?? option.defaultPort, option.portFlag);
    const before = taken.find((earlier) => port !== 0 && earlier.port === port);
    if (before) {
      // Otherwise the second emulator reports the first one's port as taken "by another server".
      throw new ValidationError(option.portFlag, `it is the same port as ${before.flag} (${port}).`, {
        hint: "Each emulator needs its own port: choose another, or 0 for a free one.",
      });
    }
    taken.push({ flag: option.portFlag, port });
    chosen[option.kind] = { port, flag: option.portFlag };
  }
  return chosen;
}

/** The environment that points martech-steps at the emulators and the sandbox's own store in `home`. */
function sandboxEnv(emulatorEnv: Record<string, string>, home: string): Record<string, string> {
  return {
    ...emulatorEnv,
    MARTECH_STEPS_HOME: home,
    // The sandbox's store is a file in its home, even where the user's store is in Redis.
    MARTECH_STEPS_STORE: "file",
    MARTECH_STEPS_SANDBOX_PID: String(process.pid),
    ...ownStoreSettings(process.env),
  };
}

/** What each room's emulator puts in the sandbox's folder for the user to try (removed with it). */
async function furnishHome(emulators: Emulators, home: string): Promise<void> {
  for (const { kind } of PORTS) {
    const emulator = emulators[kind];
    if (emulator) await (await sandboxOf(kind))?.furnish?.(emulator, home);
  }
}

/** The human banner of a foreground sandbox, on stderr: each room's lines, then how to use the exports. */
async function printBanner(emulators: Emulators, home: string): Promise<void> {
  const lines: string[] = [];
  for (const { kind } of PORTS) {
    const emulator = emulators[kind];
    const wiring = emulator && (await sandboxOf(kind));
    if (wiring) lines.push(...wiring.banner(emulator, home));
  }
  lines.push(
    "The export lines on stdout point martech-steps at this sandbox (sandbox credentials are public test",
    `values): paste them into another shell, or start the sandbox with eval "$(martech-steps sandbox --detach)".`,
    "Press Ctrl-C to stop.",
  );
  process.stderr.write(`${lines.join("\n")}\n`);
}

/**
 * The background side of `--detach`: sends the exports to the parent, which answers once it has
 * printed them. A parent that goes away before that answer (its IPC channel closes) calls `gone`.
 */
function watchParent() {
  let printed = false;
  let gone: (() => void) | undefined;
  let left = !process.connected;
  process.once("disconnect", () => {
    left = true;
    if (!printed) gone?.();
  });
  // Listening for "disconnect" keeps the channel, and so this process, alive: a sandbox that failed
  // to start must still exit. Its servers keep it alive once started.
  process.channel?.unref();
  return {
    onGone(callback: () => void) {
      gone = callback;
      if (left && !printed) callback();
    },
    handOver(exports: string) {
      if (!process.connected || !process.send) return gone?.();
      // Listening keeps the channel open until the parent answers (or goes away).
      process.on("message", (message: { printed?: boolean }) => {
        if (message?.printed) printed = true;
      });
      process.send({ exports }, (error: Error | null) => {
        if (error) gone?.();
      });
    },
  };
}

/**
 * `--detach`: runs the sandbox as a background process (as ssh-agent does) and prints its `export`
 * lines, for `eval "$(martech-steps sandbox --detach)"`; `eval "$(martech-steps sandbox --unset)"` stops it.
 */
async function detach(options: SandboxOptions): Promise<void> {
  const args = [process.argv[1] ?? "", "sandbox", "--report-to-parent"];
  for (const port of PORTS) {
    const value = given(options, port);
    if (value !== undefined) args.push(port.portFlag, value);
  }
  const child = spawn(process.execPath, [...process.execArgv, ...args], {
    detached: true,
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  const outcome = await new Promise<{ exports: string } | { code: number | null }>((resolve, reject) => {
    child.once("message", (message: { exports?: string }) => resolve({ exports: message.exports ?? "" }));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code }));
  });
  if ("code" in outcome) {
    // The background sandbox could not start: its own `error:` line says why.
    process.stderr.write(stderr);
    process.exitCode = outcome.code || 1;
    return;
  }
  child.removeAllListeners("close");
  child.stderr?.destroy();
  process.stdout.write(outcome.exports);
  process.stderr.write(
    `martech-steps sandbox running in the background (pid ${child.pid}); stop it with: eval "$(martech-steps sandbox --unset)"\n`,
  );
  // Only once the exports are printed is the sandbox someone else's to stop: until this answer, it
  // stops by itself when this process goes away.
  child.send({ printed: true }, () => {
    if (child.connected) child.disconnect();
  });
  child.unref();
}
