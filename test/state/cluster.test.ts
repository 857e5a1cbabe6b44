import { randomBytes, randomUUID } from "node:crypto";
import type { Cluster } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisCredentialStore } from "../../src/auth/redis-credential-store.js";
import { ConfigurationError, NetworkError } from "../../src/errors.js";
import { RedisResultStore } from "../../src/results/redis.js";
import { createState } from "../../src/state/index.js";
import { bounded, parseClusterNodes, redisError, redisTarget } from "../../src/state/ioredis.js";
import { sharedKey } from "../../src/state/keys.js";
import { RedisState } from "../../src/state/redis.js";
import { openRedisBackend, REDIS_BACKENDS, type RedisBackend } from "../helpers/redis-backends.js";

describe("REDIS_CLUSTER_NODES", () => {
  it("reads host:port seed nodes, IPv6 in brackets", () => {
    expect(parseClusterNodes("10.0.0.5:7000, redis-b.internal:7001,[::1]:7002")).toEqual([
      { host: "10.0.0.5", port: 7000 },
      { host: "redis-b.internal", port: 7001 },
      { host: "::1", port: 7002 },
    ]);
    expect(redisTarget({ REDIS_CLUSTER_NODES: "127.0.0.1:7000" })).toEqual({
      nodes: [{ host: "127.0.0.1", port: 7000 }],
    });
    expect(redisTarget({ REDIS_URL: "redis://127.0.0.1:6379" })).toEqual({ url: "redis://127.0.0.1:6379" });
    expect(redisTarget({})).toBeUndefined();
  });

  it("refuses a malformed value naming the setting, the node's position and what is accepted, never the value", () => {
    for (const [value, words] of [
      ["redis://:pw-canary@10.0.0.5:7000", /node 1 of 1 is not host:port/],
      ["10.0.0.5:7000,", /node 2 of 2 is empty/],
      ["10.0.0.5:70000", /node 1 of 1 is not host:port/],
      ["10.0.0.5", /node 1 of 1 is not host:port/],
    ] as const) {
      const error = (() => {
        try {
          createState({ REDIS_CLUSTER_NODES: value });
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(ConfigurationError);
      const text = `${(error as ConfigurationError).message} ${(error as ConfigurationError).hint}`;
      expect(text).toMatch(/^REDIS_CLUSTER_NODES: /);
      expect(text).toMatch(words);
      expect(text).toMatch(/host:port, separated by commas/);
      expect(text).not.toContain("pw-canary");
    }
  });

  it("bounds a command that waits where commandTimeout does not reach, as a timed-out command", async () => {
    // A cluster with no node for a key's slot keeps the command in its own queue: the stores bound it.
    const error = await bounded(new Promise<never>(() => undefined), 20).catch((e: unknown) => e);
    const wrapped = redisError("The shared state in Redis could not admit a call", error, "", 20);
    expect(wrapped).toBeInstanceOf(NetworkError);
    expect(wrapped.message).toMatch(/^The shared state in Redis could not admit a call in time\./);
    expect(wrapped.message).toMatch(/did not answer within 20 ms \(MARTECH_STEPS_REDIS_TIMEOUT_MS\)/);
    expect(await bounded(Promise.resolve("answered"), 20)).toBe("answered");
  });

  it("refuses REDIS_CLUSTER_NODES and REDIS_URL together", () => {
    expect(() =>
      createState({ REDIS_CLUSTER_NODES: "127.0.0.1:7000", REDIS_URL: "redis://127.0.0.1" }),
    ).toThrow(/Both REDIS_CLUSTER_NODES and REDIS_URL are set/);
  });
});

// Collected only where the cluster's cases run (test/helpers/redis-backends.ts): not skipped elsewhere, absent.
const describeCluster = REDIS_BACKENDS.includes("cluster") ? describe : () => undefined;
describeCluster("the stores on a three-master Redis Cluster", () => {
  let backend: RedisBackend;
  const prefix = `martech-test:${randomUUID()}:`;
  const closing: { close(): Promise<void> }[] = [];

  beforeAll(async () => {
    backend = await openRedisBackend("cluster");
  }, 60_000);
  afterAll(async () => {
    for (const store of closing) await store.close();
    await backend?.close();
  });

  it("admits and finishes calls of many instances, their keys spread over the masters (no CROSSSLOT)", async () => {
    const state = new RedisState({ target: backend.target, keyPrefix: prefix });
    closing.push(state);
    const instances = Array.from(
      { length: 12 },
      (_, i) => `${i}-abc-${randomUUID().slice(0, 6)}.mktorest.com`,
    );
    for (const instance of instances) {
      const call = {
        windowKey: sharedKey(`marketo:${instance}`, "window"),
        limit: 1,
        windowMs: 60_000,
        slotsKey: sharedKey(`marketo:${instance}`, "inflight"),
        maxConcurrent: 1,
        leaseMs: 5_000,
        dailyKey: sharedKey(`marketo:${instance}`, "daily", "2026-12-02"),
        dailyQuota: 10,
        dayTtlMs: 60_000,
        id: randomUUID(),
      };
      expect(await state.admitCall(call)).toEqual({ admitted: true, callsToday: 1 });
      await state.finishCall(call);
      expect(await state.admitCall({ ...call, id: randomUUID() })).toMatchObject({ limit: "rate_window" });
    }
    // The twelve instances' keys did land on more than one master: the scripts ran where each key lives.
    const raw = backend.raw() as Cluster;
    await raw.ping();
    expect(raw.nodes("master")).toHaveLength(3);
    const holders = await Promise.all(
      raw.nodes("master").map(async (node) => (await node.keys(`${prefix}*`)).length),
    );
    expect(holders.filter((n) => n > 0).length).toBeGreaterThan(1);
    await state.ping();
  });

  it("keeps results and credentials, and starts over a damaged document in one script", async () => {
    const results = new RedisResultStore(
      { ttlMs: 60_000, perWorkspace: 2 },
      { target: backend.target, keyPrefix: prefix },
    );
    const key = randomBytes(32);
    const store = new RedisCredentialStore({ target: backend.target, key, keyPrefix: prefix });
    closing.push(results, store);
    const page = (n: number) => ({ json: JSON.stringify([{ n }]), items: 1 });
    const meta = { tool: "marketo_api_call", kind: "records", columns: ["n"] };
    const kept = [];
    for (let i = 0; i < 3; i++)
      kept.push(await results.put("alpha", { meta, pages: [page(i), page(i + 1)] }));
    // Past the count, the oldest went: evicted by the script, on the workspace's node.
    expect(await results.meta("alpha", kept[0]!.id)).toBeUndefined();
    expect(await results.page("alpha", kept[2]!.id, 1)).toBe(JSON.stringify([{ n: 3 }]));

    await store.update("default", (s) => ({ ...s, googleClient: { clientId: "c", clientSecret: "s" } }));
    const raw = backend.raw();
    await raw.set(`${prefix}broken`, "{not json");
    const started = await store.updateOrStartOver("broken", (s) => s);
    expect(started.lost?.keptAt).toMatch(new RegExp(`^\\{${prefix}broken\\}\\.corrupt-`));
    expect(await raw.get(started.lost!.keptAt)).toBe("{not json");
    const other = new RedisCredentialStore({ target: backend.target, key, keyPrefix: prefix });
    closing.push(other);
    expect((await other.read("default")).googleClient?.clientId).toBe("c");
  });
});
