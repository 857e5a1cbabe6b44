import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { MemoryState } from "../../src/state/memory.js";
import { RedisState } from "../../src/state/redis.js";
import type { CallAdmission, SharedState } from "../../src/state/types.js";

const url = process.env.REDIS_URL;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The same contract for both backends: Redis runs when REDIS_URL is set (CI sets it). */
const backends: [string, () => SharedState][] = [["memory", () => new MemoryState()]];
const opened: SharedState[] = [];
if (url) backends.push(["redis", () => new RedisState({ url, keyPrefix: `martech-test:${randomUUID()}:` })]);
afterAll(async () => {
  await Promise.all(opened.map((state) => state.close()));
});

function call(id: string, overrides: Partial<CallAdmission> = {}): CallAdmission {
  return {
    windowKey: "w",
    limit: 3,
    windowMs: 300,
    slotsKey: "s",
    maxConcurrent: 2,
    leaseMs: 5_000,
    dailyKey: "d",
    dailyQuota: 100,
    dayTtlMs: 60_000,
    id,
    ...overrides,
  };
}

describe.each(backends)("admitting calls (%s)", (_name, make) => {
  const state = () => {
    const created = make();
    opened.push(created);
    return created;
  };

  it("admits while the window, the slots and the day allow, and records a call in all three at once", async () => {
    const s = state();
    expect(await s.admitCall(call("a"))).toEqual({ admitted: true, callsToday: 1 });
    expect(await s.admitCall(call("b"))).toEqual({ admitted: true, callsToday: 2 });
    // Two in flight: the third has room in the window but no slot, and nothing of it is recorded.
    expect(await s.admitCall(call("c"))).toEqual({ admitted: false, limit: "concurrency" });
    expect(await s.counterGet("d")).toBe(2);
    expect(await s.windowCount("w", 300)).toBe(2);
    await s.finishCall(call("a"));
    expect(await s.admitCall(call("c"))).toEqual({ admitted: true, callsToday: 3 });
    await s.finishCall(call("b"));
    // The window is full: the answer is how long until its oldest call leaves it, and no slot is taken.
    const full = await s.admitCall(call("d"));
    expect(full).toMatchObject({ admitted: false, limit: "rate_window" });
    expect((full as { waitMs: number }).waitMs).toBeGreaterThan(0);
    expect((full as { waitMs: number }).waitMs).toBeLessThanOrEqual(300);
    expect(await s.semaphoreAcquire("s", 2, 1_000)).not.toBeNull();
  });

  it("keeps a finished call in the window for a whole window after its answer, not after its admission", async () => {
    const s = state();
    expect((await s.admitCall(call("slow", { limit: 1 }))).admitted).toBe(true);
    // The call takes 200 ms: admitted at 0, answered at 200. The service counted it somewhere in between.
    await sleep(200);
    await s.finishCall(call("slow", { limit: 1 }));
    await sleep(150);
    // 350 ms after admission, 150 ms after the answer: still in the 300 ms window.
    const held = await s.admitCall(call("next", { limit: 1 }));
    expect(held).toMatchObject({ admitted: false, limit: "rate_window" });
    expect((held as { waitMs: number }).waitMs).toBeGreaterThan(100);
    await sleep((held as { waitMs: number }).waitMs + 5);
    expect((await s.admitCall(call("next", { limit: 1 }))).admitted).toBe(true);
  });

  it("refuses every call once the day's quota is spent", async () => {
    const s = state();
    expect((await s.admitCall(call("a", { dailyQuota: 1 }))).admitted).toBe(true);
    expect(await s.admitCall(call("b", { dailyQuota: 1 }))).toEqual({
      admitted: false,
      limit: "daily_quota",
      callsToday: 1,
    });
  });

  it("frees the slot of a call whose lease lapsed (its process died)", async () => {
    const s = state();
    expect((await s.admitCall(call("dead", { maxConcurrent: 1, leaseMs: 100 }))).admitted).toBe(true);
    expect(await s.admitCall(call("live", { maxConcurrent: 1 }))).toEqual({
      admitted: false,
      limit: "concurrency",
    });
    await sleep(120);
    expect((await s.admitCall(call("live", { maxConcurrent: 1 }))).admitted).toBe(true);
  });

  it("shares values, sets one only if absent (a lock) and deletes it only while it holds what the caller expects", async () => {
    const s = state();
    expect(await s.valueGet("v")).toBeUndefined();
    expect(await s.valueSet("v", "one", 1_000, true)).toBe(true);
    expect(await s.valueSet("v", "two", 1_000, true)).toBe(false);
    expect(await s.valueGet("v")).toBe("one");
    await s.valueDeleteIf("v", "two");
    expect(await s.valueGet("v")).toBe("one");
    await s.valueDeleteIf("v", "one");
    expect(await s.valueGet("v")).toBeUndefined();
    await s.valueSet("v", "short", 50);
    await sleep(80);
    expect(await s.valueGet("v")).toBeUndefined();
    await expect(s.ping()).resolves.toBeUndefined();
  });
});
