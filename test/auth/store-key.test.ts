import { randomBytes } from "node:crypto";
import { chmod, mkdir, readdir, rm, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileCredentialStore } from "../../src/auth/credential-store.js";
import { loadOrCreateKeyFile } from "../../src/auth/key-file.js";
import { checkCredentialStore, createCredentialStore } from "../../src/auth/store.js";
import { keyFileKeySync, readKeyFile } from "../../src/auth/store-key.js";
import { ConfigurationError } from "../../src/errors.js";
import { Workspace } from "../../src/workspace.js";
import { ODD_KINDS, oddFiles } from "../helpers/odd-files.js";
import { tempDir } from "../helpers/temp.js";

const home = () => tempDir("martech-key-");
const MALFORMED = "not-a-key-but-a-secret-looking-value";

describe("MARTECH_STEPS_KEY", () => {
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);
  beforeEach(() => {
    rejections.length = 0;
    process.on("unhandledRejection", onRejection);
  });
  afterEach(() => {
    process.off("unhandledRejection", onRejection);
  });

  it("is refused at construction with one typed error, never left as a rejected promise", async () => {
    const dir = await home();
    const env = { MARTECH_STEPS_HOME: dir, MARTECH_STEPS_KEY: MALFORMED };
    for (const make of [
      () => new FileCredentialStore({ env }),
      () => createCredentialStore(env),
      () => new Workspace({ env }),
    ]) {
      let error: unknown;
      try {
        make();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(String(error)).toMatch(
        /MARTECH_STEPS_KEY is not a 32-byte key .* Set it to 64 hex characters or 44 base64/,
      );
      expect(String(error)).not.toContain(MALFORMED);
    }
    await expect(checkCredentialStore(env)).rejects.toThrow(ConfigurationError);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(rejections).toEqual([]);
  });

  it("accepts 32 bytes as hex, base64 (padded or not) and base64url", async () => {
    const key = randomBytes(32);
    const written = new FileCredentialStore({
      home: await home(),
      env: { MARTECH_STEPS_KEY: key.toString("hex") },
    });
    await written.update("default", (s) => ({ ...s, googleClient: { clientId: "c", clientSecret: "s" } }));
    for (const form of [
      key.toString("base64"),
      key.toString("base64").replace(/=$/, ""),
      key.toString("base64url"),
      ` ${key.toString("hex").toUpperCase()}\n`,
    ]) {
      const store = new FileCredentialStore({ home: written.home, env: { MARTECH_STEPS_KEY: form } });
      expect((await store.read("default")).googleClient?.clientId).toBe("c");
    }
  });
});

describe("the key file and the folder, checked as ssh checks a private key", () => {
  it("refuses a key file other users can read, naming the file, its mode and the fix", async () => {
    const dir = await home();
    const store = new FileCredentialStore({ home: dir, env: {} });
    await store.update("default", (s) => ({ ...s, googleClient: { clientId: "c", clientSecret: "s" } }));
    const keyFile = join(dir, "key");
    await chmod(keyFile, 0o644);
    const fresh = new FileCredentialStore({ home: dir, env: {} });
    const message = `Permissions 0644 for the key file ${keyFile} are too open`;
    await expect(fresh.check()).rejects.toThrow(message);
    await expect(fresh.read("default")).rejects.toThrow(`chmod 600 ${keyFile}`);
    await expect(fresh.update("default", (s) => s)).rejects.toThrow(ConfigurationError);
    await expect(checkCredentialStore({ MARTECH_STEPS_HOME: dir })).rejects.toThrow(message);
    await chmod(keyFile, 0o600);
    expect((await fresh.read("default")).googleClient?.clientId).toBe("c");
  });

  it("refuses a key file that is a FIFO, a device or a folder at once, and never reads it (issue 26, item 5)", async () => {
    const dir = await home();
    const odd = await oddFiles(dir);
    for (const [name, kind] of Object.entries(ODD_KINDS) as [keyof typeof ODD_KINDS, RegExp][]) {
      const keyFile = join(dir, "key");
      await rm(keyFile, { force: true });
      await symlink(name === "zero" ? "/dev/zero" : odd[name], keyFile);
      const store = new FileCredentialStore({ home: dir, env: {}, warn: () => undefined });
      await expect(store.check()).rejects.toThrow(kind);
      // The cursor key is read synchronously: a FIFO blocked the whole process there.
      expect(keyFileKeySync(keyFile)).toBeUndefined();
    }
  });

  it("refuses a key file that does not hold a 32-byte key", async () => {
    const dir = await home();
    await writeFile(join(dir, "key"), "garbage", { mode: 0o600 });
    await expect(new FileCredentialStore({ home: dir, env: {} }).check()).rejects.toThrow(
      `The key file ${join(dir, "key")} does not hold a 32-byte key.`,
    );
  });

  it("warns once about a folder open to other users, and not about a 0700 one", async () => {
    const dir = await home();
    const warnings: string[] = [];
    const store = new FileCredentialStore({ home: dir, env: {}, warn: (m) => warnings.push(m) });
    await store.check();
    expect(warnings).toEqual([]);
    await chmod(dir, 0o755);
    const open = new FileCredentialStore({ home: dir, env: {}, warn: (m) => warnings.push(m) });
    await open.check();
    await open.update("default", (s) => s);
    await open.read("default");
    expect(warnings).toEqual([
      `the credential folder ${dir} is open to other users (permissions 0755); run: chmod 700 ${dir}`,
    ]);
  });

  it("checks without creating anything, and creates folders 0700 and files 0600 on first write", async () => {
    const parent = await home();
    const dir = join(parent, "home");
    await new FileCredentialStore({ home: dir, env: {} }).check();
    expect(await readdir(parent)).toEqual([]);
    await new FileCredentialStore({ home: dir, env: {} }).update("default", (s) => s);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect((await stat(join(dir, "workspaces"))).mode & 0o777).toBe(0o700);
    expect((await stat(join(dir, "key"))).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, "workspaces", "default.json"))).mode & 0o777).toBe(0o600);
  });

  it("reports a store path it cannot read as a typed error naming the path", async () => {
    const dir = await home();
    // Private, as the store makes its folders: an open one is warned about on stderr.
    await mkdir(join(dir, "workspaces", "default.json"), { recursive: true, mode: 0o700 });
    const path = join(dir, "workspaces", "default.json");
    await expect(new FileCredentialStore({ home: dir, env: {} }).read("default")).rejects.toThrow(
      `The credential store cannot read ${path} (EISDIR).`,
    );
  });
});

describe("creating the key file", () => {
  it("never lets a concurrent reader see a key file that exists but is incomplete", async () => {
    const failures: unknown[] = [];
    for (let trial = 0; trial < 300; trial++) {
      const dir = await home();
      let created = false;
      const readers = Array.from({ length: 4 }, async () => {
        while (!created) {
          await readKeyFile(join(dir, "key")).catch((error: unknown) => failures.push(error));
        }
      });
      const keys = await Promise.all([loadOrCreateKeyFile(dir), loadOrCreateKeyFile(dir)]);
      created = true;
      await Promise.all(readers);
      expect(keys[0].key.equals(keys[1].key)).toBe(true);
      expect(await readdir(dir)).toEqual(["key"]);
    }
    expect(failures).toEqual([]);
  });
});
