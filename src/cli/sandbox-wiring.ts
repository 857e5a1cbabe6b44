/**
 * The embedded sandbox as the CLI wires it: the emulators started in this process, the environment
 * that points the product at them, and a credential store of the sandbox's own holding the sandbox
 * connections. The user's credential store is never written: a sandbox account in it would later be
 * taken for a real one and its token sent to Google.
 */
import { type CredentialStore, MemoryCredentialStore } from "../auth/credential-store.js";
import { GoogleAccounts } from "../auth/google/accounts.js";
import { googleEndpointsFromEnv } from "../auth/google/config.js";
import { ConfigurationError } from "../errors.js";
import {
  type GoogleSandbox,
  type MarketoSandbox,
  SANDBOX_GOOGLE_USER,
  sandboxEnv,
  startGoogleSandbox,
  startMarketoSandbox,
} from "../sandbox/index.js";
import { DEFAULT_WORKSPACE, type WorkspaceOptions } from "../workspace.js";

/** The label of the pre-connected sandbox Google account. */
export const SANDBOX_ACCOUNT = "sandbox";

/** A port to listen on, and the flag that changes it (named when the port is taken). */
export interface PortChoice {
  port: number;
  flag: string;
}

export interface Emulators {
  marketo: MarketoSandbox | undefined;
  google: GoogleSandbox | undefined;
  /** The variables that point the product at the emulators (sandbox credentials are public values). */
  env: Record<string, string>;
  close(): Promise<void>;
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
 * Starts the emulators asked for. When one cannot start (its port is taken), the ones already
 * started are closed before the error propagates, so a failed command exits at once.
 */
export async function startEmulators(options: {
  marketo?: boolean | PortChoice;
  google?: boolean | PortChoice;
}): Promise<Emulators> {
  const choice = (value: boolean | PortChoice | undefined) => (typeof value === "object" ? value : undefined);
  let marketo: MarketoSandbox | undefined;
  let google: GoogleSandbox | undefined;
  const close = async () => {
    await Promise.allSettled([marketo?.close(), google?.close()]);
  };
  try {
    if (options.marketo)
      marketo = await listen(choice(options.marketo), (port) => startMarketoSandbox({ port }));
    if (options.google) google = await listen(choice(options.google), (port) => startGoogleSandbox({ port }));
  } catch (error) {
    await close();
    throw error;
  }
  return { marketo, google, env: sandboxEnv({ marketo, google }), close };
}

/**
 * Gives a workspace of a sandbox-owned store the sandbox connections: the Marketo emulator's
 * credentials and the Google account "sandbox" (imported the ordinary way, one token request).
 */
export async function connectSandbox(
  store: CredentialStore,
  workspace: string,
  emulators: Pick<Emulators, "marketo" | "google">,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const { marketo, google } = emulators;
  if (marketo) {
    const { clientId, clientSecret, restEndpoint } = marketo;
    await store.update(workspace, (current) => ({
      ...current,
      marketo: { clientId, clientSecret, restEndpoint },
    }));
  }
  if (google) {
    const accounts = new GoogleAccounts({ store, workspace, endpoints: googleEndpointsFromEnv(env), env });
    await accounts.importAccount({
      label: SANDBOX_ACCOUNT,
      refreshToken: google.issueRefreshToken(SANDBOX_GOOGLE_USER),
    });
    // Marked, so that `accounts list` and the console show it as the sandbox's.
    await store.update(workspace, (current) => {
      const record = current.googleAccounts[SANDBOX_ACCOUNT];
      if (!record) return current;
      return {
        ...current,
        googleAccounts: { ...current.googleAccounts, [SANDBOX_ACCOUNT]: { ...record, sandbox: true } },
      };
    });
  }
}

/** The caller's environment without what would share state with real use (Redis), plus the emulators'. */
export function sandboxOnlyEnv(
  base: NodeJS.ProcessEnv,
  emulators: Record<string, string>,
): NodeJS.ProcessEnv {
  const { REDIS_URL: _redis, MARTECH_STEPS_STORE: _store, ...rest } = base;
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
 * `--sandbox`: both emulators in this process on ephemeral ports, and an in-memory store whose
 * `workspace` holds the sandbox connections. Nothing real is read or written.
 */
export async function startSandboxSession(workspace = DEFAULT_WORKSPACE): Promise<SandboxSession> {
  const emulators = await startEmulators({ marketo: true, google: true });
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
  const { marketo, google } = session.emulators;
  process.stderr.write(
    `martech-steps: on the embedded sandbox (Marketo ${marketo?.restEndpoint}, Google ${google?.url}, ` +
      `Google account "${SANDBOX_ACCOUNT}"); nothing real is used.\n`,
  );
  return session.workspace;
}
