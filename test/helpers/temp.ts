import { mkdtempSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * The temporary folders a test file made through this helper. They are removed after the file (by
 * test/helpers/setup-file.ts), which then fails the file if anything else is left in its temp folder.
 */
const made = new Set<string>();

/** A fresh, empty folder in the temp folder, removed after the test file. */
export async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.add(dir);
  return dir;
}

/** {@link tempDir}, for code that cannot wait (a module-level fixture). */
export function tempDirSync(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.add(dir);
  return dir;
}

/** Removes every folder made by {@link tempDir} so far. */
export async function removeTempDirs(): Promise<void> {
  const dirs = [...made];
  made.clear();
  // maxRetries: a child that was just stopped may still be closing a file in it.
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true, maxRetries: 10 })));
}
