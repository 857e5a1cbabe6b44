import { chmod, writeFile } from "node:fs/promises";
import { describe, expect, it, vi } from "vitest";
import {
  cachedSecretFile,
  readSecretFile,
  readSecretFileSync,
  SecretFileError,
} from "../../src/auth/secret-file.js";
import { readKeyFile } from "../../src/auth/store-key.js";
import { ODD_KINDS, oddFiles, secretFile } from "../helpers/odd-files.js";
import { tempDir } from "../helpers/temp.js";

/**
 * Secret files (issue 26, item 5): a named pipe hung every read, /dev/zero was read without end. Only a
 * regular file is read, 64 KiB at most, within a deadline, owner-only, and kept until it changes.
 */

// A file on a hung network mount: every open of a path under a folder named "hung-mount" never returns.
const opens = vi.hoisted(() => ({ hung: 0, hungStats: 0 }));
vi.mock("node:fs/promises", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:fs/promises")>();
  return {
    ...actual,
    open: (...args: Parameters<typeof actual.open>) => {
      if (String(args[0]).includes("hung-mount")) {
        opens.hung += 1;
        return new Promise(() => undefined);
      }
      return actual.open(...args);
    },
    stat: (...args: Parameters<typeof actual.stat>) => {
      if (String(args[0]).includes("hung-stat")) {
        opens.hungStats += 1;
        return new Promise(() => undefined);
      }
      // A slow disk: the stat is taken now, its answer comes 150 ms later.
      if (String(args[0]).includes("slow-stat")) {
        const late = (settle: () => void) => setTimeout(settle, 150);
        return new Promise((resolve, reject) =>
          actual.stat(...args).then(
            (info) => late(() => resolve(info)),
            (error: unknown) => late(() => reject(error)),
          ),
        );
      }
      return actual.stat(...args);
    },
  };
});

const RULES = { what: "the credentials file", holds: "the credentials in it" };

describe("a secret file that is not a small regular file", () => {
  it("is refused for what it is, at once, itself or through a symbolic link (and never read)", async () => {
    const odd = await oddFiles(await tempDir("secret-odd-"));
    for (const [name, kind] of Object.entries(ODD_KINDS) as [keyof typeof ODD_KINDS, RegExp][]) {
      for (const path of [name === "zero" ? "/dev/zero" : odd[name], odd.links[name]]) {
        const started = performance.now();
        for (const read of [readSecretFile, cachedSecretFile]) {
          const refused = read(path, RULES);
          await expect(refused).rejects.toBeInstanceOf(SecretFileError);
          await expect(refused).rejects.toThrow(kind);
        }
        expect(readSecretFileSync(path, RULES)).toBeUndefined();
        // A hang would never get here; a read of /dev/zero or of the sparse GiB would take seconds and a GiB.
        expect(performance.now() - started).toBeLessThan(5_000);
      }
    }
  });

  it("is refused when other users may read it, as the store's key file is, with the fix", async () => {
    const dir = await tempDir("secret-mode-");
    const path = await secretFile(dir, "key.json", '{"type":"service_account"}', 0o644);
    await chmod(path, 0o644);
    const refusal = `Permissions 0644 for the credentials file ${path} are too open: other users could read the credentials in it. Run: chmod 600 ${path}`;
    await expect(readSecretFile(path, RULES)).rejects.toThrow(refusal);
    await expect(cachedSecretFile(path, RULES)).rejects.toThrow(refusal);
    await chmod(path, 0o600);
    await expect(readSecretFile(path, RULES)).resolves.toMatchObject({ text: '{"type":"service_account"}' });
  });

  it("ends with an error within the deadline on a hung mount, and later callers wait on the same read", async () => {
    const dir = await tempDir("secret-hung-mount-");
    const path = await secretFile(dir, "key.json", "{}");
    const rules = { ...RULES, deadlineMs: 200 };
    const first = cachedSecretFile(path, rules).catch((error: unknown) => error);
    const second = readSecretFile(path, rules).catch((error: unknown) => error);
    for (const outcome of [await first, await second]) {
      expect(outcome).toBeInstanceOf(SecretFileError);
      expect(String(outcome)).toMatch(/did not answer within 200 ms .* copy the file to a local disk/);
    }
    // One open stuck, not one per caller (each would hold a thread of libuv's file-system pool).
    expect(opens.hung).toBe(1);
  });

  it("ends within the deadline when even its stat hangs, with one stat stuck for every caller", async () => {
    const dir = await tempDir("secret-hung-stat-");
    const path = await secretFile(dir, "key.json", "{}");
    const rules = { ...RULES, deadlineMs: 200 };
    const outcomes = await Promise.all(
      [1, 2, 3].map(() => cachedSecretFile(path, rules).catch((error: unknown) => error)),
    );
    for (const outcome of outcomes) expect(String(outcome)).toMatch(/did not answer within 200 ms/);
    expect(opens.hungStats).toBe(1);
  });

  it("ends a first read of the store's key file within the deadline when its stat hangs", async () => {
    const dir = await tempDir("secret-hung-stat-key-");
    const path = await secretFile(dir, "key", "a".repeat(64));
    const before = opens.hungStats;
    const started = performance.now();
    // The key file's rules have the default deadline (2 s); a bare stat here never settled.
    await expect(readKeyFile(path)).rejects.toThrow(/The key file .* did not answer within 2000 ms/);
    expect(performance.now() - started).toBeLessThan(4_000);
    expect(opens.hungStats - before).toBe(1);
  });
});

describe("a secret file that is one", () => {
  it("is seen by a caller that asks after it was made, while a stat begun before is still under way", async () => {
    const dir = await tempDir("secret-slow-stat-");
    const path = `${dir}/key.json`;
    // Begun before the file exists (its answer, ENOENT, comes late)...
    const before = cachedSecretFile(path, RULES).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // ...then the file is made, and a caller asks: it must not get the earlier stat's answer.
    await secretFile(dir, "key.json", "made");
    expect((await cachedSecretFile(path, RULES)).text).toBe("made");
    expect((await before) as NodeJS.ErrnoException).toMatchObject({ code: "ENOENT" });
  });
  it("is read once and kept until it changes (one stat per use)", async () => {
    const dir = await tempDir("secret-cache-");
    const path = await secretFile(dir, "key.json", "first");
    const first = await cachedSecretFile(path, RULES);
    expect(first.text).toBe("first");
    // The same object: not read again.
    expect(await cachedSecretFile(path, RULES)).toBe(first);
    await writeFile(path, "second, longer");
    expect((await cachedSecretFile(path, RULES)).text).toBe("second, longer");
    expect(readSecretFileSync(path, RULES)).toBe("second, longer");
  });

  it("is read whole up to 64 KiB, and refused past it", async () => {
    const dir = await tempDir("secret-size-");
    const full = await secretFile(dir, "full.json", "x".repeat(64 * 1024));
    expect((await readSecretFile(full, RULES)).text).toHaveLength(64 * 1024);
    const over = await secretFile(dir, "over.json", "x".repeat(64 * 1024 + 1));
    await expect(readSecretFile(over, RULES)).rejects.toThrow(/is 65537 bytes, more than the 65536 bytes/);
    expect(readSecretFileSync(over, RULES)).toBeUndefined();
  });
});
