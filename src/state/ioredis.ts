import { createRequire } from "node:module";
import type { Redis as RedisClient, RedisOptions } from "ioredis";
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
 */
export function newRedisClient(
  url: string | undefined,
  timeoutMs: number,
  options: RedisOptions = {},
): RedisClient {
  const { Redis } = require("ioredis") as typeof import("ioredis");
  const bounded: RedisOptions = {
    maxRetriesPerRequest: 3,
    ...options,
    commandTimeout: timeoutMs,
    connectTimeout: timeoutMs,
    disconnectTimeout: 200,
  };
  try {
    const client = url ? new Redis(url, bounded) : new Redis(bounded);
    opened.add(client);
    client.once("end", () => opened.delete(client));
    return client;
  } catch {
    // ioredis parses the URL in its constructor: Node's "Invalid URL" error carries the whole text as
    // `input`, password included, and the CLI's log of an unexpected failure printed it. Not the cause.
    throw new ConfigurationError("REDIS_URL is not a Redis URL this server can read.", {
      hint: "Set it to redis://[user:password@]host[:port][/db] (rediss:// for TLS); a password with @ : / [ ] or % in it is percent-encoded.",
    });
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
    ? `Redis did not answer within ${timeoutMs} ms (${REDIS_TIMEOUT_SETTING}): check that the Redis at REDIS_URL is running and reachable (not stopped, not behind a partition).`
    : "Check that Redis at REDIS_URL is reachable.";
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
