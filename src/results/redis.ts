import {
  bounded,
  closeRedisClient,
  DEFAULT_REDIS_TIMEOUT_MS,
  newRedisClient,
  type RedisClient,
  type RedisTarget,
  redisError,
} from "../state/ioredis.js";
import { hashTag } from "../state/keys.js";
import { isResultId, metaOf, newResultId } from "./memory.js";
import {
  lifetimeOf,
  type NewResult,
  type ResultMeta,
  type ResultStore,
  type ResultStoreLimits,
} from "./types.js";

/**
 * Keeps a result and trims the workspace's index, atomically. KEYS: the index (a ZSET of ids scored by
 * creation time), the result's meta key, then its page keys. ARGV: id, ttlMs, perWorkspace, the key
 * prefix of the workspace's results, the meta JSON, then the page texts. Expired ids leave the index
 * (their keys expired with them); past the count, the oldest results are deleted. Time is the Redis
 * server's (TIME), so replicas whose clocks disagree still agree on what expired. Scores are microseconds,
 * made strictly increasing: ties (results kept in the same instant) would be ordered by id, at random.
 */
const PUT = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local id, ttl, cap, prefix = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - ttl * 1000)
local last = redis.call('ZREVRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if last[2] and tonumber(last[2]) >= now then now = tonumber(last[2]) + 1 end
local excess = redis.call('ZCARD', KEYS[1]) - cap + 1
if excess > 0 then
  for _, old in ipairs(redis.call('ZRANGE', KEYS[1], 0, excess - 1)) do
    local meta = redis.call('GET', prefix .. old)
    if meta then
      local pages = tonumber(string.match(meta, '"pages":(%d+)')) or 0
      for i = 0, pages - 1 do redis.call('DEL', prefix .. old .. ':' .. i) end
    end
    redis.call('DEL', prefix .. old)
    redis.call('ZREM', KEYS[1], old)
  end
end
redis.call('SET', KEYS[2], ARGV[5], 'PX', ttl)
for i = 3, #KEYS do redis.call('SET', KEYS[i], ARGV[i + 3], 'PX', ttl) end
redis.call('ZADD', KEYS[1], now, id)
redis.call('PEXPIRE', KEYS[1], ttl)
return 1`;

export interface RedisResultStoreOptions {
  url?: string;
  /** One Redis or a cluster's seed nodes (REDIS_CLUSTER_NODES); ignored when `client` is given. */
  target?: RedisTarget;
  /** An existing client (not closed by close()). */
  client?: RedisClient;
  /** Prefix of every key. Default "martech:". */
  keyPrefix?: string;
  /** The most a command may take (MARTECH_STEPS_REDIS_TIMEOUT_MS); default 5 s. Ignored with `client`. */
  timeoutMs?: number;
}

/**
 * Results in Redis, so that any replica behind a load balancer can serve a result another one kept
 * (2026-07-28 clients hold no session that would pin them to one replica). Keys carry the workspace
 * in a hash tag, so one workspace's keys share a cluster slot.
 */
export class RedisResultStore implements ResultStore {
  readonly #redis: RedisClient;
  readonly #owned: boolean;
  readonly #prefix: string;
  readonly #limits: ResultStoreLimits;
  readonly #timeoutMs: number;

  constructor(limits: ResultStoreLimits, options: RedisResultStoreOptions = {}) {
    this.#limits = limits;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS;
    this.#prefix = options.keyPrefix ?? "martech:";
    if (options.client) {
      this.#redis = options.client;
      this.#owned = false;
    } else {
      // Connects on first use: a process that keeps no result never opens a connection.
      this.#redis = newRedisClient(
        options.target ?? options.url ?? "redis://127.0.0.1:6379",
        this.#timeoutMs,
        {
          lazyConnect: true,
        },
      );
      this.#owned = true;
      this.#redis.on("error", () => undefined);
    }
  }

  #base = (workspace: string) => `${this.#prefix}results:${hashTag(workspace)}:`;

  async #run<T>(what: string, action: () => Promise<T>): Promise<T> {
    try {
      return await bounded(action(), this.#timeoutMs);
    } catch (error) {
      throw redisError(
        `The kept results in Redis could not ${what}`,
        error,
        "Without REDIS_URL results are kept in memory, for one process.",
        this.#timeoutMs,
      );
    }
  }

  put(workspace: string, result: NewResult): Promise<ResultMeta> {
    return this.#run("be written", async () => {
      const id = newResultId();
      const base = this.#base(workspace);
      const file = result.meta.file === true;
      const { ttlMs, count } = lifetimeOf(this.#limits, file);
      const meta = metaOf(result, id, Date.now(), ttlMs);
      // The page count leads the stored meta so that the script can delete an evicted result's pages.
      const stored = JSON.stringify({ pages: meta.pageItems.length, ...meta });
      // Export files have an index of their own: their lifetime and count are theirs.
      const index = `${base}${file ? "files" : "index"}`;
      const keys = [index, `${base}${id}`, ...result.pages.map((_, i) => `${base}${id}:${i}`)];
      await this.#redis.eval(
        PUT,
        keys.length,
        ...keys,
        id,
        ttlMs,
        count,
        base,
        stored,
        ...result.pages.map((page) => page.json),
      );
      return meta;
    });
  }

  meta(workspace: string, id: string): Promise<ResultMeta | undefined> {
    // Only ids this store gives: "index" would read the index (a sorted set, so Redis would refuse).
    if (!isResultId(id)) return Promise.resolve(undefined);
    return this.#run("be read", async () => {
      const text = await this.#redis.get(`${this.#base(workspace)}${id}`);
      if (!text) return undefined;
      const { pages: _count, ...meta } = JSON.parse(text) as ResultMeta & { pages: number };
      return meta;
    });
  }

  page(workspace: string, id: string, index: number): Promise<string | undefined> {
    if (!isResultId(id)) return Promise.resolve(undefined);
    return this.#run("be read", async () => {
      return (await this.#redis.get(`${this.#base(workspace)}${id}:${index}`)) ?? undefined;
    });
  }

  async close(): Promise<void> {
    if (this.#owned) await closeRedisClient(this.#redis);
  }
}
