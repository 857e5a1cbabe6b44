import { execFileSync } from "node:child_process";
import { mkdir, open, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * Paths a credentials setting may name that are not an ordinary small file (issue 26, item 5): a named
 * pipe (no writer ever comes: an open for reading without O_NONBLOCK waits for ever), /dev/zero (never
 * ends), a sparse file of 1 GiB (its size alone is refused), a folder, and a symbolic link to each.
 */
export interface OddFiles {
  fifo: string;
  zero: string;
  huge: string;
  folder: string;
  /** Each of the above by a symbolic link, by the same name. */
  links: Record<"fifo" | "zero" | "huge" | "folder", string>;
}

export async function oddFiles(dir: string): Promise<OddFiles> {
  const fifo = join(dir, "credentials.fifo");
  execFileSync("mkfifo", ["-m", "600", fifo]);
  const huge = join(dir, "huge.json");
  const handle = await open(huge, "w", 0o600);
  await handle.truncate(1024 * 1024 * 1024);
  await handle.close();
  const folder = join(dir, "folder.json");
  await mkdir(folder, { mode: 0o700 });
  const targets = { fifo, zero: "/dev/zero", huge, folder };
  const links = {} as OddFiles["links"];
  for (const [name, target] of Object.entries(targets) as [keyof OddFiles["links"], string][]) {
    links[name] = join(dir, `link-to-${name}.json`);
    await symlink(target, links[name]);
  }
  return { ...targets, links };
}

/** What each odd file is said to be when refused. */
export const ODD_KINDS: Record<keyof OddFiles["links"], RegExp> = {
  fifo: /is a named pipe \(FIFO\), not a regular file/,
  zero: /is a character device, not a regular file/,
  huge: /is 1073741824 bytes, more than the 65536 bytes/,
  folder: /is a folder, not a regular file/,
};

/** A file holding `text`, readable by its owner only unless `mode` says otherwise. */
export async function secretFile(dir: string, name: string, text: string, mode = 0o600): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text, { mode });
  return path;
}
