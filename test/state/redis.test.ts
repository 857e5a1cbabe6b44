import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NetworkError } from "../../src/errors.js";
import { RedisState } from "../../src/state/redis.js";

const url = process.env.REDIS_URL;
const required = process.env.REQUIRE_REDIS === "1";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("RedisState availability", () => {
  // Defined (not skipped) only when it applies, so CI, which requires Redis, counts no skipped test.
  if (!url && required) {
    it("needs REDIS_URL when REQUIRE_REDIS=1", () => {
      expect.fail("REQUIRE_REDIS=1 but REDIS_URL is not set: start redis-server and set REDIS_URL");
    });
  }

  it("turns an unreachable Redis into NetworkError that names neither the URL nor its password", async () => {
    const state = new RedisState({ url: "redis://:sup3r-secret-pw@127.0.0.1:1/0" });
    try {
      const error = await state.counterGet("k").then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as Error).message).not.toContain("sup3r-secret-pw");
      expect((error as Error).message).not.toContain("127.0.0.1:1");
    } finally {
      await state.close();
    }
  });
});

describe.skipIf(!url)("RedisState against a real Redis", () => {
  const prefix = `martech-test:${randomUUID()}:`;
  let one: RedisState;
  let two: RedisState;
  let raw: Redis;

  beforeAll(() => {
    // Two clients with their own connections stand for two server processes.
    one = new RedisState({ url, keyPrefix: prefix });
    two = new RedisState({ url, keyPrefix: prefix });
    raw = new Redis(url ?? "");
  });

  afterAll(async () => {
    const keys = await raw.keys(`${prefix}*`);
    if (keys.length > 0) await raw.del(...keys);
    await Promise.all([one.close(), two.close(), raw.quit()]);
  });

  it("lets two processes together take at most `limit` calls in one window", async () => {
    const attempts = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? one : two).windowAcquire("window-a", 5, 2_000)),
    );
    expect(attempts.filter((w) => w === 0)).toHaveLength(5);
    for (const wait of attempts.filter((w) => w > 0)) expect(wait).toBeLessThanOrEqual(2_000);
    // Hammering on for a while still lets nothing else in: the log slides, it does not reset.
    const more: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      more.push(await one.windowAcquire("window-a", 5, 2_000), await two.windowAcquire("window-a", 5, 2_000));
      await sleep(20);
    }
    expect(more.every((w) => w > 0)).toBe(true);
  });

  it("admits a call again once the wait it was given has passed", async () => {
    expect(await one.windowAcquire("window-b", 2, 200)).toBe(0);
    expect(await two.windowAcquire("window-b", 2, 200)).toBe(0);
    const wait = await one.windowAcquire("window-b", 2, 200);
    expect(wait).toBeGreaterThan(0);
    await sleep(wait + 5);
    expect(await two.windowAcquire("window-b", 2, 200)).toBe(0);
  });

  it("shares semaphore slots between processes and frees them on release", async () => {
    const a = await one.semaphoreAcquire("sem-a", 2, 10_000);
    const b = await two.semaphoreAcquire("sem-a", 2, 10_000);
    expect(a).not.toBeNull();
    expect(b).not.toBeNull();
    expect(await one.semaphoreAcquire("sem-a", 2, 10_000)).toBeNull();
    await two.semaphoreRelease("sem-a", a!);
    expect(await two.semaphoreAcquire("sem-a", 2, 10_000)).not.toBeNull();
  });

  it("frees a slot whose lease expired (a crashed process cannot hold it forever)", async () => {
    expect(await one.semaphoreAcquire("sem-b", 1, 100)).not.toBeNull();
    expect(await two.semaphoreAcquire("sem-b", 1, 100)).toBeNull();
    await sleep(130);
    expect(await two.semaphoreAcquire("sem-b", 1, 100)).not.toBeNull();
  });

  it("renews a held lease, and holds a lapsed one again (its work still runs) while saying it had lapsed", async () => {
    // Margins of hundreds of ms: a busy machine oversleeps by tens.
    const lease = (await one.semaphoreAcquire("renew", 1, 600))!;
    await sleep(200);
    expect(await two.semaphoreRenew("renew", lease, 1_200)).toBe(true);
    await sleep(600);
    // Past the first expiry but within the renewed one: still held.
    expect(await two.semaphoreAcquire("renew", 1, 600)).toBeNull();
    await sleep(800);
    expect(await one.semaphoreRenew("renew", lease, 1_200)).toBe(false);
    expect(await two.semaphoreAcquire("renew", 1, 600)).toBeNull();
    await sleep(1_400);
    expect(await two.semaphoreAcquire("renew", 1, 600)).not.toBeNull();
  });

  it("counts across processes, with the expiry set once at creation", async () => {
    expect(await one.counterGet("count-a")).toBe(0);
    expect(await one.counterAdd("count-a", 1, 5_000)).toBe(1);
    const ttl = await raw.pttl(`${prefix}count-a`);
    expect(ttl).toBeGreaterThan(4_000);
    await sleep(50);
    expect(await two.counterAdd("count-a", 2, 60_000)).toBe(3);
    expect(await raw.pttl(`${prefix}count-a`)).toBeLessThanOrEqual(ttl);
    expect(await two.counterGet("count-a")).toBe(3);
    expect(await one.counterAdd("count-a", -1, 5_000)).toBe(2);
  });

  it("counts a window's calls from another process without recording one", async () => {
    expect(await one.windowCount("window-count", 300)).toBe(0);
    expect(await one.windowAcquire("window-count", 5, 300)).toBe(0);
    expect(await one.windowAcquire("window-count", 5, 300)).toBe(0);
    expect(await two.windowCount("window-count", 300)).toBe(2);
    expect(await two.windowCount("window-count", 300)).toBe(2);
    await sleep(350);
    expect(await two.windowCount("window-count", 300)).toBe(0);
  });

  it("lets a counter expire", async () => {
    await one.counterAdd("count-b", 4, 80);
    await sleep(120);
    expect(await two.counterGet("count-b")).toBe(0);
  });

  it("reloads its scripts after SCRIPT FLUSH", async () => {
    await raw.script("FLUSH");
    expect(await one.counterAdd("count-c", 1, 1_000)).toBe(1);
  });
});
