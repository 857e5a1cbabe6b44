/**
 * State that several server processes must share so that, together, they never exceed the limits
 * of one Marketo instance or one GA4 property. Two backends: in memory (the embedded default) and
 * Redis (when REDIS_URL is set). Keys are namespaced by the caller (e.g. `marketo:<host>:window`).
 */
export interface SharedState {
  /** Which backend holds the state: readiness checks Redis only when it is used. */
  readonly backend: "memory" | "redis";
  /**
   * Sliding-log rate window: records one call and returns 0 when fewer than `limit` calls were
   * recorded in the last `windowMs`; otherwise records nothing and returns how many ms to wait
   * until the oldest call leaves the window. A sliding log never lets more than `limit` calls into
   * any `windowMs` interval (a fixed window lets 2x through around a boundary).
   */
  windowAcquire(key: string, limit: number, windowMs: number): Promise<number>;
  /** Calls recorded in the last `windowMs` (read-only: for usage displays, never to admit a call). */
  windowCount(key: string, windowMs: number): Promise<number>;

  /**
   * Admits one call against a rolling window, in-flight slots and a daily quota, atomically: the call
   * is recorded in all three, or in none (then the answer says which limit held it back). A call is
   * given its slot only once the window has room, so a call waiting for the window holds no slot.
   * A call in flight (its lease live in `slotsKey`) counts in the window however long ago it was
   * admitted: the service may count it at any moment until its answer is back.
   */
  admitCall(call: CallAdmission): Promise<Admission>;
  /**
   * The call's answer came back, or it failed: frees its slot and writes its entry in the window at
   * now (even if the window lost it meanwhile). The service counted the call when it arrived, some
   * time between admission and now, so its own round trip keeps it in the window as long as the
   * service may still count it.
   */
  finishCall(call: Pick<CallAdmission, "windowKey" | "slotsKey" | "windowMs" | "id">): Promise<void>;

  /**
   * Counting semaphore with leases: returns a lease id when fewer than `limit` leases are held,
   * otherwise null. A lease expires after `leaseMs` so a crashed process cannot hold a slot forever.
   */
  semaphoreAcquire(key: string, limit: number, leaseMs: number): Promise<string | null>;
  semaphoreRelease(key: string, leaseId: string): Promise<void>;
  /**
   * Extends a lease to expire `leaseMs` from now, for work still running. Returns false when the lease
   * had already expired: it is held again from now (the work is under way whatever the lease said).
   */
  semaphoreRenew(key: string, leaseId: string, leaseMs: number): Promise<boolean>;

  /** Adds `by` to a counter that expires `ttlMs` after its creation; returns the new value. */
  counterAdd(key: string, by: number, ttlMs: number): Promise<number>;
  counterGet(key: string): Promise<number>;

  /** A value shared by every process (a sealed access token), or undefined. */
  valueGet(key: string): Promise<string | undefined>;
  /** Sets the value for `ttlMs`; with `onlyIfAbsent`, only when no value is set (a lock): true when set. */
  valueSet(key: string, value: string, ttlMs: number, onlyIfAbsent?: boolean): Promise<boolean>;
  /** Deletes the value only if it still is `expected` (a lock's holder, a token the service refused). */
  valueDeleteIf(key: string, expected: string): Promise<void>;

  /** Resolves when the backend answers (readiness); rejects with a NetworkError otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** One call presented to `admitCall`. */
export interface CallAdmission {
  /** The rolling window (606): its key, the calls it admits, and its length. */
  windowKey: string;
  limit: number;
  windowMs: number;
  /** The in-flight slots (615): key, how many, and how long a lease lasts unless renewed. */
  slotsKey: string;
  maxConcurrent: number;
  leaseMs: number;
  /** The calls of the day (607): key, quota, and how long the counter lives after its creation. */
  dailyKey: string;
  dailyQuota: number;
  dayTtlMs: number;
  /** The call's id: its entry in the window and its lease. */
  id: string;
}

export type Admission =
  | { admitted: true; callsToday: number }
  | { admitted: false; limit: "rate_window"; waitMs: number }
  | { admitted: false; limit: "concurrency" }
  | { admitted: false; limit: "daily_quota"; callsToday: number };
