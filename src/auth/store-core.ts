import { homedir } from "node:os";
import { join } from "node:path";
import { ConfigurationError, ValidationError } from "../errors.js";
import type { Unopenable } from "./unopenable.js";

/*
 * What every credential store shares: the stored document's types, the store interface, workspace
 * names, the in-process lock, and the in-memory store. The file store is in credential-store.ts.
 */

/** The Google OAuth client (Desktop app) used to connect accounts. */
export interface GoogleOAuthClient {
  clientId: string;
  clientSecret: string;
}

/**
 * A Google service account's key (the JSON key file's fields that are used), and the user it acts as
 * under domain-wide delegation. `privateKey` is the secret; the rest is safe to show.
 */
export interface GoogleServiceAccountKey {
  clientEmail: string;
  privateKeyId: string;
  /** PKCS #8 PEM, as Google's key files hold it. */
  privateKey: string;
  /** The OAuth client id of the service account (the one domain-wide delegation is granted to). */
  clientId?: string | undefined;
  /** The user impersonated (the JWT's `sub` claim), when domain-wide delegation is used. */
  subject?: string | undefined;
}

/**
 * One connected Google account: a user's (`refreshToken` is the secret) or a service account's
 * (`serviceAccount.privateKey` is the secret); exactly one of the two is set. The rest is safe to show.
 */
export interface GoogleAccountRecord {
  label: string;
  email?: string | undefined;
  scopes: string[];
  addedAt: string;
  refreshToken?: string | undefined;
  serviceAccount?: GoogleServiceAccountKey | undefined;
  /**
   * The OAuth client that issued the token, when it is not the workspace's (gcloud authorized_user
   * files): a refresh token only works with the client that obtained it.
   */
  client?: GoogleOAuthClient | undefined;
  /**
   * The Google endpoints the account was connected against: its refresh token is only ever sent
   * there. Absent in records written before it was recorded; those are taken as connected to
   * Google's own endpoints (the migration rule in google/service.ts).
   */
  service?: GoogleService | undefined;
  /**
   * The embedded sandbox's account (the pre-connected one, or one connected on its consent page):
   * shown as the sandbox's. Such an account lives only in the sandbox's own store or in memory,
   * never in the user's store.
   */
  sandbox?: boolean | undefined;
}

/** Where a Google account's token was issued and may be used (GoogleEndpoints minus the browser page). */
export interface GoogleService {
  oauthUrl: string;
  dataApiUrl: string;
  adminApiUrl: string;
}

/**
 * Everything secret a workspace holds, stored as one encrypted document. Each connection room adds its
 * own part by declaration merging (`src/connections/<service>/secrets.ts`), so a new service changes no
 * type here.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the connection rooms' declaration merging.
export interface WorkspaceSecrets {}

/** A previous document that could not be opened, and where it was kept. */
export type LostDocument = Unopenable & { keptAt: string };

export interface StartedOver {
  secrets: WorkspaceSecrets;
  /** Set when the previous document could not be opened: it was kept aside and `change` saw an empty one. */
  lost?: LostDocument | undefined;
}

/**
 * Errors are typed: a document that cannot be opened is a StoreUnreadableError (damaged, or
 * written with another key), a file or lock problem a ConfigurationError or NetworkError.
 */
export interface CredentialStore {
  read(workspace: string): Promise<WorkspaceSecrets>;
  /** Read-modify-write under a per-workspace lock held across processes and replicas; the write is atomic. */
  update(
    workspace: string,
    change: (current: WorkspaceSecrets) => WorkspaceSecrets,
  ): Promise<WorkspaceSecrets>;
  /**
   * `update`, except that a document that cannot be opened (damaged, or written with another key)
   * does not stop it: that document is kept aside and `change` applies to an empty one. For the
   * commands that must work without decrypting: remove, and configure --force. Optional for stores
   * written elsewhere; every store of this package has it.
   */
  updateOrStartOver?(
    workspace: string,
    change: (current: WorkspaceSecrets) => WorkspaceSecrets,
  ): Promise<StartedOver>;
  /** Validates settings before a process starts serving (the key, the folder); creates nothing. */
  check?(): Promise<void>;
  /** Releases connections (the Redis store); the file store holds none. */
  close?(): Promise<void>;
}

/** The workspace a command or a stdio server uses when none is named. */
export const DEFAULT_WORKSPACE = "default";

const WORKSPACE_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;

export function checkWorkspaceName(workspace: string): string {
  if (!WORKSPACE_NAME.test(workspace)) {
    throw new ValidationError(
      "workspace",
      `"${workspace.slice(0, 64)}" is not a workspace name. Accepted: lowercase letters, digits, - and _, up to 63 characters.`,
    );
  }
  return workspace;
}

/** The name `martech-steps sandbox` gives its temporary credential folder (removed when it stops). */
export const SANDBOX_HOME_PREFIX = "martech-steps-sandbox-";

/** How to undo a stopped sandbox's exports in the shell that evaluated them. */
export const UNSET_SANDBOX = 'eval "$(martech-steps sandbox --unset)"';

/** Whether a process of this machine is running (one of another user counts: it exists). */
export function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Refuses a shell whose sandbox exports outlived the sandbox (`kill "$MARTECH_STEPS_SANDBOX_PID"`
 * without undoing the exports): its variables point at the sandbox's removed folder and closed ports,
 * so a command would show the dead sandbox, or save real credentials into a re-created temporary folder.
 */
export function checkNoStoppedSandbox(env: NodeJS.ProcessEnv): void {
  const pid = Number(env.MARTECH_STEPS_SANDBOX_PID);
  if (!Number.isInteger(pid) || pid <= 0 || processRunning(pid)) return;
  throw new ConfigurationError(
    `This shell still has the exports of a sandbox that has stopped (MARTECH_STEPS_SANDBOX_PID ${pid} is not running): they point at its removed credential folder and closed ports.`,
    { hint: `Go back to your own configuration with: ${UNSET_SANDBOX} (or start a new sandbox).` },
  );
}

/** `MARTECH_STEPS_HOME`, else `$XDG_CONFIG_HOME/martech-steps`, else `~/.config/martech-steps`. */
export function defaultHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MARTECH_STEPS_HOME) return env.MARTECH_STEPS_HOME;
  const config = env.XDG_CONFIG_HOME || join(homedir(), ".config");
  return join(config, "martech-steps");
}

/** Runs tasks one at a time per key (per workspace), in call order; a failure does not block the next. */
export class KeyedLock {
  readonly #tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const next = (this.#tails.get(key) ?? Promise.resolve()).catch(() => undefined).then(task);
    this.#tails.set(key, next);
    next
      .finally(() => {
        if (this.#tails.get(key) === next) this.#tails.delete(key);
      })
      .catch(() => undefined);
    return next;
  }
}

export function emptySecrets(): WorkspaceSecrets {
  return { googleAccounts: {} };
}

/** A store that lives only in this process: the sandbox wiring of `npm start`, and tests. */
export class MemoryCredentialStore implements CredentialStore {
  readonly #workspaces = new Map<string, string>();

  async read(workspace: string): Promise<WorkspaceSecrets> {
    const text = this.#workspaces.get(checkWorkspaceName(workspace));
    return text ? (JSON.parse(text) as WorkspaceSecrets) : emptySecrets();
  }

  async update(
    workspace: string,
    change: (current: WorkspaceSecrets) => WorkspaceSecrets,
  ): Promise<WorkspaceSecrets> {
    const updated = change(await this.read(workspace));
    this.#workspaces.set(workspace, JSON.stringify(updated));
    return updated;
  }

  async updateOrStartOver(
    workspace: string,
    change: (current: WorkspaceSecrets) => WorkspaceSecrets,
  ): Promise<StartedOver> {
    return { secrets: await this.update(workspace, change) };
  }
}
