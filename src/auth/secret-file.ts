/**
 * Reading a file that holds a secret: the store's key file, a Google credentials file
 * (GOOGLE_APPLICATION_CREDENTIALS, `accounts import --key-file` / `--refresh-token-file`). Such a path
 * comes from configuration, and the file behind it may be anything: a named pipe (FIFO) blocks an open()
 * for reading until a writer comes, `/dev/zero` never ends, a hung network mount blocks every system call
 * on it. Read naively, one blocked every tool call that needed it and a growing one filled the memory
 * (3 GB in 30 s: every tool list read it again). So:
 *
 * - only a regular file is read: the type is checked on the descriptor (fstat) after an open with
 *   O_NONBLOCK, which does not wait for a FIFO's writer (open(2): "O_NONBLOCK ... the open() for
 *   reading-only returns without delay"), so what is read is what was checked;
 * - at most SECRET_FILE_MAX_BYTES;
 * - within a deadline (SECRET_FILE_DEADLINE_MS): a system call stuck on a hung mount cannot be cancelled,
 *   but the caller gets an error in time, and later callers wait for the stuck read to end instead of
 *   starting another (each would hold one of libuv's four file-system threads); so does the stat before it;
 * - permissions as ssh checks a private key: a file other users may read, or that another user owns, is
 *   refused (the store's key file always was; a Google key is as secret);
 * - `cachedSecretFile` reads a file once and again only when its identity (inode, size, mtime, ctime)
 *   changes, checked by one stat.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";
import { type FileHandle, open, stat } from "node:fs/promises";
import { ConfigurationError } from "../errors.js";

/**
 * The largest secret file read: 64 KiB. A service account's JSON key is about 2.3 KB (a 2048-bit RSA key
 * in PEM and a few fields), gcloud's authorized_user file a few hundred bytes, the store key 44 bytes;
 * 64 KiB leaves room for a 16384-bit key or added fields and still bounds what one read can hold.
 */
export const SECRET_FILE_MAX_BYTES = 64 * 1024;
/** How long reading a secret file may take: a local disk answers in milliseconds. */
export const SECRET_FILE_DEADLINE_MS = 2_000;

/** Owner-only checks make no sense where the mode bits are not POSIX permissions. */
const POSIX = process.platform !== "win32";

export interface SecretFileRules {
  /** The file in messages: "the key file", "the credentials file". */
  what: string;
  /** What other users could read, in the permissions refusal: "the store key". */
  holds: string;
  maxBytes?: number;
  deadlineMs?: number;
}

/** A secret file refused for what it is (its type, size or permissions), or not read in time. */
export class SecretFileError extends ConfigurationError {}

/** "<What> <path> <reason>.", the file named as the rules name it. */
function refusal(path: string, reason: string, rules: SecretFileRules, hint: string): SecretFileError {
  const what = rules.what.charAt(0).toUpperCase() + rules.what.slice(1);
  return new SecretFileError(`${what} ${path} ${reason}.`, { hint });
}

const octal = (mode: number) => `0${(mode & 0o777).toString(8).padStart(3, "0")}`;

/** What a file that is not a regular one is, in words a person knows. */
function kindOf(info: Stats): string {
  if (info.isFIFO()) return "a named pipe (FIFO)";
  if (info.isCharacterDevice()) return "a character device";
  if (info.isBlockDevice()) return "a block device";
  if (info.isDirectory()) return "a folder";
  if (info.isSocket()) return "a socket";
  return "not a file";
}

/**
 * Refuses what `info` (a stat of the path, or fstat of its descriptor) says must not be read: anything
 * but a regular file, a file over the size limit, one other users may read, one another user owns.
 */
export function checkSecretStat(path: string, info: Stats, rules: SecretFileRules): void {
  if (!info.isFile())
    throw refusal(
      path,
      `is ${kindOf(info)}, not a regular file`,
      rules,
      "Save it as a regular file (chmod 600) and give that file's path.",
    );
  const max = rules.maxBytes ?? SECRET_FILE_MAX_BYTES;
  if (info.size > max)
    throw refusal(
      path,
      `is ${info.size} bytes, more than the ${max} bytes such a file can hold`,
      rules,
      "Check that the path names the right file.",
    );
  // The store's wording since it first refused an open key file (docs/security.md, "Checked at start-up").
  if (POSIX && (info.mode & 0o077) !== 0)
    throw new SecretFileError(
      `Permissions ${octal(info.mode)} for ${rules.what} ${path} are too open: other users could read ${rules.holds}.`,
      { hint: `Run: chmod 600 ${path}` },
    );
  // As ssh does for its own files: a file another user owns could be replaced by them.
  const uid = process.getuid?.();
  if (POSIX && uid !== undefined && info.uid !== uid && info.uid !== 0)
    throw refusal(
      path,
      `belongs to another user (uid ${info.uid}), who could replace ${rules.holds}`,
      rules,
      `If it is yours, run: chown ${uid} ${path}`,
    );
}

/** A file's identity: when it changes, the file was replaced or written. */
export function fileVersion(info: Stats): string {
  return `${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`;
}

export interface SecretText {
  text: string;
  /** The file's identity when it was read (fileVersion). */
  version: string;
  /** When the file was last written. */
  modified: Date;
}

/** O_NONBLOCK: opening a FIFO does not wait for a writer; O_NOCTTY: a terminal device is never adopted. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** Reads the file: regular (checked on the open descriptor), owner-only, at most maxBytes, in one go. */
async function readChecked(path: string, rules: SecretFileRules): Promise<SecretText> {
  const handle: FileHandle = await open(path, OPEN_FLAGS);
  try {
    const info = await handle.stat();
    checkSecretStat(path, info, rules);
    const max = rules.maxBytes ?? SECRET_FILE_MAX_BYTES;
    // To the end, and one byte more than allowed: a file that grew since fstat is read whole or refused,
    // never read on and on.
    const buffer = Buffer.alloc(max + 1);
    let length = 0;
    let bytesRead = -1;
    while (bytesRead !== 0 && length < buffer.length) {
      ({ bytesRead } = await handle.read(buffer, length, buffer.length - length, length));
      length += bytesRead;
    }
    if (length > max)
      throw refusal(
        path,
        `grew past ${max} bytes as it was read`,
        rules,
        "Check that the path names the right file.",
      );
    return {
      text: buffer.subarray(0, length).toString("utf8"),
      version: fileVersion(info),
      modified: info.mtime,
    };
  } finally {
    await handle.close();
  }
}

/**
 * One call under way per path (a stat, or a read), and the callers that come while it runs share the one
 * after it. A caller never takes the answer of a call begun before it asked: that one may predate the
 * file (a stat begun before another process created the key file said ENOENT to a caller that had just
 * seen it created, and the store then called the file missing). And a call stuck on a hung mount holds one
 * thread of libuv's four-thread file-system pool, not one per caller: the callers after it wait on the
 * next call, which starts only once the stuck one returns, and each gives up at its own deadline.
 */
interface Flight<T> {
  /** Settles when the call under way does, however it ends. */
  settled: Promise<void>;
  /** The call after it, shared by every caller that came meanwhile. */
  next?: Promise<T>;
}

const reading = new Map<string, Flight<SecretText>>();
const statting = new Map<string, Flight<Stats>>();

/** A call of `start` for `path` begun after this caller asked, shared as Flight says. */
function fresh<T>(flights: Map<string, Flight<T>>, path: string, start: () => Promise<T>): Promise<T> {
  const flight = flights.get(path);
  if (!flight) return launch(flights, path, start);
  flight.next ??= flight.settled.then(() => launch(flights, path, start));
  return flight.next;
}

function launch<T>(flights: Map<string, Flight<T>>, path: string, start: () => Promise<T>): Promise<T> {
  const work = start();
  const flight: Flight<T> = {
    settled: work.then(
      () => undefined,
      () => undefined,
    ),
  };
  flights.set(path, flight);
  // Registered before any `next` is chained: when nobody waits for another call, the path is forgotten;
  // else the next call's launch replaces this entry.
  void flight.settled.then(() => {
    if (flight.next === undefined && flights.get(path) === flight) flights.delete(path);
  });
  return work;
}

/** Settles with `work`, or rejects with `late()` after `ms`; the timer holds nothing open. */
function within<T>(work: Promise<T>, ms: number, late: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(late()), ms);
    timer.unref();
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

function tooSlow(path: string, rules: SecretFileRules, ms: number): SecretFileError {
  return refusal(
    path,
    `did not answer within ${ms} ms (a network mount that hangs?)`,
    rules,
    "Check the disk or mount that holds it, or copy the file to a local disk and give that path.",
  );
}

/**
 * Reads a secret file as the module comment says. Errors of the file system (ENOENT, EACCES, ...) are
 * thrown as they are, for the caller to word; a refusal is a SecretFileError.
 */
export function readSecretFile(path: string, rules: SecretFileRules): Promise<SecretText> {
  const ms = rules.deadlineMs ?? SECRET_FILE_DEADLINE_MS;
  return within(
    fresh(reading, path, () => readChecked(path, rules)),
    ms,
    () => tooSlow(path, rules, ms),
  );
}

/** stat(2) of a secret file's path, within the deadline, shared as readSecretFile's reads are (Flight). */
export function statSecretFile(path: string, rules: SecretFileRules): Promise<Stats> {
  const ms = rules.deadlineMs ?? SECRET_FILE_DEADLINE_MS;
  return within(
    fresh(statting, path, () => stat(path)),
    ms,
    () => tooSlow(path, rules, ms),
  );
}

/** The last text read per path, with the identity it had. */
const cache = new Map<string, SecretText>();
/** Paths come from configuration (a few); the bound only keeps a long-lived process's memory in check. */
const CACHE_ENTRIES = 32;

/**
 * readSecretFile, once: the text is kept and read again only when the file's identity changes. Each use
 * costs one stat (within the deadline), which also checks the type, size and permissions again, as ssh
 * checks a private key at every use.
 */
export async function cachedSecretFile(path: string, rules: SecretFileRules): Promise<SecretText> {
  const info = await statSecretFile(path, rules);
  checkSecretStat(path, info, rules);
  const kept = cache.get(path);
  if (kept?.version === fileVersion(info)) return kept;
  const read = await readSecretFile(path, rules);
  cache.delete(path);
  cache.set(path, read);
  if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
  return read;
}

/**
 * readSecretFile for a synchronous caller (the cursor key, found when a cursor is checked): the same
 * checks on the descriptor, no deadline (a synchronous call cannot have one), undefined when the file is
 * missing or refused (the store's own asynchronous read reports why).
 */
export function readSecretFileSync(path: string, rules: SecretFileRules): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch {
    return undefined;
  }
  try {
    checkSecretStat(path, fstatSync(fd), rules);
    const max = rules.maxBytes ?? SECRET_FILE_MAX_BYTES;
    const buffer = Buffer.alloc(max + 1);
    let length = 0;
    let bytesRead = -1;
    while (bytesRead !== 0 && length < buffer.length) {
      bytesRead = readSync(fd, buffer, length, buffer.length - length, length);
      length += bytesRead;
    }
    return length > max ? undefined : buffer.subarray(0, length).toString("utf8");
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
