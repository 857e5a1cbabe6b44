import { type ChildProcess, execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import { Redis } from "ioredis";
import { freePort } from "./free-port.js";
import { tempDir } from "./temp.js";

/** One master of a cluster this test started: it can be frozen (SIGSTOP), killed and started again. */
export interface ClusterMaster {
  port: number;
  freeze(): void;
  thaw(): void;
  kill(): Promise<void>;
  /** Starts the killed master again from its nodes.conf (and its append-only file, with `persist`). */
  restart(): Promise<void>;
}

/** A Redis Cluster for a test: its seed nodes, as REDIS_CLUSTER_NODES names them. */
export interface RedisClusterProcess {
  /** host:port,host:port,… */
  nodes: string;
  /** The masters, when this test started the cluster (empty for one given by TEST_REDIS_CLUSTER_NODES). */
  masters: ClusterMaster[];
  /** Resolves once every master says cluster_state:ok. */
  whole(): Promise<void>;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** cluster-node-timeout: how long until the others mark a silent master failed. Default 2 s. */
  nodeTimeoutMs?: number;
  /** An append-only file written on every write (appendfsync always), so a killed master loses nothing. */
  persist?: boolean;
}

const run = promisify(execFile);

interface NodePorts {
  port: number;
  /** The cluster bus (port + 10000 by default, which may be taken or past 65535: given explicitly). */
  bus: number;
}

function startNode({ port, bus }: NodePorts, dir: string, options: ClusterOptions): Promise<ChildProcess> {
  const persistence = options.persist
    ? ["--appendonly", "yes", "--appendfsync", "always", "--appendfilename", `append-${port}.aof`]
    : ["--appendonly", "no"];
  const child = spawn(
    "redis-server",
    [
      ...["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", ""],
      ...[
        "--cluster-enabled",
        "yes",
        "--cluster-config-file",
        `nodes-${port}.conf`,
        "--cluster-port",
        String(bus),
      ],
      ...["--cluster-node-timeout", String(options.nodeTimeoutMs ?? 2_000)],
      ...["--appenddirname", `aof-${port}`, ...persistence],
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 10_000);
    child.stdout?.on("data", (chunk) => {
      out += chunk;
      if (/Ready to accept connections/.test(out)) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
  });
}

/** Polls every node's CLUSTER INFO (bounded: 150 tries, 100 ms apart) until all say cluster_state:ok. */
async function waitWhole(ports: number[]): Promise<void> {
  const clients = ports.map(
    (port) => new Redis({ port, host: "127.0.0.1", lazyConnect: true, maxRetriesPerRequest: 0 }),
  );
  for (const client of clients) client.on("error", () => undefined);
  try {
    for (let i = 0; i < 150; i++) {
      const infos = await Promise.all(
        clients.map((client) => (client.cluster("INFO") as Promise<string>).catch(() => "")),
      );
      if (infos.every((info) => info.includes("cluster_state:ok"))) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error("the Redis Cluster did not reach cluster_state:ok in 15 s");
  } finally {
    for (const client of clients) client.disconnect();
  }
}

function master(ports: NodePorts, dir: string, options: ClusterOptions, first: ChildProcess): ClusterMaster {
  let child = first;
  const signal = (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name);
  };
  const kill = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      signal("SIGKILL");
      signal("SIGCONT");
    });
  return {
    port: ports.port,
    freeze: () => signal("SIGSTOP"),
    thaw: () => signal("SIGCONT"),
    kill,
    restart: async () => {
      await kill();
      child = await startNode(ports, dir, options);
    },
  };
}

/**
 * Three masters on free loopback ports, no replicas, in a temp folder of the test file
 * (`redis-cli --cluster create … --cluster-replicas 0 --cluster-yes`); or the cluster CI started, when
 * TEST_REDIS_CLUSTER_NODES names it (then `masters` is empty: a test that stops masters starts its own).
 */
export async function startRedisCluster(
  options: ClusterOptions & { own?: boolean } = {},
): Promise<RedisClusterProcess> {
  const given = process.env.TEST_REDIS_CLUSTER_NODES?.trim();
  if (given && !options.own) {
    const ports = given.split(",").map((node) => Number(node.split(":").at(-1)));
    return { nodes: given, masters: [], whole: () => waitWhole(ports), stop: async () => undefined };
  }
  const dir = await tempDir("redis-cluster-");
  const nodes: NodePorts[] = [];
  for (let i = 0; i < 3; i++) nodes.push({ port: await freePort(), bus: await freePort() });
  const ports = nodes.map((node) => node.port);
  const children = await Promise.all(nodes.map((node) => startNode(node, dir, options)));
  const masters = nodes.map((node, i) => master(node, dir, options, children[i] as ChildProcess));
  try {
    await run(
      "redis-cli",
      [
        "--cluster",
        "create",
        ...ports.map((port) => `127.0.0.1:${port}`),
        "--cluster-replicas",
        "0",
        "--cluster-yes",
      ],
      { timeout: 20_000 },
    );
    await waitWhole(ports);
  } catch (error) {
    await Promise.all(masters.map((m) => m.kill()));
    throw error;
  }
  return {
    nodes: ports.map((port) => `127.0.0.1:${port}`).join(","),
    masters,
    whole: () => waitWhole(ports),
    stop: async () => {
      await Promise.all(masters.map((m) => m.kill()));
    },
  };
}
