import { spawn } from "node:child_process";
import { mkdir, readdir, utimes } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileCredentialStore } from "../../src/auth/credential-store.js";
import { NetworkError } from "../../src/errors.js";
import { tempDir } from "../helpers/temp.js";

const WRITER = new URL("../fixtures/store-writer.ts", import.meta.url).pathname;

function writer(home: string, prefix: string, count: number): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", WRITER, home, prefix, String(count)], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    child.on("error", reject);
    child.on("close", resolve);
  });
}

const addAccount = (label: string) => (s: Awaited<ReturnType<FileCredentialStore["read"]>>) => ({
  ...s,
  googleAccounts: {
    ...s.googleAccounts,
    [label]: { label, scopes: [], addedAt: "2026-01-01T00:00:00Z", refreshToken: `1//${label}` },
  },
});

describe("the file store's lock across processes", () => {
  it("loses no update when 4 processes each make 25 updates of one workspace at once", async () => {
    const home = await tempDir("martech-lock-");
    const codes = await Promise.all(["a", "b", "c", "d"].map((prefix) => writer(home, prefix, 25)));
    expect(codes).toEqual([0, 0, 0, 0]);
    const labels = Object.keys(
      (await new FileCredentialStore({ home, env: {} }).read("default")).googleAccounts,
    );
    expect(labels).toHaveLength(100);
    // Nothing is left behind: no lock folder, no temporary file.
    expect(await readdir(join(home, "workspaces"))).toEqual(["default.json"]);
  }, 60_000);

  it("takes over a lock left by a process that died (older than the stale time)", async () => {
    const home = await tempDir("martech-lock-");
    const lock = join(home, "workspaces", "default.json.lock");
    // Private, as the store makes its folders: an open one is warned about on stderr.
    await mkdir(lock, { recursive: true, mode: 0o700 });
    const old = new Date(Date.now() - 60_000);
    await utimes(lock, old, old);
    const store = new FileCredentialStore({ home, env: {} });
    const started = Date.now();
    await store.update("default", addAccount("after-crash"));
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(Object.keys((await store.read("default")).googleAccounts)).toEqual(["after-crash"]);
  });

  it("waits for a live lock, then fails with a typed, retryable error that names the lock", async () => {
    const home = await tempDir("martech-lock-");
    const lock = join(home, "workspaces", "default.json.lock");
    // Private, as the store makes its folders: an open one is warned about on stderr.
    await mkdir(lock, { recursive: true, mode: 0o700 });
    const store = new FileCredentialStore({ home, env: {}, lock: { staleMs: 5_000, waitMs: 300 } });
    const error = await store.update("default", addAccount("blocked")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).retryable).toBe(true);
    expect(String(error)).toContain(`${lock} is held by another process`);
    expect(await readdir(join(home, "workspaces"))).toEqual(["default.json.lock"]);
  });
});
