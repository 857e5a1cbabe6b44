import { describe, expect, it } from "vitest";
import { MemoryState } from "../../src/state/memory.js";

describe("MemoryState", () => {
  it("sliding log never admits more than the limit in any window", async () => {
    let now = 0;
    const state = new MemoryState(() => now);
    const admitted: number[] = [];
    for (now = 0; now < 10_000; now += 37) {
      if ((await state.windowAcquire("w", 10, 1000)) === 0) admitted.push(now);
    }
    for (const t of admitted) {
      expect(admitted.filter((u) => u >= t && u < t + 1000).length).toBeLessThanOrEqual(10);
    }
    expect(admitted.length).toBeGreaterThan(90);
  });

  it("tells how long to wait until the oldest call leaves the window", async () => {
    let now = 1000;
    const state = new MemoryState(() => now);
    expect(await state.windowAcquire("w", 1, 500)).toBe(0);
    now = 1200;
    expect(await state.windowAcquire("w", 1, 500)).toBe(300);
  });

  it("counts the calls in the window without recording one", async () => {
    let now = 0;
    const state = new MemoryState(() => now);
    expect(await state.windowCount("w", 1000)).toBe(0);
    await state.windowAcquire("w", 10, 1000);
    now = 400;
    await state.windowAcquire("w", 10, 1000);
    expect(await state.windowCount("w", 1000)).toBe(2);
    expect(await state.windowCount("w", 1000)).toBe(2);
    now = 1000;
    expect(await state.windowCount("w", 1000)).toBe(1);
  });

  it("semaphore leases: limit, release, expiry", async () => {
    let now = 0;
    const state = new MemoryState(() => now);
    const a = await state.semaphoreAcquire("s", 2, 1000);
    const b = await state.semaphoreAcquire("s", 2, 1000);
    expect(a && b).toBeTruthy();
    expect(await state.semaphoreAcquire("s", 2, 1000)).toBeNull();
    await state.semaphoreRelease("s", a!);
    expect(await state.semaphoreAcquire("s", 2, 1000)).not.toBeNull();
    now = 2000;
    expect(await state.semaphoreAcquire("s", 2, 1000)).not.toBeNull();
  });

  it("counters expire after their ttl", async () => {
    let now = 0;
    const state = new MemoryState(() => now);
    expect(await state.counterAdd("c", 2, 100)).toBe(2);
    expect(await state.counterAdd("c", 3, 100)).toBe(5);
    now = 150;
    expect(await state.counterGet("c")).toBe(0);
  });
});
