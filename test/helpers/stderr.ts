import childProcess, { type ChildProcess, type SpawnOptions } from "node:child_process";
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";

/**
 * Everything a test file writes on stderr, caught so that a run prints nothing there: a line a test
 * did not announce with {@link allowStderr} fails that test (test/helpers/setup-file.ts checks after
 * each one). Four ways reach stderr: `process.stderr.write` (our warnings), `console.error`/`warn`,
 * `fs.writeSync(2, …)` (pino's synchronous destination, src/log.ts), and a child process started with
 * its stderr inherited (the MCP SDK's StdioClientTransport does so by default), which writes straight
 * to the worker's file descriptor 2 and would bypass the others.
 */
let written = "";
const allowed: RegExp[] = [];

/** Lets the current test write lines matching `pattern` on stderr (they are kept out of the output). */
export function allowStderr(pattern: RegExp): void {
  allowed.push(pattern);
}

/** The lines written since the last call that no {@link allowStderr} pattern matches; starts over. */
export function takeUnexpectedStderr(): string[] {
  const lines = written.split("\n").filter((line) => line.trim() !== "");
  written = "";
  const unexpected = lines.filter((line) => !allowed.some((pattern) => pattern.test(line)));
  allowed.length = 0;
  return unexpected;
}

function record(chunk: unknown): void {
  written += typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString();
}

/** Reads `child`'s stderr into the record when it was asked to be inherited. */
function pipeInherited(child: ChildProcess): ChildProcess {
  child.stderr?.on("data", record);
  return child;
}

/** The options with an inherited stderr turned into a pipe, and whether it was. */
function withPipedStderr(options: SpawnOptions | undefined): [SpawnOptions | undefined, boolean] {
  const stdio = options?.stdio;
  if (stdio === "inherit") return [{ ...options, stdio: ["inherit", "inherit", "pipe"] }, true];
  if (Array.isArray(stdio) && (stdio[2] === "inherit" || stdio[2] === 2 || stdio[2] === process.stderr)) {
    return [{ ...options, stdio: [stdio[0], stdio[1], "pipe", ...stdio.slice(3)] }, true];
  }
  return [options, false];
}

let installed = false;

/** Installs the catch once per worker process. */
export function catchStderr(): void {
  if (installed) return;
  installed = true;
  process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
    record(chunk);
    const done = rest.find((arg) => typeof arg === "function") as (() => void) | undefined;
    done?.();
    return true;
  }) as typeof process.stderr.write;
  for (const level of ["error", "warn"] as const) {
    console[level] = (...args: unknown[]) => record(`${args.map(String).join(" ")}\n`);
  }
  const writeSync = fs.writeSync;
  fs.writeSync = ((fd: number, data: unknown, ...rest: unknown[]) => {
    if (fd !== 2) return (writeSync as (...args: unknown[]) => number)(fd, data, ...rest);
    record(data);
    return typeof data === "string" ? Buffer.byteLength(data) : (data as Uint8Array).byteLength;
  }) as typeof fs.writeSync;
  // spawn(file, options) or spawn(file, args, options): the options are the last object argument.
  const spawn = childProcess.spawn;
  const patched = (...args: unknown[]) => {
    const at = args.findIndex(
      (arg, i) => i > 0 && arg !== null && typeof arg === "object" && !Array.isArray(arg),
    );
    if (at === -1) return spawn(...(args as Parameters<typeof spawn>));
    const [options, piped] = withPipedStderr(args[at] as SpawnOptions);
    const child = spawn(...(args.map((arg, i) => (i === at ? options : arg)) as Parameters<typeof spawn>));
    return piped ? pipeInherited(child) : child;
  };
  childProcess.spawn = patched as typeof spawn;
  // `import { spawn } from "node:child_process"` reads the patched function from now on.
  syncBuiltinESMExports();
}
