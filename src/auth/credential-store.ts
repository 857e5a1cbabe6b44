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
  /** The OAuth client that issued the token, when it is not the workspace's (gcloud authorized_user files). */
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
export function seal(key: Buffer, plaintext: string, aad: string): SealedFile {
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

export function unseal(key: Buffer, sealed: SealedFile, aad: string): string {
  const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(sealed.iv, "base64"));
  decipher.setAAD(Buffer.from(aad));
  decipher.setAuthTag(Buffer.from(sealed.tag, "base64"));
  return Buffer.concat([decipher.update(Buffer.from(sealed.data, "base64")), decipher.final()]).toString(
    "utf8",
  );
}

/**
 * The key comes from `MARTECH_STEPS_KEY` (32 bytes as base64 or 64 hex characters) or from a key
 * file generated on first use with mode 0600 beside the store.
 */
export async function loadKey(home: string, env: NodeJS.ProcessEnv = process.env): Promise<Buffer> {
  const fromEnv = env.MARTECH_STEPS_KEY;
  if (fromEnv) {
    const key = /^[0-9a-f]{64}$/i.test(fromEnv)
      ? Buffer.from(fromEnv, "hex")
      : Buffer.from(fromEnv, "base64");
    if (key.length !== 32) {
      throw new ConfigurationError("MARTECH_STEPS_KEY is not a 32-byte key.", {
        hint: "Set it to 64 hex characters or 44 base64 characters (for example: openssl rand -base64 32).",
      });
    }
    return key;
  }
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

function emptySecrets(): WorkspaceSecrets {
  return { googleAccounts: {} };
}

/** The default store: one encrypted file per workspace under the home folder, mode 0600. */
export class FileCredentialStore implements CredentialStore {
  readonly home: string;
  readonly #key: Promise<Buffer>;
  readonly #locks = new Map<string, Promise<unknown>>();

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
    try {
      const plain = unseal(await this.#key, JSON.parse(text) as SealedFile, `${FORMAT}:${workspace}`);
      return { ...emptySecrets(), ...(JSON.parse(plain) as WorkspaceSecrets) };
    } catch (cause) {
      throw new ConfigurationError(`The credential store of workspace "${workspace}" cannot be decrypted.`, {
        hint: "It was written with another key: restore MARTECH_STEPS_KEY or the key file, or remove the workspace file and configure again.",
        cause,
      });
    }
  }

  update(
    workspace: string,
    change: (current: WorkspaceSecrets) => WorkspaceSecrets,
  ): Promise<WorkspaceSecrets> {
    const previous = this.#locks.get(workspace) ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(async () => {
        const updated = change(await this.read(workspace));
        await this.#write(workspace, updated);
        return updated;
      });
    this.#locks.set(workspace, next);
    return next;
  }

  async #write(workspace: string, secrets: WorkspaceSecrets): Promise<void> {
    const path = this.#path(workspace);
    await mkdir(join(this.home, "workspaces"), { recursive: true, mode: 0o700 });
    const sealed = seal(await this.#key, JSON.stringify(secrets), `${FORMAT}:${workspace}`);
    // Write then rename: a crash never leaves a half-written store.
    const temp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    try {
      await writeFile(temp, JSON.stringify(sealed), { mode: 0o600 });
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
