import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { RedisCredentialStore } from "../../src/auth/redis-credential-store.js";
import { type MarketoSandbox, startMarketoSandbox } from "../../src/sandbox/marketo/index.js";
import { parseClusterNodes, type RedisTarget } from "../../src/state/ioredis.js";
import { hashTag } from "../../src/state/keys.js";
import { freshHome } from "../helpers/cli.js";
import { type RawResponse, raw } from "../helpers/raw-http.js";
import { REDIS_BACKENDS } from "../helpers/redis-backends.js";
import { type ClusterMaster, type RedisClusterProcess, startRedisCluster } from "../helpers/redis-cluster.js";
import { answered, type Replica, readLead, startReplica } from "../helpers/replica-server.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The master that holds a key's slot (CLUSTER KEYSLOT, CLUSTER SLOTS), asked of the first node. */
async function masterOf(cluster: RedisClusterProcess, key: string): Promise<ClusterMaster> {
  const first = cluster.masters[0] as ClusterMaster;
  const client = new Redis({ port: first.port, host: "127.0.0.1" });
  try {
    const slot = Number(await client.cluster("KEYSLOT", key));
    const ranges = await client.cluster("SLOTS");
    const owner = ranges.find(([from, to]) => slot >= from && slot <= to)?.[2]?.[1];
    const master = cluster.masters.find((m) => m.port === owner);
    if (!master) throw new Error(`no master holds slot ${slot}`);
    return master;
  } finally {
    client.disconnect();
  }
}

interface Readiness {
  status: number;
  redis: string;
}

async function readiness(replica: Replica): Promise<Readiness> {
  const response = await raw(replica.url.replace(/\/mcp$/, "/readyz"), { method: "GET" });
  return { status: response.status, redis: (response.json() as { checks: { redis: string } }).checks.redis };
}

/** Polls /readyz (100 ms apart, at most `tries` times) until `wanted` holds; the last answer either way. */
async function readinessUntil(
  replica: Replica,
  wanted: (r: Readiness) => boolean,
  tries = 100,
): Promise<Readiness> {
  let last = await readiness(replica);
  for (let i = 0; i < tries && !wanted(last); i++) {
    await sleep(100);
    last = await readiness(replica);
  }
  return last;
}

/**
 * The master frozen (SIGSTOP), then killed, then started again from its files; what /readyz said at each
 * stage (polled until it says it, or its last answer).
 */
async function outage(cluster: RedisClusterProcess, stopped: ClusterMaster, replicas: Replica[]) {
  stopped.freeze();
  const frozen = await readinessUntil(replicas[0]!, (r) => r.status === 503);
  await sleep(1_000);
  await stopped.kill();
  const failed = await readinessUntil(replicas[1]!, (r) => /cluster_state fail/.test(r.redis));
  await stopped.restart();
  await cluster.whole();
  const whole = await readinessUntil(replicas[0]!, (r) => r.status === 200);
  return { frozen, failed, whole };
}

/** Stores a document per workspace (its own name as a client id), each on the master of its key's slot. */
async function writeCredentials(target: RedisTarget, key: Buffer, workspaces: string[]): Promise<void> {
  const store = new RedisCredentialStore({ target, key });
  try {
    for (const workspace of workspaces)
      await store.update(workspace, (s) => ({
        ...s,
        googleClient: { clientId: workspace, clientSecret: "s" },
      }));
  } finally {
    await store.close();
  }
}

/** What a store opened now reads back of each workspace's client id. */
async function readCredentials(target: RedisTarget, key: Buffer, workspaces: string[]): Promise<string[]> {
  const store = new RedisCredentialStore({ target, key });
  try {
    const read = [];
    for (const workspace of workspaces) read.push((await store.read(workspace)).googleClient?.clientId ?? "");
    return read;
  } finally {
    await store.close();
  }
}

/** The error code of an isError answer, or "result" for an answer with the lead. */
function outcome(response: RawResponse): string {
  if (answered(response)) return "result";
  const message = response.json() as { result?: { _meta?: Record<string, { error?: string }> } };
  return message?.result?._meta?.["martech-steps/error"]?.error ?? `untyped ${response.status}`;
}

// A master of the cluster stopped during a burst through two server replicas: it freezes (SIGSTOP, as a
// partition looks), then dies (SIGKILL), then starts again from its nodes.conf and its append-only file.
// Run alone when measuring: it starts its own cluster, since it stops one of its masters.
const describeCluster = REDIS_BACKENDS.includes("cluster") ? describe : () => undefined;
describeCluster("a Redis Cluster master stopped during a burst", () => {
  const replicas: Replica[] = [];
  let cluster: RedisClusterProcess | undefined;
  let sandbox: MarketoSandbox | undefined;
  afterAll(async () => {
    for (const { child } of replicas) child.kill("SIGKILL");
    await sandbox?.close();
    await cluster?.stop();
  });

  it("calls end typed within their deadline, none twice against the window, nothing stored lost, /readyz says what is wrong", async () => {
    cluster = await startRedisCluster({ own: true, persist: true, nodeTimeoutMs: 1_500 });
    const windowMs = 2_000;
    const limit = 40;
    sandbox = await startMarketoSandbox({
      rateLimit: limit,
      rateWindowMs: windowMs,
      maxConcurrent: 10,
      latencyMs: 10,
    });
    const target = { nodes: parseClusterNodes(cluster.nodes) };

    // Credentials of many workspaces, so that every master holds some, written before the failure.
    const key = randomBytes(32);
    const workspaces = Array.from({ length: 12 }, (_, i) => `tenant-${i}`);
    await writeCredentials(target, key, workspaces);

    const deadlineMs = 15_000;
    const env = {
      MARTECH_STEPS_HOME: await freshHome("martech-failover-"),
      REDIS_CLUSTER_NODES: cluster.nodes,
      MARTECH_STEPS_REDIS_TIMEOUT_MS: "1000",
      MARTECH_STEPS_DEADLINE_MS: String(deadlineMs),
      MARKETO_CLIENT_ID: sandbox.clientId,
      MARKETO_CLIENT_SECRET: sandbox.clientSecret,
      MARKETO_REST_ENDPOINT: sandbox.restEndpoint,
      MARKETO_WINDOW_MS: String(windowMs),
      MARKETO_CALLS_PER_WINDOW: String(limit),
    };
    replicas.push(...(await Promise.all([startReplica(env), startReplica(env)])));
    expect((await readiness(replicas[0]!)).redis).toBe("ok");

    // The master that holds this Marketo instance's window, slots and day.
    const instance = new URL(sandbox.restEndpoint).host.toLowerCase();
    const stopped = await masterOf(cluster, `${hashTag(`marketo:${instance}`)}:window`);

    const total = 160;
    const started = performance.now();
    const calls = Array.from({ length: total }, (_, i) => {
      const at = performance.now();
      return readLead(replicas[i % 2]!.url, i).then((response) => ({ response, ms: performance.now() - at }));
    });
    while (sandbox.stats().apiCalls < 30 && performance.now() - started < 20_000) await sleep(20);

    const { frozen, failed, whole } = await outage(cluster, stopped, replicas);

    const settled = await Promise.all(calls);
    // After the cluster is whole again, a new burst is served.
    const after = await Promise.all(
      Array.from({ length: 20 }, (_, i) => readLead(replicas[i % 2]!.url, 1_000 + i)),
    );

    // /readyz said what was wrong while it was.
    expect(frozen).toEqual({ status: 503, redis: expect.stringMatching(/^failed: 2 of 3 masters answer/) });
    expect(failed).toEqual({ status: 503, redis: expect.stringMatching(/cluster_state fail/) });
    expect(whole).toEqual({ status: 200, redis: "ok" });

    // Every call ended within its deadline (the server's), with the lead or a typed error.
    const counts: Record<string, number> = {};
    for (const { response } of settled) counts[outcome(response)] = (counts[outcome(response)] ?? 0) + 1;
    expect(
      Object.keys(counts).every((o) => o === "result" || /^[a-z_]+$/.test(o)),
      JSON.stringify(counts),
    ).toBe(true);
    expect(counts.result).toBeGreaterThanOrEqual(30);
    expect(Math.max(...settled.map((s) => s.ms))).toBeLessThan(deadlineMs + 5_000);
    expect(after.every(answered)).toBe(true);

    // No call was sent twice, none past the window: the sandbox counted exactly the calls answered with a
    // lead (a call whose admission failed was never sent; one admitted and sent got its answer).
    const stats = sandbox.stats();
    expect(stats.rejected["606"]).toBe(0);
    expect(stats.rejected["615"]).toBe(0);
    expect(stats.apiCalls).toBe((counts.result ?? 0) + after.length);
    expect(stats.identityRequests).toBe(1);

    // Nothing stored was lost: every workspace reads back, on a store opened after the failure.
    expect(await readCredentials(target, key, workspaces)).toEqual(workspaces);
  }, 120_000);
});
