import { randomBytes } from "node:crypto";
import { statSync } from "node:fs";
import { link, mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ConfigurationError } from "../errors.js";

/** The store key and where it came from (named in errors, never the key itself). */
export interface StoreKey {
  key: Buffer;
  /** "MARTECH_STEPS_KEY" or "the key file <path>". */
  source: string;
  /** A key file's identity when it was read (inode, size, mtime), to notice a change. */
  version?: string;
}

const HEX_KEY = /^[0-9a-f]{64}$/i;
const BASE64_KEY = /^[A-Za-z0-9+/]{43}=?$/;
const BASE64URL_KEY = /^[A-Za-z0-9_-]{43}$/;

/** 32 bytes as 64 hex characters or base64 (with or without padding, or base64url); else undefined. */
function decodeKey(raw: string): Buffer | undefined {
  const text = raw.trim();
  if (HEX_KEY.test(text)) return Buffer.from(text, "hex");
  if (BASE64_KEY.test(text)) return Buffer.from(text, "base64");
  if (BASE64URL_KEY.test(text)) return Buffer.from(text, "base64url");
  return undefined;
}

const ACCEPTED = "64 hex characters or 44 base64 characters (for example: openssl rand -base64 32)";

/** Parses MARTECH_STEPS_KEY. The value is never quoted in the error: it is a secret. */
export function parseKey(raw: string): Buffer {
  const key = decodeKey(raw);
  if (!key) {
    throw new ConfigurationError(
      `MARTECH_STEPS_KEY is not a 32-byte key (it has ${raw.trim().length} characters).`,
      { hint: `Set it to ${ACCEPTED}, or unset it to use the key file of the credential folder.` },
    );
  }
  return key;
}

/** The key from MARTECH_STEPS_KEY, or undefined when it is unset. */
export function keyFromEnv(env: NodeJS.ProcessEnv): StoreKey | undefined {
  const raw = env.MARTECH_STEPS_KEY;
  return raw ? { key: parseKey(raw), source: "MARTECH_STEPS_KEY" } : undefined;
}

/** Owner-only checks make no sense where the mode bits are not POSIX permissions. */
const POSIX = process.platform !== "win32";

const octal = (mode: number) => `0${(mode & 0o777).toString(8).padStart(3, "0")}`;

/** Turns an fs failure on a store path into a typed error naming the path and the errno code only. */
export function storeFileError(action: string, path: string, cause: unknown): ConfigurationError {
  const code = (cause as NodeJS.ErrnoException).code ?? "unknown error";
  return new ConfigurationError(`The credential store cannot ${action} ${path} (${code}).`, {
    hint: "Check that the credential folder (MARTECH_STEPS_HOME) belongs to you and that the disk is writable.",
    cause,
  });
}

/**
 * Reads the key file, as ssh reads a private key: refused when other users may read or change it.
 * Undefined when it does not exist.
 */
export async function readKeyFile(path: string, known?: StoreKey): Promise<StoreKey | undefined> {
  let text: string;
  let version: string;
  try {
    // Re-checking a key already read is synchronous (microseconds, where an asynchronous stat costs a
    // thread-pool round trip at every store read). A first read stays asynchronous: it yields to the
    // event loop, so a caller polling for a key file another task is creating cannot starve that task.
    const info = known ? statSync(path) : await stat(path);
    if (POSIX && (info.mode & 0o077) !== 0) {
      throw new ConfigurationError(
        `Permissions ${octal(info.mode)} for the key file ${path} are too open: other users could read the store key.`,
        { hint: `Run: chmod 600 ${path}` },
      );
    }
    // Checked at every use, as ssh checks a private key, but read again only when the file changed.
    version = `${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`;
    if (known?.version === version) return known;
    text = await readFile(path, "utf8");
  } catch (error) {
    if (error instanceof ConfigurationError) throw error;
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw storeFileError("read the key file", path, error);
  }
  const key = decodeKey(text);
  if (!key) {
    throw new ConfigurationError(`The key file ${path} does not hold a 32-byte key.`, {
      hint: `Restore it from your backup (it holds ${ACCEPTED}), or set MARTECH_STEPS_KEY to the key the store was written with.`,
    });
  }
  return { key, source: `the key file ${path}`, version };
}

/**
 * Reads the key file, or creates it (mode 0600, in a 0700 folder) on first use. The key is written
 * to a temporary file and hard-linked into place, so another process never reads a key file that
 * exists but is still empty, and two processes creating it at once end up with the same key.
 */
export async function loadOrCreateKeyFile(home: string): Promise<StoreKey> {
  const path = join(home, "key");
  const existing = await readKeyFile(path);
  if (existing) return existing;
  const key = randomBytes(32);
  const temp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await mkdir(home, { recursive: true, mode: 0o700 });
    await writeFile(temp, key.toString("base64"), { mode: 0o600, flag: "wx" });
    await link(temp, path);
    return { key, source: `the key file ${path}` };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw storeFileError("create", path, error);
  } finally {
    await rm(temp, { force: true });
  }
  // Another process created it meanwhile: use theirs.
  const created = await readKeyFile(path);
  if (!created)
    throw storeFileError("read the key file", path, Object.assign(new Error(), { code: "ENOENT" }));
  return created;
}

const warned = new Set<string>();

/**
 * Warns once per process about a credential folder other users can enter or change, as ssh does
 * for ~/.ssh: the files inside are 0600, but a writable folder lets others replace them.
 */
export async function warnIfOpen(folder: string, warn: (message: string) => void): Promise<void> {
  if (!POSIX || warned.has(folder)) return;
  let mode: number;
  try {
    mode = (await stat(folder)).mode;
  } catch {
    return;
  }
  if ((mode & 0o077) === 0) return;
  warned.add(folder);
  warn(
    `the credential folder ${folder} is open to other users (permissions ${octal(mode)}); run: chmod 700 ${folder}`,
  );
}
