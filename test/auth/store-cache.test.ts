import { chmod, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { FileCredentialStore } from "../../src/auth/credential-store.js";
import { RedisCredentialStore } from "../../src/auth/redis-credential-store.js";
import * as sealed from "../../src/auth/sealed.js";
import { ConfigurationError } from "../../src/errors.js";
import { tempDir } from "../helpers/temp.js";

// Counts decryptions: the point of the cache is that an unchanged document is not opened again.
vi.mock(import("../../src/auth/sealed.js"), async (original) => {
  const mod = await original();
  return { ...mod, openSecrets: vi.fn(mod.openSecrets) };
});
const opened = vi.mocked(sealed.openSecrets);

const marketo = (clientId: string) => ({
  clientId,
  clientSecret: "s3cret",
  restEndpoint: "https://x.mktorest.com/rest",
});

beforeEach(() => {
  opened.mockClear();
});

describe("the file store keeps the document it opened", () => {
  it("opens an unchanged document once for many reads, and gives each reader its own copy", async () => {
    const home = await tempDir("martech-cache-");
    const store = new FileCredentialStore({ home, warn: () => undefined });
    await store.update("default", (s) => ({ ...s, marketo: marketo("one") }));
    opened.mockClear();
    const reads = await Promise.all(Array.from({ length: 50 }, () => store.read("default")));
    expect(reads.every((secrets) => secrets.marketo?.clientId === "one")).toBe(true);
    expect(opened.mock.calls.length).toBeLessThanOrEqual(1);
    // A reader changing its copy changes nobody else's.
    (reads[0]!.marketo as { clientId: string }).clientId = "changed";
    expect((await store.read("default")).marketo?.clientId).toBe("one");
  });

  it("sees a change made by another process at the next read", async () => {
    const home = await tempDir("martech-cache-");
    const server = new FileCredentialStore({ home, warn: () => undefined });
    const cli = new FileCredentialStore({ home, warn: () => undefined });
    await cli.update("default", (s) => ({ ...s, marketo: marketo("one") }));
    expect((await server.read("default")).marketo?.clientId).toBe("one");
    await cli.update("default", (s) => ({ ...s, marketo: marketo("two") }));
    expect((await server.read("default")).marketo?.clientId).toBe("two");
    await cli.update("default", () => ({ googleAccounts: {} }));
    expect((await server.read("default")).marketo).toBeUndefined();
  });

  it("still checks the key file's permissions at every read", async () => {
    const home = await tempDir("martech-cache-");
    const store = new FileCredentialStore({ home, warn: () => undefined });
    await store.update("default", (s) => ({ ...s, marketo: marketo("one") }));
    await store.read("default");
    await chmod(join(home, "key"), 0o644);
    await expect(store.read("default")).rejects.toThrow(ConfigurationError);
    await chmod(join(home, "key"), 0o600);
    expect((await store.read("default")).marketo?.clientId).toBe("one");
  });

  it("opens the document again when the key file was replaced", async () => {
    const home = await tempDir("martech-cache-");
    const store = new FileCredentialStore({ home, warn: () => undefined });
    await store.update("default", (s) => ({ ...s, marketo: marketo("one") }));
    await store.read("default");
    await writeFile(join(home, "key"), Buffer.alloc(32, 7).toString("base64"), { mode: 0o600 });
    await expect(store.read("default")).rejects.toThrow(/cannot be opened with the key in use/);
  });
});

const url = process.env.REDIS_URL;
describe.skipIf(!url)("the Redis store keeps the document it opened", () => {
  it("decrypts an unchanged document once, and a document another replica changed again", async () => {
    const key = Buffer.alloc(32, 3);
    const keyPrefix = `martech-test:${Date.now()}:${Math.random()}:`;
    const a = new RedisCredentialStore({ url, key, keyPrefix });
    const b = new RedisCredentialStore({ url, key, keyPrefix });
    try {
      await b.update("default", (s) => ({ ...s, marketo: marketo("one") }));
      opened.mockClear();
      for (let i = 0; i < 20; i++) expect((await a.read("default")).marketo?.clientId).toBe("one");
      expect(opened.mock.calls.length).toBe(1);
      await b.update("default", (s) => ({ ...s, marketo: marketo("two") }));
      expect((await a.read("default")).marketo?.clientId).toBe("two");
    } finally {
      await a.close();
      await b.close();
    }
  });
});
