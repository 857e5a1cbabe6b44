import { homedir } from "node:os";
import { join } from "node:path";
import { ConfigurationError, ValidationError } from "../errors.js";
import type { WorkspaceSecrets } from "./secrets-document.js";
import { SECRETS_PARTS } from "./secrets-parts.js";
import type { Unopenable } from "./unopenable.js";

/*
 * What every credential store shares: the stored document's types, the store interface, workspace
 * names, the in-process lock, and the in-memory store. The file store is in credential-store.ts.
 */

export type { WorkspaceSecrets } from "./secrets-document.js";

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

/** A new workspace's document: each room's stored part at its default (SECRETS_PARTS, secrets-parts.ts). */
export function emptySecrets(): WorkspaceSecrets {
  return Object.assign({}, ...SECRETS_PARTS.map((part) => part.empty())) as WorkspaceSecrets;
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
