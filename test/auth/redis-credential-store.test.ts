import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileCredentialStore, StoreUnreadableError } from "../../src/auth/credential-store.js";
import { parseStoreKind, RedisCredentialStore } from "../../src/auth/redis-credential-store.js";
import { createCredentialStore } from "../../src/auth/store.js";
import {
  backendAvailable,
  openRedisBackend,
  REDIS_BACKENDS,
  type RedisBackend,
} from "../helpers/redis-backends.js";

const CANARY = "canary-redis-secret-4c1d";

describe("choosing the credential store", () => {
  it("is the encrypted file by default and refuses unknown or incomplete settings", () => {
    expect(createCredentialStore({ MARTECH_STEPS_HOME: "/tmp/x" })).toBeInstanceOf(FileCredentialStore);
    expect(() => parseStoreKind({ MARTECH_STEPS_STORE: "s3" })).toThrow(/Accepted: "file".*"redis"/);
    expect(() => parseStoreKind({ MARTECH_STEPS_STORE: "redis", REDIS_URL: "redis://x" })).toThrow(
      /needs REDIS_URL \(or REDIS_CLUSTER_NODES\) and MARTECH_STEPS_KEY/,
    );
  });
});

describe.each(REDIS_BACKENDS)("RedisCredentialStore against a real Redis (%s)", (name) => {
  const prefix = `martech-test-creds-${randomUUID()}:`;
  const key = randomBytes(32);
  const stores: RedisCredentialStore[] = [];
  let backend: RedisBackend;
  if (!backendAvailable(name)) {
    it.skip("needs REDIS_URL", () => undefined);
    return;
  }
  const replica = (k: Buffer = key) => {
    const store = new RedisCredentialStore({ target: backend.target, key: k, keyPrefix: prefix });
    stores.push(store);
    return store;
  };
  beforeAll(async () => {
    backend = await openRedisBackend(name);
  }, 60_000);
  afterAll(async () => {
    for (const store of stores) await store.close();
    await backend?.close();
  });

  it("keeps only sealed documents in Redis, readable by every replica with the key", async () => {
    const a = replica();
    const b = replica();
    await a.update("default", (s) => ({
      ...s,
      marketo: { clientId: "id", clientSecret: CANARY, restEndpoint: "https://1-a.mktorest.com/rest" },
    }));
    const raw = backend.raw();
    try {
      const stored = await raw.get(`${prefix}default`);
      expect(stored).toBeTruthy();
      expect(stored).not.toContain(CANARY);
      expect(stored).not.toContain("mktorest");
    } finally {
      await backend.release(raw);
    }
    expect((await b.read("default")).marketo?.clientSecret).toBe(CANARY);
  });

  it("loses no update when two replicas write at the same time", async () => {
    const a = replica();
    const b = replica();
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        (i % 2 ? a : b).update("busy", (s) => ({
          ...s,
          googleAccounts: {
            ...s.googleAccounts,
            [`acct${i}`]: {
              label: `acct${i}`,
              scopes: [],
              addedAt: "2026-01-01T00:00:00Z",
              refreshToken: `r${i}`,
            },
          },
        })),
      ),
    );
    expect(Object.keys((await a.read("busy")).googleAccounts)).toHaveLength(30);
  });

  it("refuses another key and another workspace's document", async () => {
    const a = replica();
    await a.update("alpha", (s) => ({ ...s, googleClient: { clientId: "c", clientSecret: CANARY } }));
    const error = await replica(randomBytes(32))
      .read("alpha")
      .catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(StoreUnreadableError);
    expect(String(error)).toMatch(
      /cannot be opened with the key in use \(the key given to RedisCredentialStore\)/,
    );
    expect(String(error)).not.toContain(CANARY);
    const raw = backend.raw();
    try {
      await raw.set(`${prefix}beta`, (await raw.get(`${prefix}alpha`))!);
    } finally {
      await backend.release(raw);
    }
    await expect(a.read("beta")).rejects.toThrow(/is damaged .*another workspace's file/);
  });

  it("keeps a damaged or other-key document aside when starting over, in one compare-and-set", async () => {
    const a = replica();
    const raw = backend.raw();
    try {
      await raw.set(`${prefix}broken`, '{"format":"martech-steps/v1","iv":"trunc');
      await expect(a.update("broken", (s) => s)).rejects.toThrow(/is damaged \(it is not valid JSON/);
      const damaged = await a.updateOrStartOver("broken", (s) => ({
        ...s,
        googleClient: { clientId: "n", clientSecret: "s" },
      }));
      expect(damaged.lost).toMatchObject({
        reason: "damaged",
        keptAt: expect.stringMatching(new RegExp(`^\\{${prefix}broken\\}\\.corrupt-`)),
      });
      expect(await raw.get(damaged.lost!.keptAt)).toBe('{"format":"martech-steps/v1","iv":"trunc');
      expect((await a.read("broken")).googleClient?.clientId).toBe("n");

      const other = replica(randomBytes(32));
      const before = await raw.get(`${prefix}broken`);
      const started = await other.updateOrStartOver("broken", (s) => s);
      expect(started.lost).toMatchObject({
        reason: "wrong_key",
        keptAt: expect.stringContaining(".other-key-"),
      });
      expect(await raw.get(started.lost!.keptAt)).toBe(before);
      expect(await other.read("broken")).toEqual({ googleAccounts: {} });
    } finally {
      await backend.release(raw);
    }
  });
});
