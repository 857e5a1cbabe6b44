import { createRequire } from "node:module";
import type { Redis as RedisClient, RedisOptions } from "ioredis";

const require = createRequire(import.meta.url);

/**
 * A Redis client, with ioredis loaded on first use: a process without REDIS_URL (stdio, the CLI, one
 * server on its own) never pays for loading it (tens of milliseconds of start-up, more on a busy machine).
 */
export function newRedisClient(url: string | undefined, options: RedisOptions): RedisClient {
  const { Redis } = require("ioredis") as typeof import("ioredis");
  return url ? new Redis(url, options) : new Redis(options);
}

/** Closes a client this process opened: QUIT would wait in the offline queue of one that never connected. */
export async function closeRedisClient(redis: RedisClient): Promise<void> {
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
