import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { ConfigurationError, ValidationError } from "../errors.js";

/** Marketo connection of a workspace (the three fields of the spec's configuration form). */
export interface MarketoCredentials {
  clientId: string;
  clientSecret: string;
  restEndpoint: string;
}

/** The Google OAuth client (Desktop app) used to connect accounts. */
export interface GoogleOAuthClient {
  clientId: string;
  clientSecret: string;
}

/** One connected Google account. `refreshToken` is the secret; the rest is safe to show. */
export interface GoogleAccountRecord {
  label: string;
  email?: string | undefined;
  scopes: string[];
  addedAt: string;
  refreshToken: string;
  /**
   * The OAuth client that issued the token, when it is not the workspace's (gcloud authorized_user
   * files): a refresh token only works with the client that obtained it.
   */
  client?: GoogleOAuthClient | undefined;
}

/** Everything secret a workspace holds, stored as one encrypted document. */
export interface WorkspaceSecrets {
  marketo?: MarketoCredentials | undefined;
  googleClient?: GoogleOAuthClient | undefined;
  googleAccounts: Record<string, GoogleAccountRecord>;
}

export interface CredentialStore {
  read(workspace: string): Promise<WorkspaceSecrets>;
  /** Releases connections (the Redis store); the file store holds none. */
  close?(): Promise<void>;
  /** Read-modify-write under a per-workspace lock; the write is atomic. */
  update(
    workspace: string,
    change: (current: WorkspaceSecrets) => WorkspaceSecrets,
  ): Promise<WorkspaceSecrets>;
}

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

/** `MARTECH_STEPS_HOME`, else `$XDG_CONFIG_HOME/martech-steps`, else `~/.config/martech-steps`. */
export function defaultHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MARTECH_STEPS_HOME) return env.MARTECH_STEPS_HOME;
  const config = env.XDG_CONFIG_HOME || join(homedir(), ".config");
  return join(config, "martech-steps");
}

const ALGORITHM = "aes-256-gcm";
const FORMAT = "martech-steps/v1";

interface SealedFile {
  format: string;
  iv: string;
  tag: string;
  data: string;
}

/** AES-256-GCM with a random 96-bit IV per write; the auth tag detects tampering and wrong keys. */
function seal(key: Buffer, plaintext: string, aad: string): SealedFile {
  const iv = randomBytes(12);
  const cipher = createCipheriv(ALGORITHM, key, iv);
  cipher.setAAD(Buffer.from(aad));
  const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return {
    format: FORMAT,
    iv: iv.toString("base64"),
    tag: cipher.getAuthTag().toString("base64"),
    data: data.toString("base64"),
  };
}

function unseal(key: Buffer, sealed: SealedFile, aad: string): string {
  const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(sealed.iv, "base64"));
  decipher.setAAD(Buffer.from(aad));
  decipher.setAuthTag(Buffer.from(sealed.tag, "base64"));
  return Buffer.concat([decipher.update(Buffer.from(sealed.data, "base64")), decipher.final()]).toString(
    "utf8",
  );
}

/** Parses MARTECH_STEPS_KEY: 32 bytes as 64 hex characters or base64. */
export function parseKey(raw: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, "hex") : Buffer.from(raw, "base64");
  if (key.length !== 32) {
    throw new ConfigurationError("MARTECH_STEPS_KEY is not a 32-byte key.", {
      hint: "Set it to 64 hex characters or 44 base64 characters (for example: openssl rand -base64 32).",
    });
  }
  return key;
}

/**
 * The key comes from `MARTECH_STEPS_KEY` (32 bytes as base64 or 64 hex characters) or from a key
 * file generated on first use with mode 0600 beside the store.
 */
export async function loadKey(home: string, env: NodeJS.ProcessEnv = process.env): Promise<Buffer> {
  const fromEnv = env.MARTECH_STEPS_KEY;
  if (fromEnv) return parseKey(fromEnv);
  const path = join(home, "key");
  try {
    return Buffer.from((await readFile(path, "utf8")).trim(), "base64");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  await mkdir(home, { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  // "wx" fails if another process created the file meanwhile; then we read theirs.
  try {
    await writeFile(path, key.toString("base64"), { mode: 0o600, flag: "wx" });
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return Buffer.from((await readFile(path, "utf8")).trim(), "base64");
  }
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

/**
 * A workspace's secrets as stored: one sealed JSON document. The workspace name is authenticated
 * data, so one workspace's document cannot be passed off as another's.
 */
export function sealSecrets(key: Buffer, secrets: WorkspaceSecrets, workspace: string): string {
  return JSON.stringify(seal(key, JSON.stringify(secrets), `${FORMAT}:${workspace}`));
}

export function openSecrets(key: Buffer, stored: string, workspace: string): WorkspaceSecrets {
  try {
    const plain = unseal(key, JSON.parse(stored) as SealedFile, `${FORMAT}:${workspace}`);
    return { ...emptySecrets(), ...(JSON.parse(plain) as WorkspaceSecrets) };
  } catch (cause) {
    throw new ConfigurationError(`The credential store of workspace "${workspace}" cannot be decrypted.`, {
      hint:
        "It was written with another key: restore MARTECH_STEPS_KEY or the key file, or remove the workspace's " +
        "entry and configure again.",
      cause,
    });
  }
}

/** The default store: one encrypted file per workspace under the home folder, mode 0600. */
export class FileCredentialStore implements CredentialStore {
  readonly home: string;
  readonly #key: Promise<Buffer>;
  readonly #lock = new KeyedLock();

  constructor(options: { home?: string; key?: Buffer; env?: NodeJS.ProcessEnv } = {}) {
    this.home = options.home ?? defaultHome(options.env);
    this.#key = options.key ? Promise.resolve(options.key) : loadKey(this.home, options.env);
  }

  #path(workspace: string): string {
    return join(this.home, "workspaces", `${checkWorkspaceName(workspace)}.json`);
  }

  async read(workspace: string): Promise<WorkspaceSecrets> {
    const path = this.#path(workspace);
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return emptySecrets();
      throw error;
    }
    return openSecrets(await this.#key, text, workspace);
  }

  update(
    workspace: string,
    change: (current: WorkspaceSecrets) => WorkspaceSecrets,
  ): Promise<WorkspaceSecrets> {
    return this.#lock.run(workspace, async () => {
      const updated = change(await this.read(workspace));
      await this.#write(workspace, updated);
      return updated;
    });
  }

  async #write(workspace: string, secrets: WorkspaceSecrets): Promise<void> {
    const path = this.#path(workspace);
    await mkdir(join(this.home, "workspaces"), { recursive: true, mode: 0o700 });
    const sealed = sealSecrets(await this.#key, secrets, workspace);
    // Write then rename: a crash never leaves a half-written store.
    const temp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    try {
      await writeFile(temp, sealed, { mode: 0o600 });
      await chmod(temp, 0o600);
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }
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
}
