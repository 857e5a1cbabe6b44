import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryResultStore } from "../../src/results/memory.js";
import { csvPage, toPages } from "../../src/results/pages.js";
import { RedisResultStore } from "../../src/results/redis.js";
import type { ResultStore } from "../../src/results/types.js";

const url = process.env.REDIS_URL;

const rows = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => ({
    id: from + i,
    email: `lead${from + i}@example.com`,
    note: "x".repeat(100),
  }));
const result = (n: number) => ({
  meta: { tool: "marketo_api_call", kind: "records", columns: ["id", "email", "note"] },
  pages: toPages(rows(n)),
});

/** The same behaviour from both backends. */
function contract(name: string, make: (limits: { ttlMs: number; perWorkspace: number }) => ResultStore) {
  describe(`${name} result store`, () => {
    it("keeps a result in pages that together hold every item once, in order", async () => {
      const store = make({ ttlMs: 60_000, perWorkspace: 5 });
      const meta = await store.put("acme", result(1_000));
      expect(meta.items).toBe(1_000);
      expect(meta.pageItems.length).toBeGreaterThan(1);
      const items: { id: number }[] = [];
      for (let i = 0; i < meta.pageItems.length; i += 1) {
        const page = await store.page("acme", meta.id, i);
        expect(Buffer.byteLength(page ?? "")).toBeLessThanOrEqual(45_000);
        items.push(...(JSON.parse(page ?? "[]") as { id: number }[]));
      }
      expect(items.map((item) => item.id)).toEqual(rows(1_000).map((row) => row.id));
      expect(await store.meta("acme", meta.id)).toMatchObject({
        id: meta.id,
        items: 1_000,
        tool: "marketo_api_call",
      });
      await store.close();
    });

    it("finds a result only through the workspace that produced it", async () => {
      const store = make({ ttlMs: 60_000, perWorkspace: 5 });
      const meta = await store.put("acme", result(10));
      expect(await store.meta("globex", meta.id)).toBeUndefined();
      expect(await store.page("globex", meta.id, 0)).toBeUndefined();
      await store.close();
    });

    it("keeps at most perWorkspace results per workspace, dropping the oldest", async () => {
      const store = make({ ttlMs: 60_000, perWorkspace: 2 });
      const first = await store.put("acme", result(3));
      const other = await store.put("globex", result(3));
      const second = await store.put("acme", result(3));
      const third = await store.put("acme", result(3));
      expect(await store.meta("acme", first.id)).toBeUndefined();
      expect(await store.page("acme", first.id, 0)).toBeUndefined();
      expect(await store.meta("acme", second.id)).toBeDefined();
      expect(await store.meta("acme", third.id)).toBeDefined();
      expect(await store.meta("globex", other.id)).toBeDefined();
      await store.close();
    });

    it("drops the oldest by the order results were kept, also when several are kept in the same millisecond", async () => {
      const store = make({ ttlMs: 60_000, perWorkspace: 2 });
      const kept: string[] = [];
      for (let i = 0; i < 150; i += 1) kept.push((await store.put("acme", result(1))).id);
      const alive = await Promise.all(kept.map(async (id) => (await store.meta("acme", id)) !== undefined));
      expect(alive.lastIndexOf(false)).toBe(kept.length - 3);
      expect(alive.filter(Boolean)).toHaveLength(2);
      await store.close();
    });

    it("forgets a result after its time to live", async () => {
      const store = make({ ttlMs: 150, perWorkspace: 5 });
      const meta = await store.put("acme", result(3));
      expect(await store.meta("acme", meta.id)).toBeDefined();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await store.meta("acme", meta.id)).toBeUndefined();
      expect(await store.page("acme", meta.id, 0)).toBeUndefined();
      await store.close();
    });
  });
}

contract("memory", (limits) => new MemoryResultStore({ ...limits, maxBytes: 50_000_000 }));

describe("memory result store", () => {
  it("holds at most maxBytes for all workspaces together, dropping the oldest", async () => {
    const store = new MemoryResultStore({ ttlMs: 60_000, perWorkspace: 10, maxBytes: 300_000 });
    const old = await store.put("acme", result(1_000));
    const recent = await store.put("globex", result(1_000));
    expect(old.bytes + recent.bytes).toBeGreaterThan(300_000);
    expect(await store.meta("acme", old.id)).toBeUndefined();
    expect(await store.meta("globex", recent.id)).toBeDefined();
  });
});

describe("result pages as CSV", () => {
  it("writes RFC 4180 with the header on the first page only, so that the pages joined are the file", () => {
    const items = [
      { id: 1, note: 'Smith, "Jones"', nested: { a: 1 }, empty: null },
      { id: 2, note: "two\nlines" },
    ];
    const [page] = toPages(items);
    const columns = ["id", "note", "nested", "empty"];
    expect(csvPage(page?.json ?? "[]", columns, true)).toBe(
      'id,note,nested,empty\r\n1,"Smith, ""Jones""","{""a"":1}",\r\n2,"two\nlines",,\r\n',
    );
    expect(csvPage(page?.json ?? "[]", columns, false).startsWith("1,")).toBe(true);
  });
});

describe.skipIf(!url)("Redis result store against a real Redis", () => {
  const prefix = `martech-test:${randomUUID()}:`;
  let raw: Redis;
  const stores: RedisResultStore[] = [];
  beforeAll(() => {
    raw = new Redis(url ?? "");
  });
  afterAll(async () => {
    const keys = await raw.keys(`${prefix}*`);
    if (keys.length > 0) await raw.del(...keys);
    await Promise.all([raw.quit(), ...stores.map((store) => store.close())]);
  });
  contract("Redis", (limits) => {
    const store = new RedisResultStore(limits, { url, keyPrefix: prefix });
    stores.push(store);
    return store;
  });

  it("lets another replica (its own connection) serve a result one kept", async () => {
    const one = new RedisResultStore({ ttlMs: 60_000, perWorkspace: 5 }, { url, keyPrefix: prefix });
    const two = new RedisResultStore({ ttlMs: 60_000, perWorkspace: 5 }, { url, keyPrefix: prefix });
    stores.push(one, two);
    const meta = await one.put("acme", result(500));
    expect(await two.meta("acme", meta.id)).toEqual(meta);
    expect(await two.page("acme", meta.id, 0)).toBe(await one.page("acme", meta.id, 0));
    // Every key of the result expires with it.
    const keys = await raw.keys(`${prefix}results:{acme}:${meta.id}*`);
    expect(keys.length).toBe(meta.pageItems.length + 1);
    for (const key of keys) expect(await raw.pttl(key)).toBeGreaterThan(0);
  });
});
