import { type ChildProcess, spawn } from "node:child_process";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { childEnv, stopChild } from "./child-env.js";
import { tempDir } from "./temp.js";

/** The built CLI, run as a user runs it. */
export const BIN = new URL("../../dist/cli/main.js", import.meta.url).pathname;

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * Runs the CLI with only PATH and `env` in its environment. A command that does not exit within
 * `timeoutMs` is killed and reported with code null, so a hang fails the test instead of stalling it.
 */
export function run(
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { stdin?: string; timeoutMs?: number; command?: string[] } = {},
): Promise<Run> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const [file, ...prefix] = options.command ?? [process.execPath, BIN];
    const child = spawn(file!, [...prefix, ...args], { env: { ...childEnv(), ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => {
      stdout += c;
    });
    child.stderr.on("data", (c) => {
      stderr += c;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 15_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
    child.stdin.end(options.stdin ?? "");
  });
}

/** A fresh, empty MARTECH_STEPS_HOME. */
export function freshHome(prefix = "martech-cli-"): Promise<string> {
  return tempDir(prefix);
}

/** Holds a loopback port, as another program would. */
/** A shell folder with `martech-steps` on PATH (the built CLI) and the user's own store in ./home. */
export async function userShell(prefix: string): Promise<{ cwd: string; env: Record<string, string> }> {
  const cwd = await freshHome(prefix);
  await mkdir(join(cwd, "bin"));
  await writeFile(join(cwd, "bin", "martech-steps"), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  await chmod(join(cwd, "bin", "martech-steps"), 0o755);
  return {
    cwd,
    env: { PATH: `${join(cwd, "bin")}:${process.env.PATH}`, MARTECH_STEPS_HOME: join(cwd, "home") },
  };
}

export async function occupyPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  return { port: address.port, server };
}

/** Whether something accepts connections on a loopback port. */
export async function isListening(port: number): Promise<boolean> {
  const { connect } = await import("node:net");
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

export { stopChild };

export interface Started {
  child: ChildProcess;
  /** What the command printed on stderr until it was ready. */
  banner: string;
  /** What it printed on stdout so far. */
  stdout(): string;
  stop(): Promise<void>;
}

/** Starts a long-running command (start, sandbox) and resolves once its banner says it is ready. */
export function startCli(args: string[], env: NodeJS.ProcessEnv, ready = /Press Ctrl-C/): Promise<Started> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...childEnv(), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stop = () => stopChild(child);
  let stdout = "";
  child.stdout?.on("data", (chunk) => {
    stdout += chunk;
  });
  return new Promise((resolve, reject) => {
    let banner = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${args.join(" ")} was not ready: ${banner}`));
    }, 20_000);
    child.stderr?.on("data", (chunk) => {
      banner += chunk;
      if (ready.test(banner)) {
        clearTimeout(timer);
        resolve({ child, banner, stdout: () => stdout, stop });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(" ")} exited (${code}): ${banner}`));
    });
  });
}

/** Whether a process (started elsewhere: a detached sandbox, a stdio server) is gone within 10 s. */
export async function exited(pid: number): Promise<boolean> {
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const deadline = Date.now() + 10_000;
  while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return !alive();
}
