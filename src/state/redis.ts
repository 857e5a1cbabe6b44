import { createHash, randomUUID } from "node:crypto";
import type { Cluster } from "ioredis";
import { checkClusterWhole } from "./cluster-health.js";
import {
  bounded,
  closeRedisClient,
  DEFAULT_REDIS_TIMEOUT_MS,
  newRedisClient,
  type RedisClient,
  type RedisTarget,
  redisError,
} from "./ioredis.js";
import type { Admission, CallAdmission, SharedState } from "./types.js";

/**
 * Every script reads the Redis server's clock (TIME), never the client's, so processes on hosts
 * whose clocks disagree still share one consistent window. Times keep their microseconds (fractional
 * ms): a call re-scored within the millisecond it arrived must not look older than it is. Scripts that call TIME and then write
 * are fine since Redis 5 replicates script effects, not the script (the default from Redis 7 on).
 * A script that reads the time starts with NOW_MS, which this line replaces (GIVEN_NOW, for a test's clock).
 */
const SERVER_NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000`;

/** A test's clock (RedisStateOptions.clock): the time in ms, passed as the script's last argument. */
const GIVEN_NOW = "local now = tonumber(ARGV[#ARGV])";

/** Where a script that reads the time starts: replaced by SERVER_NOW or GIVEN_NOW. */
const NOW_MS = "--NOW";

/** Sliding log: a ZSET of call ids scored by time. KEYS[1]; ARGV: limit, windowMs, member. */
const WINDOW_ACQUIRE = `${NOW_MS}
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window)
  return 0
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local wait = math.ceil(tonumber(oldest[2]) + window - now)
if wait < 1 then wait = 1 end
return wait`;

/** Calls in the sliding log's window, read-only. KEYS[1]; ARGV: windowMs. */
const WINDOW_COUNT = `${NOW_MS}
return redis.call('ZCOUNT', KEYS[1], string.format('(%.3f', now - tonumber(ARGV[1])), '+inf')`;

/** Semaphore: a ZSET of lease ids scored by expiry. KEYS[1]; ARGV: limit, leaseMs, lease id. */
const SEMAPHORE_ACQUIRE = `${NOW_MS}
local limit = tonumber(ARGV[1])
local lease = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= limit then return 0 end
redis.call('ZADD', KEYS[1], now + lease, ARGV[3])
if redis.call('PTTL', KEYS[1]) < lease then redis.call('PEXPIRE', KEYS[1], lease) end
return 1`;

/**
 * Renew: the lease expires `leaseMs` from now; 0 when it had lapsed (it is held again all the same:
 * the work it covers is still running). KEYS[1]; ARGV: leaseMs, lease id.
 */
const SEMAPHORE_RENEW = `${NOW_MS}
local lease = tonumber(ARGV[1])
local expires = redis.call('ZSCORE', KEYS[1], ARGV[2])
redis.call('ZADD', KEYS[1], now + lease, ARGV[2])
if redis.call('PTTL', KEYS[1]) < lease then redis.call('PEXPIRE', KEYS[1], lease) end
if not expires or tonumber(expires) <= now then return 0 end
return 1`;

/**
 * One call against the window (KEYS[1]), the slots (KEYS[2]) and the day's counter (KEYS[3]), all or
 * nothing. ARGV: limit, windowMs, maxConcurrent, leaseMs, dailyQuota, dayTtlMs, call id.
 * Returns {1, callsToday} admitted, {0, waitMs} window full, {2} no slot, {3, callsToday} quota spent.
 *
 * A call in flight (its lease live in KEYS[2]) may reach the service at any moment until its answer is
 * back, however long ago it was admitted: its window entry is moved to now before the window is trimmed,
 * so the trim never drops it and the new call counts it (and one the window key lost while it ran, by
 * expiry, is put back). Trimming by admission time alone let a call in flight longer than the window
 * drop out of it, and a burst across replicas then started more calls than the limit within one window.
 * The wait for room is then exact: until the oldest answered call leaves, or, with only calls in flight,
 * a whole window (no room comes before one is answered and a window has passed).
 */
const ADMIT_CALL = `${NOW_MS}
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local lease = tonumber(ARGV[4])
local today = tonumber(redis.call('GET', KEYS[3]) or '0')
if today >= tonumber(ARGV[5]) then return {3, today} end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local flying = redis.call('ZRANGE', KEYS[2], 0, -1)
for _, id in ipairs(flying) do redis.call('ZADD', KEYS[1], now, id) end
if #flying > 0 then redis.call('PEXPIRE', KEYS[1], math.ceil(window + lease)) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  local wait = math.ceil(tonumber(oldest[2]) + window - now)
  if wait < 1 then wait = 1 end
  return {0, wait}
end
if #flying >= tonumber(ARGV[3]) then return {2} end
redis.call('ZADD', KEYS[1], now, ARGV[7])
redis.call('PEXPIRE', KEYS[1], math.ceil(window + lease))
redis.call('ZADD', KEYS[2], now + lease, ARGV[7])
if redis.call('PTTL', KEYS[2]) < lease then redis.call('PEXPIRE', KEYS[2], lease) end
local used = redis.call('INCR', KEYS[3])
if redis.call('PTTL', KEYS[3]) < 0 then redis.call('PEXPIRE', KEYS[3], ARGV[6]) end
return {1, used}`;

/**
 * The call is over: free its slot, record it in the window at now. Its entry is written even when the
 * window no longer holds it (the key expired during a call longer than the window and the lease): the
 * call was sent, and the service may have counted it as late as now. KEYS: window, slots; ARGV: windowMs, id.
 */
const FINISH_CALL = `${NOW_MS}
local window = math.ceil(tonumber(ARGV[1]))
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('ZADD', KEYS[1], now, ARGV[2])
if redis.call('PTTL', KEYS[1]) < window then redis.call('PEXPIRE', KEYS[1], window) end
return 1`;

/** Deletes KEYS[1] only while it holds ARGV[1]. */
const DELETE_IF = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * Counter whose expiry is set once, at creation. INCRBY then PEXPIRE only when the key has no
 * expiry yet: the same as PEXPIRE ... NX, which needs Redis 7, written so Redis 6 works too.
 * KEYS[1]; ARGV: by, ttlMs.
 */
const COUNTER_ADD = `local v = redis.call('INCRBY', KEYS[1], ARGV[1])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return v`;

interface Script {
  source: string;
  sha: string;
}

function script(source: string): Script {
  return { source, sha: createHash("sha1").update(source).digest("hex") };
}

const SOURCES = {
  windowAcquire: WINDOW_ACQUIRE,
  windowCount: WINDOW_COUNT,
  semaphoreAcquire: SEMAPHORE_ACQUIRE,
  semaphoreRenew: SEMAPHORE_RENEW,
  counterAdd: COUNTER_ADD,
  admitCall: ADMIT_CALL,
  finishCall: FINISH_CALL,
  deleteIf: DELETE_IF,
};
type ScriptName = keyof typeof SOURCES;

/** The scripts on one clock; `timed` says which read the time (and take it last with a given clock). */
function scripts(now: string): Record<ScriptName, Script & { timed: boolean }> {
  const entries = Object.entries(SOURCES).map(([name, source]) => {
    const timed = source.startsWith(NOW_MS);
    return [name, { ...script(timed ? now + source.slice(NOW_MS.length) : source), timed }];
  });
  return Object.fromEntries(entries) as Record<ScriptName, Script & { timed: boolean }>;
}

const SERVER_SCRIPTS = scripts(SERVER_NOW);

export interface RedisStateOptions {
  /** redis://[:password@]host:port[/db]; ignored when `client` or `target` is given. */
  url?: string;
  /** One Redis or a cluster's seed nodes (REDIS_CLUSTER_NODES); ignored when `client` is given. */
  target?: RedisTarget;
  /** An existing client (not closed by close()). */
  client?: RedisClient;
  /** Prefix for every key, e.g. "martech:". Default "". */
  keyPrefix?: string;
  /** The most a command may take (MARTECH_STEPS_REDIS_TIMEOUT_MS); default 5 s. Ignored with `client`. */
  timeoutMs?: number;
  /**
   * For tests: the scripts take their time (ms) from this clock instead of the server's TIME, so a test
   * drives the window and the leases with explicit times. Keys still expire on Redis's own clock.
   */
  clock?: () => number;
}

/** The Redis backend: several server processes on one Redis together stay within one instance's limits. */
export class RedisState implements SharedState {
  readonly backend = "redis";
  readonly #redis: RedisClient;
  readonly #owned: boolean;
  readonly #prefix: string;
  readonly #timeoutMs: number;
  readonly #clock: (() => number) | undefined;
  readonly #scripts: ReturnType<typeof scripts>;

  constructor(options: RedisStateOptions = {}) {
    this.#prefix = options.keyPrefix ?? "";
    this.#clock = options.clock;
    this.#scripts = options.clock ? scripts(GIVEN_NOW) : SERVER_SCRIPTS;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS;
    if (options.client) {
      this.#redis = options.client;
      this.#owned = false;
    } else {
      // Bounded commands, few retries: a call waiting on a dead or frozen Redis fails with a clear error.
      this.#redis = newRedisClient(options.target ?? options.url, this.#timeoutMs);
      this.#owned = true;
      // Errors surface on the commands; without a listener ioredis would also print them unhandled.
      this.#redis.on("error", () => undefined);
    }
  }

  async #run<T>(what: string, action: () => Promise<T>): Promise<T> {
    try {
      return await bounded(action(), this.#timeoutMs);
    } catch (error) {
      throw redisError(
        `The shared state in Redis could not ${what}`,
        error,
        "Without REDIS_URL or REDIS_CLUSTER_NODES the state is kept in memory, for one process.",
        this.#timeoutMs,
      );
    }
  }

  async #eval(name: ScriptName, key: string, args: (string | number)[]): Promise<number> {
    return Number(await this.#evalRaw(name, [key], args));
  }

  async #evalRaw(name: ScriptName, keys: string[], given: (string | number)[]): Promise<unknown> {
    const { source, sha, timed } = this.#scripts[name];
    const fullKeys = keys.map((key) => this.#prefix + key);
    const args = timed && this.#clock ? [...given, this.#clock()] : given;
    try {
      return await this.#redis.evalsha(sha, fullKeys.length, ...fullKeys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
      return this.#redis.eval(source, fullKeys.length, ...fullKeys, ...args);
    }
  }

  windowAcquire(key: string, limit: number, windowMs: number): Promise<number> {
    return this.#run("record a call in the rate window", () =>
      this.#eval("windowAcquire", key, [limit, windowMs, randomUUID()]),
    );
  }

  windowCount(key: string, windowMs: number): Promise<number> {
    return this.#run("read the rate window", () => this.#eval("windowCount", key, [windowMs]));
  }

  admitCall(call: CallAdmission): Promise<Admission> {
    return this.#run("admit a call", async () => {
      const reply = (await this.#evalRaw(
        "admitCall",
        [call.windowKey, call.slotsKey, call.dailyKey],
        [
          call.limit,
          call.windowMs,
          call.maxConcurrent,
          Math.max(1, Math.ceil(call.leaseMs)),
          call.dailyQuota,
          Math.max(1, Math.ceil(call.dayTtlMs)),
          call.id,
        ],
      )) as number[];
      const [kind, value] = reply.map(Number);
      if (kind === 1) return { admitted: true, callsToday: value ?? 0 };
      if (kind === 0) return { admitted: false, limit: "rate_window", waitMs: value ?? 1 };
      if (kind === 2) return { admitted: false, limit: "concurrency" };
      return { admitted: false, limit: "daily_quota", callsToday: value ?? 0 };
    });
  }

  async finishCall(call: Pick<CallAdmission, "windowKey" | "slotsKey" | "windowMs" | "id">): Promise<void> {
    await this.#run("finish a call", () =>
      this.#evalRaw("finishCall", [call.windowKey, call.slotsKey], [Math.ceil(call.windowMs), call.id]),
    );
  }

  semaphoreAcquire(key: string, limit: number, leaseMs: number): Promise<string | null> {
    return this.#run("take a concurrency slot", async () => {
      const id = randomUUID();
      const ok = await this.#eval("semaphoreAcquire", key, [limit, leaseMs, id]);
      return ok === 1 ? id : null;
    });
  }

  semaphoreRenew(key: string, leaseId: string, leaseMs: number): Promise<boolean> {
    return this.#run("renew a concurrency slot", async () => {
      return (await this.#eval("semaphoreRenew", key, [Math.max(1, Math.ceil(leaseMs)), leaseId])) === 1;
    });
  }

  async semaphoreRelease(key: string, leaseId: string): Promise<void> {
    await this.#run("release a concurrency slot", () => this.#redis.zrem(this.#prefix + key, leaseId));
  }

  counterAdd(key: string, by: number, ttlMs: number): Promise<number> {
    return this.#run("update a counter", () =>
      this.#eval("counterAdd", key, [by, Math.max(1, Math.ceil(ttlMs))]),
    );
  }

  counterGet(key: string): Promise<number> {
    return this.#run("read a counter", async () => Number((await this.#redis.get(this.#prefix + key)) ?? 0));
  }

  valueGet(key: string): Promise<string | undefined> {
    return this.#run(
      "read a shared value",
      async () => (await this.#redis.get(this.#prefix + key)) ?? undefined,
    );
  }

  valueSet(key: string, value: string, ttlMs: number, onlyIfAbsent = false): Promise<boolean> {
    return this.#run("write a shared value", async () => {
      const px = Math.max(1, Math.ceil(ttlMs));
      const reply = onlyIfAbsent
        ? await this.#redis.set(this.#prefix + key, value, "PX", px, "NX")
        : await this.#redis.set(this.#prefix + key, value, "PX", px);
      return reply === "OK";
    });
  }

  async valueDeleteIf(key: string, expected: string): Promise<void> {
    await this.#run("delete a shared value", () => this.#eval("deleteIf", key, [expected]));
  }

  /** One Redis answers PING; a cluster is whole (every master answers, cluster_state ok: cluster-health.ts). */
  async ping(): Promise<void> {
    const redis = this.#redis;
    if (redis.isCluster) return checkClusterWhole(redis as Cluster);
    await this.#run("be reached", () => redis.ping());
  }

  async close(): Promise<void> {
    if (this.#owned) await closeRedisClient(this.#redis);
  }
}
