import { randomBytes } from "node:crypto";
import { type FileHandle, link, mkdir, open, readdir, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { processRunning } from "./store-core.js";
import { readKeyFile, type StoreKey, storeFileError } from "./store-key.js";

/*
 * Making the store's key file: created once, atomically, by whichever process writes first, and
 * the leftovers of a creator that was killed removed.
 */

/** link(2) refused because the filesystem has no hard links (exFAT, FAT, some SMB and FUSE mounts). */
const NO_HARD_LINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "EXDEV", "ENOSYS"]);

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
  try {
    await mkdir(home, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw storeFileError("create", path, error);
  }
  await removeLeftoverTemps(home);
  if (await createKeyFile(path, key.toString("base64"))) return { key, source: `the key file ${path}` };
  // Another process created it meanwhile: use theirs.
  const created = await readKeyFile(path);
  if (!created)
    throw storeFileError("read the key file", path, Object.assign(new Error(), { code: "ENOENT" }));
  return created;
}

/** Creates the key file holding `text`; false when it exists already (another process made it). */
async function createKeyFile(path: string, text: string): Promise<boolean> {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await writeFile(temp, text, { mode: 0o600, flag: "wx" });
    await link(temp, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    if (code === "EEXIST") return false;
    if (NO_HARD_LINKS.has(code)) return createExclusively(path, text);
    throw storeFileError("create", path, error);
  } finally {
    await rm(temp, { force: true });
  }
}

/**
 * Without hard links, the key file is created with O_EXCL (of two creators one wins, and the other
 * reads the winner's key, as with link) and written in full and fsynced at once. It then exists for
 * a moment empty or short: readKeyFile waits for such a file briefly instead of calling it damaged.
 * A creator that fails removes the file it made; one killed mid-write leaves a short file, which is
 * reported as holding no key (nothing was ever sealed with it).
 */
async function createExclusively(path: string, text: string): Promise<boolean> {
  let handle: FileHandle;
  try {
    handle = await open(path, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw storeFileError("create", path, error);
  }
  try {
    await handle.writeFile(text);
    await handle.sync();
    await handle.close();
    return true;
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(path, { force: true });
    throw storeFileError("create", path, error);
  }
}

/** `key.<pid>.<random>.tmp` (the raw key) and `<workspace>.json.<pid>.<random>.tmp` (a sealed document). */
const TEMP = /^(?:key|[a-z0-9][a-z0-9_-]{0,62}\.json)\.(\d+)\.[0-9a-f]{8}\.tmp$/;

/**
 * How old a temporary file must be before its writer's pid is trusted to say it is gone. A pid names a
 * process of this host and pid namespace only: a replica in another container, or on another host,
 * sharing the folder, writes under a pid that is "not running" here, and sweeping at every write removed
 * its temporary file between its write and its rename (its save then failed). A write takes
 * milliseconds, so a file a minute old is no live writer's.
 */
const LIVE_WRITE_MS = 60_000;
/** Past this age a leftover is removed even when its pid runs again: pids are reused. */
const REUSED_PID_MS = 60 * 60_000;

async function leftover(path: string, pid: number): Promise<boolean> {
  if (!pid || pid === process.pid) return false;
  let age: number;
  try {
    age = Date.now() - (await stat(path)).mtimeMs;
  } catch {
    return false;
  }
  if (age < LIVE_WRITE_MS) return false;
  return age > REUSED_PID_MS || !processRunning(pid);
}

/**
 * Removes the temporary files of a process killed while writing (kill -9, power loss): 0600 like
 * the key itself, but a copy of the raw key has no business lying around. Those of a live process
 * are left alone: it is still writing.
 */
export async function removeLeftoverTemps(folder: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return;
  }
  await Promise.all(
    names.map(async (name) => {
      const path = join(folder, name);
      if (!(await leftover(path, Number(TEMP.exec(name)?.[1])))) return;
      await rm(path, { force: true }).catch(() => undefined);
    }),
  );
}
