import { Cluster, Redis } from "ioredis";
import type { RedisTarget } from "../../src/state/ioredis.js";
import { parseClusterNodes } from "../../src/state/ioredis.js";
import { type RedisClusterProcess, startRedisCluster } from "./redis-cluster.js";

/**
 * The Redis deployments the shared-state tests run on: one Redis (REDIS_URL) and a three-master Redis
 * Cluster (TEST_REDIS_CLUSTER_NODES, which .ci/run starts, or one this file starts on free ports).
 *
 * The cluster's cases are not collected at all with MARTECH_TEST_CLUSTER=off: .ci/run runs them on its
 * first Node only (they take minutes), and under CI a skipped test fails the run. Without REDIS_URL the
 * single cases are skipped off CI as before; without redis-server the cluster's fail to start.
 */
export type RedisBackendName = "single" | "cluster";

export const REDIS_BACKENDS: RedisBackendName[] =
  process.env.MARTECH_TEST_CLUSTER === "off" ? ["single"] : ["single", "cluster"];

/** Whether a backend's cases can run here: the single Redis needs REDIS_URL. */
export function backendAvailable(name: RedisBackendName): boolean {
  return name === "cluster" || Boolean(process.env.REDIS_URL);
}

export interface RedisBackend {
  name: RedisBackendName;
  /** The variables a server process is given: REDIS_URL or REDIS_CLUSTER_NODES. */
  env: Record<string, string>;
  target: RedisTarget;
  /** A client of the test's own, to look at what the stores wrote (closed by `close`). */
  raw(): Redis | Cluster;
  /** Closes a client `raw` gave. */
  release(client: Redis | Cluster): Promise<void>;
  cluster?: RedisClusterProcess;
  close(): Promise<void>;
}

/** Opens a backend for a file's tests (in beforeAll); `close` in afterAll. */
export async function openRedisBackend(name: RedisBackendName): Promise<RedisBackend> {
  const clients: (Redis | Cluster)[] = [];
  const keep = <T extends Redis | Cluster>(client: T): T => {
    client.on("error", () => undefined);
    clients.push(client);
    return client;
  };
  const release = async (client: Redis | Cluster) => {
    clients.splice(clients.indexOf(client), 1);
    client.disconnect();
  };
  const closeClients = () => {
    for (const client of clients.splice(0)) client.disconnect();
  };
  if (name === "single") {
    const url = process.env.REDIS_URL as string;
    return {
      name,
      env: { REDIS_URL: url },
      target: { url },
      raw: () => keep(new Redis(url)),
      release,
      close: async () => closeClients(),
    };
  }
  const cluster = await startRedisCluster();
  const nodes = parseClusterNodes(cluster.nodes);
  return {
    name,
    env: { REDIS_CLUSTER_NODES: cluster.nodes },
    target: { nodes },
    raw: () => keep(new Cluster(nodes)),
    release,
    cluster,
    close: async () => {
      closeClients();
      await cluster.stop();
    },
  };
}
