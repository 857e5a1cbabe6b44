import { redisTarget, redisTimeoutMs } from "./ioredis.js";
import { MemoryState } from "./memory.js";
import { RedisState } from "./redis.js";
import type { SharedState } from "./types.js";

export { MemoryState } from "./memory.js";
export { RedisState, type RedisStateOptions } from "./redis.js";
export type { SharedState } from "./types.js";

/**
 * The shared state for this process: Redis when REDIS_URL is set, a Redis Cluster when REDIS_CLUSTER_NODES
 * names its seed nodes (several replicas then share one budget per Marketo instance), otherwise in memory
 * (the embedded default, exact for one process).
 */
export function createState(env: Readonly<Record<string, string | undefined>> = process.env): SharedState {
  const target = redisTarget(env);
  return target ? new RedisState({ target, timeoutMs: redisTimeoutMs(env) }) : new MemoryState();
}
