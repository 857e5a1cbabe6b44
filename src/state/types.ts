/**
 * State that several server processes must share so that, together, they never exceed the limits
 * of one Marketo instance or one GA4 property. Two backends: in memory (the embedded default) and
 * Redis (when REDIS_URL is set). Keys are namespaced by the caller (e.g. `marketo:<host>:window`).
 */
export interface SharedState {
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
   * Counting semaphore with leases: returns a lease id when fewer than `limit` leases are held,
   * otherwise null. A lease expires after `leaseMs` so a crashed process cannot hold a slot forever.
   */
  semaphoreAcquire(key: string, limit: number, leaseMs: number): Promise<string | null>;
  semaphoreRelease(key: string, leaseId: string): Promise<void>;
  /**
   * Extends a held lease to expire `leaseMs` from now. Returns false when the lease had already
   * expired (its slot may be someone else's now): the holder must acquire a slot again.
   */
  semaphoreRenew(key: string, leaseId: string, leaseMs: number): Promise<boolean>;

  /** Adds `by` to a counter that expires `ttlMs` after its creation; returns the new value. */
  counterAdd(key: string, by: number, ttlMs: number): Promise<number>;
  counterGet(key: string): Promise<number>;

  close(): Promise<void>;
}
