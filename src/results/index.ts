import { positiveSetting } from "../settings.js";
import { redisTarget, redisTimeoutMs } from "../state/ioredis.js";
import { MemoryResultStore } from "./memory.js";
import { RedisResultStore } from "./redis.js";
import type { ResultStore, ResultStoreLimits } from "./types.js";

export { MemoryResultStore } from "./memory.js";
export { RedisResultStore } from "./redis.js";
export type { NewResult, ResultMeta, ResultStore, ResultStoreLimits } from "./types.js";
export { lifetimeOf } from "./types.js";

/**
 * Defaults: a result is kept 30 minutes, 20 per workspace, up to 4 MB each; an export's file 24 hours (long
 * enough for a person to come back and download it), 5 per workspace, up to 32 MB each; 128 MB in memory
 * for all (or one export file's limit, when larger).
 */
export const RESULT_DEFAULTS = {
  ttlMs: 30 * 60_000,
  perWorkspace: 20,
  maxBytes: 4_000_000,
  fileTtlMs: 24 * 3_600_000,
  filesPerWorkspace: 5,
  fileMaxBytes: 32_000_000,
  memoryBytes: 128_000_000,
} as const;

function setting(env: Readonly<Record<string, string | undefined>>, name: string, fallback: number): number {
  return positiveSetting(env, name) ?? fallback;
}

export interface ResultSettings extends ResultStoreLimits {
  /** The most a step reads into one kept result (MARTECH_STEPS_RESULT_MAX_BYTES). */
  maxBytes: number;
  fileTtlMs: number;
  filesPerWorkspace: number;
  /** The most an export run to completion keeps in its file (MARTECH_STEPS_EXPORT_MAX_BYTES). */
  fileMaxBytes: number;
}

/**
 * MARTECH_STEPS_RESULT_TTL_MS, MARTECH_STEPS_RESULTS_PER_WORKSPACE and MARTECH_STEPS_RESULT_MAX_BYTES; for
 * export files MARTECH_STEPS_EXPORT_TTL_MS, MARTECH_STEPS_EXPORTS_PER_WORKSPACE and MARTECH_STEPS_EXPORT_MAX_BYTES.
 */
export function resultSettings(env: Readonly<Record<string, string | undefined>>): ResultSettings {
  return {
    ttlMs: setting(env, "MARTECH_STEPS_RESULT_TTL_MS", RESULT_DEFAULTS.ttlMs),
    perWorkspace: setting(env, "MARTECH_STEPS_RESULTS_PER_WORKSPACE", RESULT_DEFAULTS.perWorkspace),
    maxBytes: setting(env, "MARTECH_STEPS_RESULT_MAX_BYTES", RESULT_DEFAULTS.maxBytes),
    fileTtlMs: setting(env, "MARTECH_STEPS_EXPORT_TTL_MS", RESULT_DEFAULTS.fileTtlMs),
    filesPerWorkspace: setting(env, "MARTECH_STEPS_EXPORTS_PER_WORKSPACE", RESULT_DEFAULTS.filesPerWorkspace),
    fileMaxBytes: setting(env, "MARTECH_STEPS_EXPORT_MAX_BYTES", RESULT_DEFAULTS.fileMaxBytes),
  };
}

/** What a step is offered by an adapter that keeps its whole results (ToolContext.fullResults). */
export function resultsOffer(settings: ResultSettings): {
  maxBytes: number;
  fileMaxBytes: number;
  fileTtlMs: number;
} {
  return { maxBytes: settings.maxBytes, fileMaxBytes: settings.fileMaxBytes, fileTtlMs: settings.fileTtlMs };
}

const shared = new Map<string, ResultStore>();

/**
 * The process's store for these settings: Redis when REDIS_URL or REDIS_CLUSTER_NODES is set (any replica then serves any
 * result), memory otherwise. One per configuration, shared by every workspace of the process (each
 * workspace only ever reads its own results); it lives as long as the process.
 */
export function sharedResultStore(
  env: Readonly<Record<string, string | undefined>> = process.env,
): ResultStore {
  const target = redisTarget(env);
  const settings = resultSettings(env);
  const timeoutMs = redisTimeoutMs(env);
  const key = JSON.stringify([
    target ?? "",
    settings.ttlMs,
    settings.perWorkspace,
    settings.maxBytes,
    settings.fileTtlMs,
    settings.filesPerWorkspace,
    settings.fileMaxBytes,
    timeoutMs,
  ]);
  let store = shared.get(key);
  if (!store) {
    store = target
      ? new RedisResultStore(settings, { target, timeoutMs })
      : new MemoryResultStore({
          ...settings,
          maxBytes: Math.max(RESULT_DEFAULTS.memoryBytes, settings.maxBytes, settings.fileMaxBytes),
        });
    shared.set(key, store);
  }
  return store;
}
