import { describe, expect, it, vi } from "vitest";
import { MarketoConnector } from "../../../src/connectors/marketo/connector.js";
import { sharedKey } from "../../../src/state/keys.js";
import { MemoryState } from "../../../src/state/memory.js";

const ORIGIN = "https://123-abc-456.mktorest.com";
const INSTANCE = "123-abc-456.mktorest.com";
const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A fetch that counts calls in flight; paths with "slow" take `slowMs`. */
function countingFetch(slowMs: number) {
  const seen = { inFlight: 0, maxInFlight: 0 };
  const fetchImpl: typeof fetch = async (input) => {
    const url = new URL(String(input));
    if (url.pathname === "/identity/oauth/token") return json({ access_token: "tok:int", expires_in: 3599 });
    seen.inFlight += 1;
    seen.maxInFlight = Math.max(seen.maxInFlight, seen.inFlight);
    if (url.pathname.includes("slow")) await sleep(slowMs);
    seen.inFlight -= 1;
    return json({ success: true, requestId: "r", result: [] });
  };
  return { seen, fetchImpl };
}

const config = {
  clientId: "id",
  clientSecret: "secret",
  restEndpoint: `${ORIGIN}/rest`,
  maxConcurrent: 1,
  leaseMs: 150,
};

describe("the in-flight lease across replicas", () => {
  it("is renewed while a call runs longer than the lease, so another replica cannot take its slot", async () => {
    // One shared state stands for Redis: two replicas, one slot, a lease of 150 ms, a call of 700 ms. On a
    // clock of the test's own: on real timers a CI machine under load once held the event loop past the lease
    // between two renewals, and B rightly took a slot that looked lapsed (clean-clone run, Node 20).
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
    try {
      const state = new MemoryState();
      const { seen, fetchImpl } = countingFetch(700);
      const a = new MarketoConnector(config, { fetch: fetchImpl, state });
      const b = new MarketoConnector(config, { fetch: fetchImpl, state });
      const slow = a.request({ method: "GET", path: "/rest/v1/slow.json" });
      await vi.advanceTimersByTimeAsync(50);
      const started = Date.now();
      let ended = 0;
      const second = b.request({ method: "GET", path: "/rest/v1/lists.json" }).then(() => {
        ended = Date.now();
      });
      for (let i = 0; i < 40; i += 1) await vi.advanceTimersByTimeAsync(50);
      await Promise.all([slow, second]);
      // B ran only once A's call was over, although A's lease would have lapsed four times without renewal.
      expect(ended - started).toBeGreaterThan(500);
      expect(seen.maxInFlight).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("of a replica that died frees its slot within the lease, without waiting for the call's timeout", async () => {
    const state = new MemoryState();
    // A dead replica's call: admitted (window entry and lease), never finished nor renewed.
    const admission = await state.admitCall({
      windowKey: sharedKey(`marketo:${INSTANCE}`, "window"),
      limit: 100,
      windowMs: 20_000,
      slotsKey: sharedKey(`marketo:${INSTANCE}`, "inflight"),
      maxConcurrent: 1,
      leaseMs: 150,
      dailyKey: sharedKey(`marketo:${INSTANCE}`, "daily", "dead"),
      dailyQuota: 50_000,
      dayTtlMs: 60_000,
      id: "dead-replica-call",
    });
    expect(admission.admitted).toBe(true);
    const { seen, fetchImpl } = countingFetch(0);
    const live = new MarketoConnector({ ...config, timeoutMs: 30_000 }, { fetch: fetchImpl, state });
    const started = performance.now();
    await live.request({ method: "GET", path: "/rest/v1/lists.json" });
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThan(100);
    expect(waited).toBeLessThan(2_000);
    expect(seen.maxInFlight).toBe(1);
  });

  it("a call waiting for the rate window holds no slot", async () => {
    const state = new MemoryState();
    const { fetchImpl } = countingFetch(0);
    const waits: string[] = [];
    const marketo = new MarketoConnector(
      { ...config, maxConcurrent: 2, callsPerWindow: 1, windowMs: 60_000 },
      { fetch: fetchImpl, state },
    );
    await marketo.request({ method: "GET", path: "/rest/v1/lists.json" });
    const controller = new AbortController();
    const waiting = marketo
      .request({
        method: "GET",
        path: "/rest/v1/lists.json",
        signal: controller.signal,
        onWait: ({ reason }) => waits.push(reason),
      })
      .catch(() => undefined);
    await sleep(20);
    expect(waits).toEqual(["rate_window"]);
    // Both slots are free while it waits.
    expect(
      await state.semaphoreAcquire(sharedKey(`marketo:${INSTANCE}`, "inflight"), 2, 1_000),
    ).not.toBeNull();
    expect(
      await state.semaphoreAcquire(sharedKey(`marketo:${INSTANCE}`, "inflight"), 2, 1_000),
    ).not.toBeNull();
    controller.abort();
    await waiting;
  });
});

describe("SharedState semaphoreRenew (memory)", () => {
  it("extends a held lease, and holds a lapsed one again (its work is still running)", async () => {
    let t = 0;
    const state = new MemoryState(() => t);
    const lease = (await state.semaphoreAcquire("s", 1, 100))!;
    t = 90;
    expect(await state.semaphoreRenew("s", lease, 100)).toBe(true);
    t = 150;
    expect(await state.semaphoreAcquire("s", 1, 100)).toBeNull();
    t = 191;
    expect(await state.semaphoreRenew("s", lease, 100)).toBe(false);
    expect(await state.semaphoreAcquire("s", 1, 100)).toBeNull();
    t = 292;
    expect(await state.semaphoreAcquire("s", 1, 100)).not.toBeNull();
  });
});

describe("releasing the slot", () => {
  it("a failed release (Redis gone) does not turn a call that ran into an error a caller would retry", async () => {
    let finishes = 0;
    class ReleaseFails extends MemoryState {
      override async finishCall(): Promise<void> {
        finishes += 1;
        throw new Error("redis went away");
      }
    }
    let posts = 0;
    const fetchImpl: typeof fetch = async (input) => {
      const url = new URL(String(input));
      if (url.pathname === "/identity/oauth/token")
        return json({ access_token: "tok:int", expires_in: 3599 });
      posts += 1;
      return json({ success: true, requestId: "r", result: [{ id: 1001 }] });
    };
    const marketo = new MarketoConnector(
      { clientId: "id", clientSecret: "secret", restEndpoint: `${ORIGIN}/rest` },
      { fetch: fetchImpl, state: new ReleaseFails() },
    );
    const page = await marketo.request({
      method: "POST",
      path: "/rest/v1/campaigns/1001/trigger.json",
      body: { input: { leads: [{ id: 1 }] } },
    });
    expect(page.result).toEqual([{ id: 1001 }]);
    expect(posts).toBe(1);
    expect(finishes).toBe(1);
  });
});
