import { createRequire } from "node:module";
import type { Cluster, Redis, RedisOptions } from "ioredis";
import { ConfigurationError, NetworkError } from "../errors.js";
import { positiveSetting } from "../settings.js";

const require = createRequire(import.meta.url);

/** The setting that bounds every Redis command (and connection attempt) of this process. */
export const REDIS_TIMEOUT_SETTING = "MARTECH_STEPS_REDIS_TIMEOUT_MS";

/** A few seconds: a healthy Redis answers in milliseconds, and a tool call's deadline is two minutes. */
export const DEFAULT_REDIS_TIMEOUT_MS = 5_000;

/** MARTECH_STEPS_REDIS_TIMEOUT_MS, or the default. */
export function redisTimeoutMs(env: Readonly<Record<string, string | undefined>> = process.env): number {
  return positiveSetting(env, REDIS_TIMEOUT_SETTING) ?? DEFAULT_REDIS_TIMEOUT_MS;
}

/** The setting that names a Redis Cluster's seed nodes, instead of REDIS_URL. */
export const REDIS_CLUSTER_SETTING = "REDIS_CLUSTER_NODES";

/** A client of one Redis or of a Redis Cluster: the commands the stores send are the same on both. */
export type RedisClient = Redis | Cluster;

/** Where the shared state lives: one Redis (a URL) or a cluster (its seed nodes). */
export type RedisTarget = { url: string } | { nodes: ClusterNode[] };

export interface ClusterNode {
  host: string;
  port: number;
}

const CLUSTER_HINT = `Set ${REDIS_CLUSTER_SETTING} to the cluster's seed nodes as host:port, separated by commas (e.g. 10.0.0.5:7000,10.0.0.6:7000; an IPv6 address in brackets, [::1]:7000), or unset it and set REDIS_URL for one Redis.`;

/**
 * REDIS_CLUSTER_NODES as seed nodes, or a ConfigurationError naming it and what is accepted. A node is
 * named in the error only by its position: the value is an operator's, but the message goes to logs.
 */
export function parseClusterNodes(value: string): ClusterNode[] {
  const items = value.split(",").map((item) => item.trim());
  return items.map((item, index) => {
    const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(item);
    const port = Number(match?.[2]);
    if (!match || port < 1 || port > 65_535) {
      const which = item === "" ? "is empty" : "is not host:port";
      throw new ConfigurationError(
        `${REDIS_CLUSTER_SETTING}: node ${index + 1} of ${items.length} ${which}.`,
        {
          hint: CLUSTER_HINT,
        },
      );
    }
    return { host: (match[1] as string).replace(/^\[|\]$/g, ""), port };
  });
}

/** Where the environment puts the shared state: REDIS_CLUSTER_NODES, REDIS_URL, or nowhere (memory). */
export function redisTarget(env: Readonly<Record<string, string | undefined>>): RedisTarget | undefined {
  const nodes = env[REDIS_CLUSTER_SETTING]?.trim();
  const url = env.REDIS_URL?.trim();
  if (nodes && url) {
    throw new ConfigurationError(`Both ${REDIS_CLUSTER_SETTING} and REDIS_URL are set.`, {
      hint: `Set ${REDIS_CLUSTER_SETTING} for a Redis Cluster or REDIS_URL for one Redis, not both.`,
    });
  }
  if (nodes) return { nodes: parseClusterNodes(nodes) };
  return url ? { url } : undefined;
}

/**
 * A Redis client, with ioredis loaded on first use: a process without REDIS_URL (stdio, the CLI, one
 * server on its own) never pays for loading it (tens of milliseconds of start-up, more on a busy machine).
 *
 * Every command is bounded by `timeoutMs`: a frozen Redis (a stopped process, a network partition)
 * accepts the TCP connection in the kernel and then never answers, so without `commandTimeout` a
 * command waits forever, in the offline queue or on the socket (https://github.com/redis/ioredis#auto-reconnect).
 * `connectTimeout` bounds a connection attempt to a host that drops packets; few retries make a Redis
 * that refuses connections fail in a few seconds too. A frozen peer never acknowledges the end of the
 * connection either: ioredis then destroys the socket after `disconnectTimeout` (2 s by default, each
 * client in turn), which kept a failed CLI command alive seconds after it had said so.
 *
 * A target with nodes gets ioredis' Cluster client (https://github.com/redis/ioredis#cluster), each node's
 * connection bounded the same way. A command the cluster cannot place yet (its slots being refreshed, a
 * master failing over: CLUSTERDOWN, TRYAGAIN) waits in the cluster's own queue, which `commandTimeout`
 * does not bound: the stores bound every command themselves too (`bounded`).
 */
export function newRedisClient(
  target: RedisTarget | string | undefined,
  timeoutMs: number,
  options: RedisOptions = {},
): RedisClient {
  const { Redis, Cluster } = require("ioredis") as typeof import("ioredis");
  const bounded: RedisOptions = {
    maxRetriesPerRequest: 3,
    ...options,
    commandTimeout: timeoutMs,
    connectTimeout: timeoutMs,
    disconnectTimeout: 200,
  };
  const given = typeof target === "string" ? { url: target } : target;
  let client: RedisClient;
  if (given && "nodes" in given) {
    const { lazyConnect, ...redisOptions } = bounded;
    client = new Cluster(given.nodes, {
      redisOptions,
      ...(lazyConnect === undefined ? {} : { lazyConnect }),
      // A node gone: retry the cluster's connection a few times, then fail the commands queued.
      clusterRetryStrategy: (times) => (times > 10 ? null : Math.min(100 * times, 1_000)),
      retryDelayOnClusterDown: 200,
      retryDelayOnTryAgain: 200,
      slotsRefreshTimeout: timeoutMs,
    });
  } else {
    try {
      client = given ? new Redis(given.url, bounded) : new Redis(bounded);
    } catch {
      // ioredis parses the URL in its constructor: Node's "Invalid URL" error carries the whole text as
      // `input`, password included, and the CLI's log of an unexpected failure printed it. Not the cause.
      throw new ConfigurationError("REDIS_URL is not a Redis URL this server can read.", {
        hint: "Set it to redis://[user:password@]host[:port][/db] (rediss:// for TLS); a password with @ : / [ ] or % in it is percent-encoded.",
      });
    }
  }
  opened.add(client);
  client.once("end", () => opened.delete(client));
  return client;
}

/**
 * Resolves as `work` does, or rejects with a "Command timed out" error after twice `timeoutMs`: the
 * outer bound of a command that waits where `commandTimeout` does not reach (a cluster's own queue while
 * it has no node for the key's slot). Twice: a command redirected to another node (MOVED, ASK) may
 * take two attempts, each bounded by `commandTimeout`.
 */
export async function bounded<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("Command timed out")), timeoutMs * 2);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The error every Redis-backed store throws when a command fails: what could not be done, and what to
 * check. It names neither the URL nor a password (REDIS_URL may carry credentials); a command that did not
 * answer in time names the setting that bounds it.
 */
export function redisError(
  what: string,
  cause: unknown,
  fallback: string,
  timeoutMs: number,
  change = false,
): NetworkError {
  const timedOut = cause instanceof Error && /timed out|ETIMEDOUT/i.test(cause.message);
  const check = timedOut
    ? `Redis did not answer within ${timeoutMs} ms (${REDIS_TIMEOUT_SETTING}): check that the Redis at REDIS_URL is running and reachable (with REDIS_CLUSTER_NODES, every node of the cluster): not stopped, not behind a partition.`
    : "Check that Redis at REDIS_URL (or the cluster at REDIS_CLUSTER_NODES) is reachable.";
  // A timed-out command was sent all the same: a Redis that was only frozen runs it when it wakes up.
  const sent =
    timedOut && change
      ? " The change was sent before the time ran out: Redis may still apply it when it answers again, so check before relying on either outcome."
      : "";
  return new NetworkError(`${what}${timedOut ? " in time" : ""}.`, {
    hint: `${check}${sent} ${fallback}`,
    cause,
    retryable: true,
  });
}

/**
 * The clients this process opened and has not closed. A client reconnects for ever (ioredis's default
 * retry strategy), so one left open keeps the process alive: a command that failed at start-up printed its
 * error and never exited. The CLI closes them all when a command fails (closeOpenRedisClients).
 */
const opened = new Set<RedisClient>();

/** Closes every client this process opened and has not closed. */
export async function closeOpenRedisClients(): Promise<void> {
  await Promise.allSettled([...opened].map((client) => closeRedisClient(client)));
}

/** Closes a client this process opened: QUIT would wait in the offline queue of one that never connected. */
export async function closeRedisClient(redis: RedisClient): Promise<void> {
  opened.delete(redis);
  if (redis.status !== "ready") {
    redis.disconnect();
    return;
  }
  try {
    await redis.quit();
  } catch {
    redis.disconnect();
  }
}
