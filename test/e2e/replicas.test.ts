import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type MarketoSandbox, startMarketoSandbox } from "../../src/sandbox/marketo/index.js";
import { freshHome } from "../helpers/cli.js";
import { type RawResponse, raw } from "../helpers/raw-http.js";
import {
  backendAvailable,
  openRedisBackend,
  REDIS_BACKENDS,
  type RedisBackend,
} from "../helpers/redis-backends.js";
import { answered, metric, type Replica, readLead, startReplica } from "../helpers/replica-server.js";

// Three server processes behind a load balancer (this test, round robin), one Redis (or one Redis
// Cluster), one Marketo instance.
describe.each(REDIS_BACKENDS)("three replicas on one Redis (%s) against one Marketo instance", (name) => {
  const replicas: Replica[] = [];
  const sandboxes: MarketoSandbox[] = [];
  let backend: RedisBackend;
  if (!backendAvailable(name)) {
    it.skip("needs REDIS_URL", () => undefined);
    return;
  }
  beforeAll(async () => {
    backend = await openRedisBackend(name);
  }, 60_000);

  const startAll = async (sandbox: MarketoSandbox, windowMs: number, callsPerWindow: number) => {
    const home = await freshHome("martech-replicas-");
    const env = {
      MARTECH_STEPS_HOME: home,
      ...backend.env,
      MARKETO_CLIENT_ID: sandbox.clientId,
      MARKETO_CLIENT_SECRET: sandbox.clientSecret,
      MARKETO_REST_ENDPOINT: sandbox.restEndpoint,
      MARKETO_WINDOW_MS: String(windowMs),
      MARKETO_CALLS_PER_WINDOW: String(callsPerWindow),
    };
    const started = await Promise.all([startReplica(env), startReplica(env), startReplica(env)]);
    replicas.push(...started);
    return started;
  };

  afterEach(() => {
    for (const { child } of replicas.splice(0)) child.kill("SIGKILL");
  });
  afterAll(async () => {
    for (const sandbox of sandboxes) await sandbox.close();
    await backend?.close();
  });

  it("a burst through three, one killed midway: no 606/615, an answer for every call, throughput within 10% of the window", async () => {
    const windowMs = 2_000;
    const limit = 40;
    const sandbox = await startMarketoSandbox({
      rateLimit: limit,
      rateWindowMs: windowMs,
      maxConcurrent: 10,
      latencyMs: 10,
    });
    sandboxes.push(sandbox);
    const [a, b, c] = await startAll(sandbox, windowMs, limit);
    const lb = [a, b, c] as Replica[];

    // The sandbox's count of admitted calls over time (it runs in this process), and the kill.
    const arrivals: number[] = [];
    let seen = 0;
    let killedAt: number | undefined;
    const poll = setInterval(() => {
      const now = performance.now();
      const calls = sandbox.stats().apiCalls;
      while (seen < calls) {
        arrivals.push(now);
        seen += 1;
      }
      if (killedAt === undefined && calls >= 100) {
        killedAt = calls;
        c!.child.kill("SIGKILL");
      }
    }, 5);

    const total = 240;
    const calls = Array.from({ length: total }, (_, i) => ({
      replica: i % 3,
      answer: readLead(lb[i % 3]!.url, i),
    }));
    const settled = await Promise.allSettled(calls.map((call) => call.answer));
    clearInterval(poll);
    const stats = sandbox.stats();

    // Every call has an answer: the survivors' are all results; the killed replica's are results
    // (before the kill) or a connection error (its process is gone), never a hang.
    const survivors = settled.filter((_, i) => calls[i]!.replica !== 2);
    expect(survivors.every((s) => s.status === "fulfilled" && answered(s.value))).toBe(true);
    const killed = settled.filter((_, i) => calls[i]!.replica === 2);
    const failed = killed.filter((s) => s.status === "rejected");
    expect(killedAt).toBeDefined();
    expect(failed.length).toBeGreaterThan(0);
    for (const s of failed)
      expect(String((s as PromiseRejectedResult).reason)).toMatch(/socket hang up|ECONNRESET|ECONNREFUSED/);
    expect(
      killed
        .filter((s) => s.status === "fulfilled")
        .every((s) => answered((s as PromiseFulfilledResult<RawResponse>).value)),
    ).toBe(true);

    // Together within ONE instance's limits.
    expect(stats.rejected["606"]).toBe(0);
    expect(stats.rejected["615"]).toBe(0);
    expect(stats.maxInFlight).toBeLessThanOrEqual(10);
    expect(stats.identityRequests).toBe(1);

    // Throughput in steady state. Calls arrive in bursts, one per window (the window refills as the
    // previous burst's calls leave it). Counted by time, not by position: a call the killed replica was
    // admitted for but never sent keeps its place in the window (nobody can know whether Marketo saw
    // it), so one burst may hold a call less, and every later call's position shifts by one.
    const bursts: number[][] = [];
    for (const t of arrivals) {
      const last = bursts.at(-1);
      if (last && t - last.at(-1)! < windowMs / 4) last.push(t);
      else bursts.push([t]);
    }
    expect(bursts.length).toBeGreaterThanOrEqual(4);
    // Every burst but the last (maybe partial), over the time from the first burst's start to the last's.
    const steady = bursts.slice(0, -1).reduce((n, burst) => n + burst.length, 0);
    const perWindow = (steady / (bursts.at(-1)![0]! - bursts[0]![0]!)) * windowMs;
    expect(perWindow).toBeGreaterThanOrEqual(limit * 0.9);
    expect(perWindow).toBeLessThanOrEqual(limit * 1.02);
  }, 90_000);

  it("1,000 cold calls across three replicas make one token request", async () => {
    const sandbox = await startMarketoSandbox({
      rateLimit: 100_000,
      rateWindowMs: 20_000,
      maxConcurrent: 10,
    });
    sandboxes.push(sandbox);
    const lb = await startAll(sandbox, 20_000, 100_000);
    const settled = await Promise.all(Array.from({ length: 1_000 }, (_, i) => readLead(lb[i % 3]!.url, i)));
    expect(settled.every(answered)).toBe(true);
    const stats = sandbox.stats();
    expect(stats.apiCalls).toBe(1_000);
    expect(stats.identityRequests).toBe(1);
    expect(stats.rejected["615"]).toBe(0);
    // Each replica's /metrics says the same: one token fetched among the three.
    const fetched = await Promise.all(
      lb.map(async ({ url }) =>
        metric(
          (await raw(url.replace(/\/mcp$/, "/metrics"), { method: "GET" })).text,
          "martech_steps_tokens_fetched_total",
        ),
      ),
    );
    expect(fetched.reduce((sum, n) => sum + n, 0)).toBe(1);
  }, 90_000);
});
