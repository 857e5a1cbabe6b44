import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { credentialStoreReady } from "../../src/auth/readiness.js";
import { RedisCredentialStore } from "../../src/auth/redis-credential-store.js";
import { StoreLostError } from "../../src/errors.js";
import { type HttpServerHandle, startHttpServer } from "../../src/host/http.js";
import { newRedisClient } from "../../src/state/ioredis.js";
import { MemoryState } from "../../src/state/memory.js";
import { Workspace } from "../../src/workspace.js";
import { raw } from "../helpers/raw-http.js";
import { type RedisProcess, startRedis } from "../helpers/redis-process.js";

/*
 * A Redis that comes back empty (restarted without persistence, flushed) answers PING and reads as
 * "nothing configured": /readyz must say the store lost what it held, not 200 while every call fails.
 */

const MARKETO = {
  clientId: "cid",
  clientSecret: "secret",
  restEndpoint: "https://123-ABC-456.mktorest.com/rest",
};

describe("/readyz with the credential store in Redis", () => {
  let redis: RedisProcess;
  let store: RedisCredentialStore;
  let http: HttpServerHandle;
  let readyz: string;

  const flush = async () => {
    const admin = newRedisClient(redis.url, 2_000);
    await admin.flushall();
    admin.disconnect();
  };
  const configure = () => store.update("default", (s) => ({ ...s, marketo: MARKETO }));
  const probe = async () => {
    const res = await raw(readyz, { method: "GET" });
    return { status: res.status, body: JSON.parse(res.text) as { checks: Record<string, string> } };
  };

  beforeAll(async () => {
    redis = await startRedis();
    store = new RedisCredentialStore({ url: redis.url, key: randomBytes(32) });
    const workspace = new Workspace({ env: {}, store, state: new MemoryState() });
    http = await startHttpServer({ workspace: () => workspace });
    readyz = http.url.replace(/\/mcp$/, "/readyz");
  });
  afterAll(async () => {
    await http.close();
    await store.close();
    await redis.stop();
  });

  it("a fresh, empty store is ready (nothing was configured, nothing was lost)", async () => {
    expect((await probe()).status).toBe(200);
  });

  it("a store that came back empty is not ready until configured again", async () => {
    await configure();
    expect((await probe()).status).toBe(200);
    await flush();
    const lost = await probe();
    expect(lost.status).toBe(503);
    expect(lost.body.checks.credential_store).toBe("failed: store_lost");
    await expect(credentialStoreReady(store, "default")).rejects.toThrow(StoreLostError);
    await expect(credentialStoreReady(store, "default")).rejects.toThrow(/configure the workspaces again/);
    await configure();
    expect((await probe()).status).toBe(200);
  });

  it("removing a connection is not a loss (the document stays, without it)", async () => {
    await configure();
    await store.update("default", (s) => ({ ...s, marketo: undefined }));
    expect((await probe()).status).toBe(200);
  });

  it("one workspace deleted by hand while others remain is not a lost store (every replica would go)", async () => {
    await configure();
    await store.update("acme", (s) => ({ ...s, marketo: MARKETO }));
    expect((await probe()).status).toBe(200);
    const admin = newRedisClient(redis.url, 2_000);
    await admin.del("martech-steps:credentials:acme");
    admin.disconnect();
    expect((await probe()).status).toBe(200);
    await flush();
    expect((await probe()).status).toBe(503);
    await configure();
    expect((await probe()).status).toBe(200);
  });
});
