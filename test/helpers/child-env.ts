import type { ChildProcess } from "node:child_process";
import { tmpdir } from "node:os";

/**
 * The environment of a process a test starts: PATH, TMPDIR and `env`, nothing else of the runner's
 * own (a user's MARTECH_STEPS_HOME or credentials). TMPDIR is the test file's temp folder, so what
 * the process leaves there is found by test/helpers/setup-file.ts.
 */
export function childEnv(env: NodeJS.ProcessEnv = {}): Record<string, string> {
  const all: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? "", TMPDIR: tmpdir(), ...env };
  return Object.fromEntries(
    Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/**
 * Stops a process a test started and resolves once it has exited: until then it may still be writing in the
 * file's temp folder (Node 22's compile cache is written as the process exits), which the file then removes.
 */
export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}
