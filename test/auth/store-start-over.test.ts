import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, symlink } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FileCredentialStore, type WorkspaceSecrets } from "../../src/auth/credential-store.js";
import { tempDir } from "../helpers/temp.js";

/**
 * Starting over (remove, configure --force) when the new document cannot be written: the unreadable
 * one stays where it is, or, when it was already moved, the error says where it is.
 */

// Tests run as root here, so a read-only folder is simulated: writes of files whose path contains
// "read-only-disk" fail with EROFS, and renames onto a path containing "rename-fails" with EIO.
const failing = { on: false, renameBack: false };
vi.mock("node:fs/promises", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:fs/promises")>();
  return {
    ...actual,
    writeFile: (async (path, ...rest) => {
      if (failing.on && String(path).includes("read-only-disk") && String(path).endsWith(".tmp")) {
        throw Object.assign(new Error("EROFS: read-only file system"), { code: "EROFS" });
      }
      return actual.writeFile(path, ...rest);
    }) as typeof actual.writeFile,
    rename: async (from: string, to: string) => {
      const intoPlace = String(from).endsWith(".tmp") && String(to).endsWith("default.json");
      const back = String(from).includes(".other-key-") && failing.renameBack;
      if (failing.on && String(to).includes("rename-fails") && (intoPlace || back)) {
        throw Object.assign(new Error("EIO: i/o error"), { code: "EIO" });
      }
      return actual.rename(from, to);
    },
  };
});

const MARKETO = {
  clientId: "real-id",
  clientSecret: "real-secret",
  restEndpoint: "https://1-a.mktorest.com/rest",
};
const withMarketo = (current: WorkspaceSecrets): WorkspaceSecrets => ({ ...current, marketo: MARKETO });
const quiet = { warn: () => undefined };

/** A store written with a key that is no longer the one in use (the key file replaced). */
async function otherKeyStore(folder: string) {
  const home = join(await tempDir("start-over-"), folder);
  const written = new FileCredentialStore({
    home,
    env: { MARTECH_STEPS_KEY: randomBytes(32).toString("hex") },
    ...quiet,
  });
  await written.update("default", withMarketo);
  const file = join(home, "workspaces", "default.json");
  failing.on = true;
  return {
    home,
    file,
    before: await readFile(file, "utf8"),
    store: new FileCredentialStore({ home, env: {}, ...quiet }),
  };
}

describe("starting over when the new document cannot be written", () => {
  afterEach(() => {
    failing.on = false;
  });

  it("refuses a key file that is a symbolic link to nothing, instead of taking the key as missing", async () => {
    const base = await tempDir("start-over-");
    const home = join(base, "home");
    await new FileCredentialStore({ home, env: {}, ...quiet }).update("default", withMarketo);
    await rename(join(home, "key"), join(base, "key.backup"));
    await symlink(join(base, "vault", "key"), join(home, "key"));
    const store = new FileCredentialStore({ home, env: {}, ...quiet });
    const dangling = /The key file .*key is a symbolic link to .*vault\/key, which does not exist/;
    await expect(store.read("default")).rejects.toThrow(dangling);
    await expect(store.check()).rejects.toThrow(dangling);
    await expect(store.updateOrStartOver("default", (s) => s)).rejects.toThrow(dangling);
    expect(await readdir(join(home, "workspaces"))).toEqual(["default.json"]);
    await mkdir(join(base, "vault"));
    await rename(join(base, "key.backup"), join(base, "vault", "key"));
    expect((await store.read("default")).marketo).toEqual(MARKETO);
  });

  it("writes the new document before moving the old one: a folder that refuses writes moves nothing", async () => {
    const { home, file, before, store } = await otherKeyStore("read-only-disk");
    await expect(store.updateOrStartOver("default", withMarketo)).rejects.toThrow(
      /cannot create .*key \(EROFS\)/,
    );
    expect(await readdir(join(home, "workspaces"))).toEqual(["default.json"]);
    expect(await readFile(file, "utf8")).toBe(before);
  });

  it("moves the old document back when the last step fails, and says where it is when it cannot", async () => {
    const { home, file, before, store } = await otherKeyStore("rename-fails");
    await expect(store.updateOrStartOver("default", withMarketo)).rejects.toThrow(/cannot write .*\(EIO\)/);
    expect(await readdir(join(home, "workspaces"))).toEqual(["default.json"]);
    expect(await readFile(file, "utf8")).toBe(before);

    failing.renameBack = true;
    const error = await store.updateOrStartOver("default", withMarketo).catch((e: Error) => e);
    failing.renameBack = false;
    const kept = (await readdir(join(home, "workspaces"))).find((name) => name.includes(".other-key-"));
    expect(kept).toBeDefined();
    expect(String(error)).toContain(`is kept at ${join(home, "workspaces", kept!)}`);
    expect(String(error)).toMatch(/To put it back: mv /);
    expect(await readFile(join(home, "workspaces", kept!), "utf8")).toBe(before);
  });
});
