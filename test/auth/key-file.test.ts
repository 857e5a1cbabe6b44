import { chown, readdir, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { FileCredentialStore } from "../../src/auth/credential-store.js";
import { loadOrCreateKeyFile, removeLeftoverTemps } from "../../src/auth/key-file.js";
import { readKeyFile } from "../../src/auth/store-key.js";
import { tempDir } from "../helpers/temp.js";

// A filesystem without hard links (exFAT, FAT, some SMB shares) answers link(2) with EPERM, ENOTSUP
// or EXDEV: paths under a folder named "no-links-<code>" behave so, everything else is untouched.
vi.mock("node:fs/promises", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:fs/promises")>();
  return {
    ...actual,
    link: async (existing: string, target: string) => {
      const code = /no-links-(\w+)/.exec(String(target))?.[1];
      if (code) throw Object.assign(new Error(`${code}: link refused`), { code });
      return actual.link(existing, target);
    },
    // On a slow disk ("slow" in the path) the key file exists, empty, for a while before its bytes land.
    open: async (...args: Parameters<typeof actual.open>) => {
      const handle = await actual.open(...args);
      if (!String(args[0]).includes("slow")) return handle;
      const write = handle.writeFile.bind(handle);
      return Object.assign(handle, {
        writeFile: async (...data: Parameters<typeof handle.writeFile>) => {
          await new Promise((resolve) => setTimeout(resolve, 30));
          return write(...data);
        },
      });
    },
  };
});

const folder = async (name = "") => join(await tempDir("key-file-"), name);

describe("creating the key file where hard links are refused", () => {
  it.each(["EPERM", "ENOTSUP", "EXDEV"])(
    "falls back to an exclusive create (%s), 0600, one key",
    async (code) => {
      const home = await folder(`no-links-${code}`);
      const keys = await Promise.all([loadOrCreateKeyFile(home), loadOrCreateKeyFile(home)]);
      expect(keys[0].key.equals(keys[1].key)).toBe(true);
      expect(await readdir(home)).toEqual(["key"]);
      expect((await stat(join(home, "key"))).mode & 0o777).toBe(0o600);
      expect((await readKeyFile(join(home, "key")))?.key.equals(keys[0].key)).toBe(true);
    },
  );

  it("never lets a concurrent reader take the key file for damaged while it is being written", async () => {
    const failures: unknown[] = [];
    for (let trial = 0; trial < 20; trial++) {
      const home = await folder("no-links-EPERM-slow");
      let created = false;
      const readers = Array.from({ length: 4 }, async () => {
        while (!created) await readKeyFile(join(home, "key")).catch((error: unknown) => failures.push(error));
      });
      const keys = await Promise.all([loadOrCreateKeyFile(home), loadOrCreateKeyFile(home)]);
      created = true;
      await Promise.all(readers);
      expect(keys[0].key.equals(keys[1].key)).toBe(true);
    }
    expect(failures).toEqual([]);
  });

  it("still reports a key file that stays short as holding no key", async () => {
    const home = await folder();
    await writeFile(join(home, "key"), "", { mode: 0o600 });
    await expect(readKeyFile(join(home, "key"))).rejects.toThrow(/does not hold a 32-byte key/);
  });
});

describe("leftovers and owners of the key file", () => {
  it("removes the temporary key files of a killed process, and leaves a live one's alone", async () => {
    const home = await folder();
    await loadOrCreateKeyFile(home);
    // A pid that is certainly not running (above the kernel's pid_max), and one that is (ours, then our parent).
    const dead = join(home, "key.4194999.0badc0de.tmp");
    const deadDoc = join(home, "default.json.4194999.0badc0de.tmp");
    const live = join(home, `key.${process.ppid}.0badc0de.tmp`);
    // Written two minutes ago: a younger one may be a live writer's on another host (store-leftover-temps).
    const before = new Date(Date.now() - 120_000);
    for (const file of [dead, deadDoc, live]) {
      await writeFile(file, "raw key", { mode: 0o600 });
      await utimes(file, before, before);
    }
    await removeLeftoverTemps(home);
    expect((await readdir(home)).sort()).toEqual(["key", `key.${process.ppid}.0badc0de.tmp`]);

    // The store cleans its folder at every start-up check.
    await writeFile(dead, "raw key", { mode: 0o600 });
    await utimes(dead, before, before);
    await new FileCredentialStore({ home, env: {}, warn: () => undefined }).check();
    expect(await readdir(home)).not.toContain("key.4194999.0badc0de.tmp");
  });

  it("refuses a key file that belongs to another user, as ssh does", async () => {
    const home = await folder();
    await loadOrCreateKeyFile(home);
    const owner = (await stat(join(home, "key"))).uid;
    // Root gives the file away; anyone else is made to look like another user (root-owned files pass, as in ssh).
    if (owner === 0) await chown(join(home, "key"), 4242, 4242);
    else vi.spyOn(process, "getuid").mockReturnValue(4242);
    try {
      await expect(readKeyFile(join(home, "key"))).rejects.toThrow(
        new RegExp(`The key file .*key belongs to another user \\(uid ${owner === 0 ? 4242 : owner}\\)`),
      );
    } finally {
      vi.restoreAllMocks();
    }
  });
});
