import { statSync } from "node:fs";
import { lstat, readlink, stat } from "node:fs/promises";
import { ConfigurationError } from "../errors.js";
import {
  checkSecretStat,
  fileVersion,
  readSecretFile,
  readSecretFileSync,
  type SecretFileRules,
  statSecretFile,
} from "./secret-file.js";

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

/**
 * The key a key file holds, read synchronously (undefined when there is none, or none that decodes).
 * For signing cursors only, which are made and checked synchronously; the store's own reads go through
 * readKeyFile and its permission checks, and report a refused file.
 */
export function keyFileKeySync(path: string): Buffer | undefined {
  const text = readSecretFileSync(path, KEY_FILE);
  return text === undefined ? undefined : decodeKey(text);
}

/** The key file is read as every secret file is (secret-file.ts): regular, owner-only, bounded, in time. */
const KEY_FILE: SecretFileRules = { what: "the key file", holds: "the store key" };

const ACCEPTED = "64 hex characters or 44 base64 characters (for example: openssl rand -base64 32)";

/**
 * What a refused key holds, in the unit that matters: a 33-byte key in base64 is 44 characters, the
 * very count the accepted forms name, so its length in characters told nothing. Never the value.
 */
function describeKey(text: string): string {
  if (/^(?:[0-9a-f]{2})+$/i.test(text)) return `it is ${text.length / 2} bytes in hex`;
  // A hex key with a character lost in the copy: read as base64 it "decodes" to a size that told nothing.
  if (/^[0-9a-f]+$/i.test(text))
    return `its ${text.length} hex characters are an odd count (64 make the key)`;
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(text) || /^[A-Za-z0-9_-]+$/.test(text)) {
    return `it decodes to ${Buffer.from(text, "base64").length} bytes as base64`;
  }
  return `its ${text.length} characters are neither hex nor base64`;
}

/** Parses MARTECH_STEPS_KEY. The value is never quoted in the error: it is a secret. */
export function parseKey(raw: string): Buffer {
  const key = decodeKey(raw);
  if (!key) {
    throw new ConfigurationError(`MARTECH_STEPS_KEY is not a 32-byte key (${describeKey(raw.trim())}).`, {
      hint: `Set it to ${ACCEPTED}, or unset it to use the key file of the credential folder.`,
    });
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
 * Undefined when there is no key file. A key file that is a symbolic link to nothing (a volume not
 * mounted yet) is not "missing": taking it so would make every document look written with another
 * key, and starting over would then move them aside for nothing.
 */
async function missingOrDangling(path: string): Promise<undefined> {
  let target: string;
  try {
    if (!(await lstat(path)).isSymbolicLink()) return undefined;
    target = await readlink(path);
  } catch {
    return undefined;
  }
  throw new ConfigurationError(
    `The key file ${path} is a symbolic link to ${target}, which does not exist (a volume not mounted?).`,
    { hint: `Mount or restore ${target}, or point the link at the key file the store was written with.` },
  );
}

/** A key file shorter than this cannot hold a key (43 = 32 bytes in base64 without padding). */
const SHORTEST_KEY = 43;
/** How often, and how long apart, a key file still being written is read again (about 0.25 s in all). */
const READ_ATTEMPTS = 12;
const READ_WAIT_MS = 20;

/** One look at the key file: its text and identity, the stored key if unchanged, or undefined. */
async function readOnce(
  path: string,
  known: StoreKey | undefined,
): Promise<StoreKey | { text: string; version: string } | undefined> {
  try {
    // Re-checking a key already read is synchronous (microseconds, where an asynchronous stat costs a
    // thread-pool round trip at every store read). A first read stays asynchronous: it yields to the
    // event loop, so a caller polling for a key file another task is creating cannot starve that task.
    const info = known ? statSync(path) : await statSecretFile(path, KEY_FILE);
    // Checked at every use, as ssh checks a private key (a FIFO or a device is refused here, before any
    // open), but read again only when the file changed.
    checkSecretStat(path, info, KEY_FILE);
    if (known?.version === fileVersion(info)) return known;
    return await readSecretFile(path, KEY_FILE);
  } catch (error) {
    if (error instanceof ConfigurationError) throw error;
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return missingOrDangling(path);
    throw storeFileError("read the key file", path, error);
  }
}

/**
 * Reads the key file, as ssh reads a private key: refused when other users may read or change it.
 * Undefined when it does not exist.
 */
export async function readKeyFile(path: string, known?: StoreKey): Promise<StoreKey | undefined> {
  for (let attempt = 1; ; attempt++) {
    const read = await readOnce(path, known);
    if (read === undefined || "key" in read) return read;
    const key = decodeKey(read.text);
    if (key) return { key, source: `the key file ${path}`, version: read.version };
    // Where the key file is made by an exclusive create (no hard links, below), it exists, empty or
    // short, for the moment its creator takes to write it: a short one is read again, briefly.
    if (read.text.trim().length >= SHORTEST_KEY || attempt >= READ_ATTEMPTS) {
      throw new ConfigurationError(`The key file ${path} does not hold a 32-byte key.`, {
        hint: `Restore it from your backup (it holds ${ACCEPTED}), or set MARTECH_STEPS_KEY to the key the store was written with.`,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, READ_WAIT_MS));
  }
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
