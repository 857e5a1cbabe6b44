import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { RedisCredentialStore } from "../../src/auth/redis-credential-store.js";
import { ConfigurationError, NetworkError } from "../../src/errors.js";
import { RedisResultStore } from "../../src/results/redis.js";
import { createState } from "../../src/state/index.js";
import { RedisState } from "../../src/state/redis.js";
import { freshHome, run } from "../helpers/cli.js";
import { CANARY_SECRET } from "../helpers/fixtures.js";
import { type RedisProcess, startRedis } from "../helpers/redis-process.js";

/*
 * A frozen Redis (SIGSTOP: the kernel still accepts connections, nothing ever answers) is what a
 * network partition looks like. Every store and state operation must end within
 * MARTECH_STEPS_REDIS_TIMEOUT_MS with an error that says what to check; before, CLI commands hung forever.
 */

const TIMED_OUT = /did not answer within (\d+) ms \(MARTECH_STEPS_REDIS_TIMEOUT_MS\)/;

let redis: RedisProcess;

beforeAll(async () => {
  redis = await startRedis();
});

afterEach(() => redis.thaw());

afterAll(async () => {
  await redis.stop();
});

describe("the CLI with its store and state in a frozen Redis", () => {
  const env = async (extra: Record<string, string> = {}) => ({
    MARTECH_STEPS_HOME: await freshHome("martech-frozen-"),
    MARTECH_STEPS_STORE: "redis",
    REDIS_URL: redis.url,
    MARTECH_STEPS_KEY: randomBytes(32).toString("base64"),
    ...extra,
  });

  it.each([
    [["marketo", "show"], ""],
    [
      [
        "marketo",
        "configure",
        "--client-id",
        "cid",
        "--endpoint",
        "https://123-ABC-456.mktorest.com/rest",
        "--no-verify",
      ],
      CANARY_SECRET,
    ],
    [["accounts", "list"], ""],
  ])("%j exits with an error naming the setting, within the bound", async (args, stdin) => {
    const settings = await env({ MARTECH_STEPS_REDIS_TIMEOUT_MS: "1000" });
    expect((await run(["marketo", "show"], settings)).code).toBe(0);
    redis.freeze();
    const r = await run(args, settings, { stdin, timeoutMs: 20_000 });
    expect(r.code, r.stderr).toBe(1);
    // 1 s for Redis, the rest for Node's start on a busy machine; before the fix: killed at 20 s.
    expect(r.ms).toBeLessThan(8_000);
    expect(r.stderr).toMatch(/^error: The credential store in Redis could not be reached in time\./);
    expect(r.stderr).toMatch(TIMED_OUT);
    expect(r.stderr).toMatch(/check that the Redis at REDIS_URL is running and reachable/);
    expect(r.stdout + r.stderr).not.toContain(CANARY_SECRET);
  });

  it("the default bound is a few seconds", async () => {
    const settings = await env();
    redis.freeze();
    const r = await run(["marketo", "show"], settings, { timeoutMs: 25_000 });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr.match(TIMED_OUT)?.[1]).toBe("5000");
    expect(r.ms).toBeLessThan(12_000);
  });

  it("a bound that is not a positive whole number is refused", async () => {
    const r = await run(["marketo", "show"], await env({ MARTECH_STEPS_REDIS_TIMEOUT_MS: "soon" }));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/MARTECH_STEPS_REDIS_TIMEOUT_MS must be a positive whole number/);
  });
});

describe("every Redis-backed operation is bounded", () => {
  const BOUND = 300;

  async function expectBounded(operation: Promise<unknown>, what: RegExp): Promise<void> {
    const started = Date.now();
    const error = await operation.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NetworkError);
    const failure = error as NetworkError;
    expect(failure.message).toMatch(what);
    expect(failure.hint).toMatch(TIMED_OUT);
    expect(Date.now() - started).toBeLessThan(BOUND + 2_000);
  }

  it("the shared state: admission, windows, leases, values, readiness", async () => {
    const state = new RedisState({ url: redis.url, keyPrefix: "frozen:", timeoutMs: BOUND });
    await state.ping();
    redis.freeze();
    const call = {
      windowKey: "w",
      limit: 10,
      windowMs: 1000,
      slotsKey: "s",
      maxConcurrent: 2,
      leaseMs: 1000,
      dailyKey: "d",
      dailyQuota: 100,
      dayTtlMs: 60_000,
      id: "c1",
    };
    await expectBounded(state.admitCall(call), /shared state .* could not admit a call in time/);
    await expectBounded(state.windowAcquire("w", 1, 1000), /record a call/);
    await expectBounded(state.semaphoreAcquire("s", 1, 1000), /take a concurrency slot/);
    await expectBounded(state.valueGet("v"), /read a shared value/);
    await expectBounded(state.ping(), /be reached/);
    redis.thaw();
    await state.ping();
    await state.close();
  });

  it("the kept results", async () => {
    const results = new RedisResultStore(
      { ttlMs: 60_000, perWorkspace: 5 },
      { url: redis.url, keyPrefix: "frozen:", timeoutMs: BOUND },
    );
    redis.freeze();
    await expectBounded(
      results.meta("ws", "AAAAAAAAAAAAAAAAAAAAAA"),
      /kept results in Redis could not be read in time/,
    );
    await expectBounded(
      results.put("ws", {
        meta: { tool: "t", kind: "rows", columns: [] },
        pages: [{ json: "[]", items: 0 }],
      }),
      /could not be written in time/,
    );
    await results.close();
  });

  it("the credential store: read and update", async () => {
    const store = new RedisCredentialStore({
      url: redis.url,
      key: randomBytes(32),
      keyPrefix: "frozen:",
      timeoutMs: BOUND,
    });
    redis.freeze();
    await expectBounded(store.read("ws"), /credential store in Redis could not be reached in time/);
    await expectBounded(
      store.update("ws", (s) => s),
      /credential store in Redis could not be reached in time/,
    );
    await store.close();
  });

  it("a write that timed out says it may still be applied, and it is once Redis wakes up", async () => {
    const store = new RedisCredentialStore({
      url: redis.url,
      key: randomBytes(32),
      keyPrefix: "frozen-write:",
      timeoutMs: BOUND,
    });
    const saved = {
      clientId: "cid",
      clientSecret: "s",
      restEndpoint: "https://123-ABC-456.mktorest.com/rest",
    };
    // Frozen between the read and the compare-and-set: the write is on the wire when time runs out.
    const error = await store
      .update("ws", (s) => {
        redis.freeze();
        return { ...s, marketo: saved };
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).hint).toMatch(TIMED_OUT);
    expect((error as NetworkError).hint).toMatch(
      /The change was sent before the time ran out: Redis may still apply it/,
    );
    redis.thaw();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await store.read("ws")).marketo?.clientId).toBe("cid");
    // A read that timed out changed nothing: it says nothing of the kind.
    redis.freeze();
    const read = await store.read("other").catch((e: unknown) => e);
    expect((read as NetworkError).hint).not.toMatch(/change was sent/);
    redis.thaw();
    await store.close();
  });

  it("createState takes the bound from the environment", () => {
    expect(() => createState({ REDIS_URL: redis.url, MARTECH_STEPS_REDIS_TIMEOUT_MS: "0" })).toThrow(
      ConfigurationError,
    );
  });
});
