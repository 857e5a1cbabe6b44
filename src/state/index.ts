import { redisTimeoutMs } from "./ioredis.js";
import { MemoryState } from "./memory.js";
import { RedisState } from "./redis.js";
import type { SharedState } from "./types.js";

export { MemoryState } from "./memory.js";
export { RedisState, type RedisStateOptions } from "./redis.js";
export type { SharedState } from "./types.js";

/**
 * The shared state for this process: Redis when REDIS_URL is set (several replicas then share one
 * budget per Marketo instance), otherwise in memory (the embedded default, exact for one process).
 */
export function createState(env: Readonly<Record<string, string | undefined>> = process.env): SharedState {
  const url = env.REDIS_URL?.trim();
  return url ? new RedisState({ url, timeoutMs: redisTimeoutMs(env) }) : new MemoryState();
}
