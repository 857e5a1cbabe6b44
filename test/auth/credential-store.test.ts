import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileCredentialStore } from "../../src/auth/credential-store.js";
import { tempDir } from "../helpers/temp.js";

const CANARY = "canary-secret-7f3a9c1e-do-not-leak";

async function home() {
  return tempDir("martech-store-");
}

describe("FileCredentialStore", () => {
  it("encrypts at rest with mode 0600 and reads back", async () => {
    const dir = await home();
    const store = new FileCredentialStore({ home: dir, env: {} });
    await store.update("default", (s) => ({
      ...s,
      marketo: { clientId: "id", clientSecret: CANARY, restEndpoint: "https://1-a.mktorest.com/rest" },
    }));
    const file = join(dir, "workspaces", "default.json");
    const raw = await readFile(file, "utf8");
    expect(raw).not.toContain(CANARY);
    expect(raw).not.toContain("mktorest");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, "key"))).mode & 0o777).toBe(0o600);
    const again = new FileCredentialStore({ home: dir, env: {} });
    expect((await again.read("default")).marketo?.clientSecret).toBe(CANARY);
  });

  it("keeps workspaces apart: one workspace's file cannot be read as another's", async () => {
    const dir = await home();
    const store = new FileCredentialStore({ home: dir, env: {} });
    await store.update("alpha", (s) => ({
      ...s,
      marketo: { clientId: "a", clientSecret: CANARY, restEndpoint: "https://a" },
    }));
    expect((await store.read("beta")).marketo).toBeUndefined();
    // Copying alpha's sealed file over beta's fails authentication (the workspace is bound as AAD).
    const { copyFile } = await import("node:fs/promises");
    await copyFile(join(dir, "workspaces", "alpha.json"), join(dir, "workspaces", "beta.json"));
    await expect(store.read("beta")).rejects.toThrow(/damaged \(.*another workspace's file\)/);
  });

  it("uses MARTECH_STEPS_KEY and refuses a wrong key with advice", async () => {
    const dir = await home();
    const key = "a".repeat(64);
    const store = new FileCredentialStore({ home: dir, env: { MARTECH_STEPS_KEY: key } });
    await store.update("default", (s) => ({ ...s, googleClient: { clientId: "c", clientSecret: CANARY } }));
    expect(await readdir(dir)).not.toContain("key");
    const wrong = new FileCredentialStore({ home: dir, env: { MARTECH_STEPS_KEY: "b".repeat(64) } });
    const error = await wrong.read("default").catch((e: unknown) => e as Error);
    expect(String(error)).toMatch(/cannot be opened with the key in use \(MARTECH_STEPS_KEY\)/);
    expect(String(error)).not.toContain(CANARY);
    expect(() => new FileCredentialStore({ home: dir, env: { MARTECH_STEPS_KEY: "short" } })).toThrow(
      /32-byte/,
    );
  });

  it("serialises concurrent updates so none is lost", async () => {
    const store = new FileCredentialStore({ home: await home(), env: {} });
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.update("default", (s) => ({
          ...s,
          googleAccounts: {
            ...s.googleAccounts,
            [`a${i}`]: { label: `a${i}`, scopes: [], addedAt: "2026-01-01T00:00:00Z", refreshToken: `r${i}` },
          },
        })),
      ),
    );
    expect(Object.keys((await store.read("default")).googleAccounts)).toHaveLength(20);
  });

  it("refuses workspace names that could escape the folder", async () => {
    const store = new FileCredentialStore({ home: await home(), env: {} });
    await expect(store.read("../etc")).rejects.toThrow(/workspace/);
    await expect(store.read("A")).rejects.toThrow(/lowercase/);
  });
});
