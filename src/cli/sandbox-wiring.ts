/**
 * The embedded sandbox as the CLI wires it: the emulators started in this process, the environment
 * that points the product at them, and a credential store of the sandbox's own holding the sandbox
 * connections. The user's credential store is never written: a sandbox account in it would later be
 * taken for a real one and its token sent to Google.
 */
import { type CredentialStore, MemoryCredentialStore } from "../auth/credential-store.js";
import {
  type AnyRoom,
  CONNECTION_KINDS,
  CONNECTION_ROOMS,
  type ConnectionKind,
  type EmulatorOf,
} from "../connections/registry.js";
import type { Emulator, SandboxWiring } from "../connections/types.js";
import { ConfigurationError } from "../errors.js";
import { DEFAULT_WORKSPACE, type WorkspaceOptions } from "../workspace.js";

/** A port to listen on, and the flag that changes it (named when the port is taken). */
export interface PortChoice {
  port: number;
  flag: string;
}

/** The running emulator of every room of the registry (undefined when it was not asked for). */
export type RunningEmulators = { [K in ConnectionKind]: EmulatorOf<K> | undefined };

export type Emulators = RunningEmulators & {
  /** The variables that point the product at the emulators (sandbox credentials are public values). */
  env: Record<string, string>;
  close(): Promise<void>;
};

/** A room's sandbox wiring, seen without its emulator's own type; undefined for a room without an emulator. */
export async function sandboxOf(kind: ConnectionKind): Promise<SandboxWiring<Emulator> | undefined> {
  const room: AnyRoom = CONNECTION_ROOMS[kind];
  return room.sandbox?.();
}

async function listen<T>(choice: PortChoice | undefined, begin: (port: number) => Promise<T>): Promise<T> {
  if (!choice) return begin(0);
  try {
    return await begin(choice.port);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EADDRINUSE" && code !== "EACCES") throw error;
    const why = code === "EADDRINUSE" ? "is already in use" : "needs privileges this process does not have";
    throw new ConfigurationError(`Port ${choice.port} on 127.0.0.1 ${why}.`, {
      hint: `Stop the other server, or choose another port with ${choice.flag} (0 picks a free one).`,
      cause: error,
    });
  }
}

/**
 * Starts the emulators asked for, in registry order. When one cannot start (its port is taken), the
 * ones already started are closed before the error propagates, so a failed command exits at once.
 */
export async function startEmulators(
  options: {
    [K in ConnectionKind]?: boolean | PortChoice;
  },
): Promise<Emulators> {
  const running: Partial<Record<ConnectionKind, Emulator>> = {};
  const env: Record<string, string> = {};
  const close = async () => {
    await Promise.allSettled(Object.values(running).map((emulator) => emulator.close()));
  };
  try {
    for (const kind of CONNECTION_KINDS) {
      const wanted = options[kind];
      const wiring = wanted ? await sandboxOf(kind) : undefined;
      if (!wanted || !wiring) continue;
      const emulator = await listen(typeof wanted === "object" ? wanted : undefined, (port) =>
        wiring.start(port),
      );
      running[kind] = emulator;
      Object.assign(env, wiring.env(emulator));
    }
  } catch (error) {
    await close();
    throw error;
  }
  const all = Object.fromEntries(CONNECTION_KINDS.map((kind) => [kind, running[kind]])) as RunningEmulators;
  return { ...all, env, close };
}

/**
 * Gives a workspace of a sandbox-owned store the sandbox connections of the emulators given (each room's
 * own: the Marketo emulator's credentials, the Google account "sandbox" imported the ordinary way).
 */
export async function connectSandbox(
  store: CredentialStore,
  workspace: string,
  emulators: Partial<RunningEmulators>,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  for (const kind of CONNECTION_KINDS) {
    const emulator = emulators[kind];
    if (emulator) await (await sandboxOf(kind))?.connect(store, workspace, emulator, env);
  }
}

/** The caller's environment without what would share state with real use (Redis), plus the emulators'. */
export function sandboxOnlyEnv(
  base: NodeJS.ProcessEnv,
  emulators: Record<string, string>,
): NodeJS.ProcessEnv {
  const { REDIS_URL: _redis, REDIS_CLUSTER_NODES: _cluster, MARTECH_STEPS_STORE: _store, ...rest } = base;
  return { ...rest, ...emulators };
}

/** Sessions still running, closed by the CLI when a command fails after starting one. */
const open = new Set<() => Promise<void>>();

export interface SandboxSession {
  /** Options for `new Workspace(...)` / `workspaceFactory(...)`: the sandbox env and its own store. */
  workspace: Required<Pick<WorkspaceOptions, "env" | "store">>;
  emulators: Emulators;
  close(): Promise<void>;
}

/**
 * `--sandbox`: every room's emulator in this process on ephemeral ports, and an in-memory store whose
 * `workspace` holds the sandbox connections. Nothing real is read or written.
 */
export async function startSandboxSession(workspace = DEFAULT_WORKSPACE): Promise<SandboxSession> {
  const emulators = await startEmulators(Object.fromEntries(CONNECTION_KINDS.map((kind) => [kind, true])));
  const close = async () => {
    open.delete(close);
    await emulators.close();
  };
  open.add(close);
  try {
    const env = sandboxOnlyEnv(process.env, emulators.env);
    const store = new MemoryCredentialStore();
    await connectSandbox(store, workspace, emulators, env);
    return { workspace: { env, store }, emulators, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Closes every sandbox session of this process, so a command that failed exits at once. */
export async function closeSandboxSessions(): Promise<void> {
  await Promise.allSettled([...open].map((close) => close()));
}

/**
 * What `serve` runs its workspaces with: the process environment and the user's store, or with
 * `--sandbox` a sandbox session. A stdio session ends when the client closes stdin; the emulators
 * stop then, so the process can exit.
 */
export async function serveWorkspaceOptions(options: {
  sandbox?: boolean;
  http?: boolean;
  workspace?: string;
}): Promise<Omit<WorkspaceOptions, "name">> {
  if (!options.sandbox) return { env: process.env };
  const session = await startSandboxSession(options.workspace ?? DEFAULT_WORKSPACE);
  if (!options.http) process.stdin.once("end", () => void session.close());
  // One part per room that runs an emulator, in the room's own words (as npm start's banner).
  const parts = await Promise.all(
    CONNECTION_KINDS.map(async (kind) => {
      const emulator = session.emulators[kind];
      const wiring = emulator && (await sandboxOf(kind));
      return wiring ? `${CONNECTION_ROOMS[kind].label}: ${wiring.describe(emulator)}` : undefined;
    }),
  );
  const shown = parts.filter((part) => part !== undefined).join("; ");
  process.stderr.write(`martech-steps: on the embedded sandbox (${shown}); nothing real is used.\n`);
  return session.workspace;
}
