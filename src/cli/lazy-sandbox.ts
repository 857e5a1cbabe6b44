/**
 * The sandbox wiring, loaded only by the commands that use the sandbox: serving tools over stdio should
 * not pay for loading the emulators (cold start is measured by the bench). One loader for every command,
 * so that a failed command can close the sandbox sessions it started.
 */
let wiring: Promise<typeof import("./sandbox-wiring.js")> | undefined;

export function sandboxWiring(): Promise<typeof import("./sandbox-wiring.js")> {
  wiring ??= import("./sandbox-wiring.js");
  return wiring;
}

/** Closes the sandbox sessions started in this process (none when the wiring was never loaded). */
export async function closeSandboxSessions(): Promise<void> {
  if (wiring) await (await wiring).closeSandboxSessions();
}
