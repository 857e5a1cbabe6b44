import nock from "nock";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { CancelledError } from "../../../src/errors.js";
import { sharedKey } from "../../../src/state/keys.js";
import { MemoryState } from "../../../src/state/memory.js";
import {
  connector,
  fakeClock,
  identity,
  ORIGIN,
  ok,
  recordingFetch,
  rejection,
} from "../../helpers/marketo-connector.js";

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const get = { method: "GET" as const, path: "/rest/v1/leads.json" };

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** A fetch that holds each API call 3 ms and records the most calls in flight at once. */
function peakCountingFetch(): { fetch: typeof fetch; peak: () => number } {
  let inFlight = 0;
  let peak = 0;
  const slow: typeof fetch = async (input, init) => {
    if (!String(input).includes("/rest/")) return globalThis.fetch(input, init);
    inFlight += 1;
    peak = Math.max(peak, inFlight);
    try {
      await new Promise((r) => setTimeout(r, 3));
      return await globalThis.fetch(input, init);
    } finally {
      inFlight -= 1;
    }
  };
  return { fetch: slow, peak: () => peak };
}

describe("Marketo limits", () => {
  it("never lets more than callsPerWindow calls into any windowMs interval, queueing instead of failing", async () => {
    const clock = fakeClock();
    const sent: number[] = [];
    identity();
    nock(ORIGIN).get("/rest/v1/leads.json").times(23).reply(200, ok());
    const waits: string[] = [];
    const marketo = connector(
      { callsPerWindow: 5, windowMs: 300 },
      {
        now: clock.now,
        sleep: clock.sleep,
        fetch: recordingFetch([], (r) => {
          if (r.url.includes("/rest/")) sent.push(clock.now());
        }),
      },
    );
    const results = await Promise.all(
      Array.from({ length: 23 }, () => marketo.request({ ...get, onWait: (w) => waits.push(w.reason) })),
    );
    expect(results).toHaveLength(23);
    expect(sent).toHaveLength(23);
    sent.sort((a, b) => a - b);
    for (let i = 0; i + 5 < sent.length; i += 1) {
      // The 6th call after any call is at least a full window later.
      expect(sent[i + 5]! - sent[i]!).toBeGreaterThanOrEqual(300);
    }
    // Queued, not failed: the last call went out after four full windows.
    expect(sent[22]! - sent[0]!).toBeGreaterThanOrEqual(4 * 300);
    expect(waits).toContain("rate_window");
  });

  it("keeps at most maxConcurrent calls in flight", async () => {
    const { fetch: slow, peak } = peakCountingFetch();
    identity();
    nock(ORIGIN).get("/rest/v1/leads.json").times(40).reply(200, ok());
    const marketo = connector({ maxConcurrent: 4, callsPerWindow: 1000 }, { fetch: slow });
    await Promise.all(Array.from({ length: 40 }, () => marketo.request(get)));
    expect(peak()).toBe(4);
  });

  it("shares limits between connectors of one instance through the shared state", async () => {
    const state = new MemoryState();
    const { fetch: slow, peak } = peakCountingFetch();
    identity("a:int", 3599, 2);
    nock(ORIGIN).get("/rest/v1/leads.json").times(30).reply(200, ok());
    const config = { maxConcurrent: 3, callsPerWindow: 1000 };
    const real = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
    const one = connector(config, { state, fetch: slow, sleep: real });
    const two = connector(config, { state, fetch: slow, sleep: real });
    await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? one : two).request(get)));
    expect(peak()).toBe(3);
    expect((await one.usage()).callsToday).toBe(30);
  });

  it("reports the calls of the current rolling window, shared by connectors of one instance", async () => {
    let now = 1_000_000;
    const state = new MemoryState(() => now);
    identity("a:int", 3599, 2);
    nock(ORIGIN).get("/rest/v1/leads.json").times(3).reply(200, ok());
    const config = { callsPerWindow: 50, windowMs: 20_000 };
    const one = connector(config, { state, now: () => now });
    const two = connector(config, { state, now: () => now });
    expect(await one.usage()).toMatchObject({ windowCalls: 0, callsPerWindow: 50, windowMs: 20_000 });
    await one.request(get);
    await two.request(get);
    await one.request(get);
    expect((await two.usage()).windowCalls).toBe(3);
    now += 22_000; // past the window and its safety margin
    expect(await two.usage()).toMatchObject({ windowCalls: 0, callsToday: 3 });
  });

  it("cancels a queued call on abort with CancelledError and releases every slot", async () => {
    const gate = deferred();
    const state = new MemoryState();
    identity();
    nock(ORIGIN).get("/rest/v1/leads.json").times(2).reply(200, ok());
    let apiCalls = 0;
    const blocking: typeof fetch = async (input, init) => {
      if (String(input).includes("/rest/")) {
        apiCalls += 1;
        if (apiCalls === 1) await gate.promise;
      }
      return globalThis.fetch(input, init);
    };
    const marketo = connector({ maxConcurrent: 1 }, { state, fetch: blocking });
    const first = marketo.request(get);
    // The first holds the one slot once its API call is sent: waited for, not slept for (a loaded machine took
    // more than the 20 ms this slept).
    await vi.waitFor(() => expect(apiCalls).toBe(1));
    const controller = new AbortController();
    const waits: string[] = [];
    const queued = marketo.request({
      ...get,
      signal: controller.signal,
      onWait: (w) => waits.push(w.reason),
    });
    await vi.waitFor(() => expect(waits).toEqual(["concurrency"]));
    controller.abort();
    const error = await rejection(queued);
    expect(error).toBeInstanceOf(CancelledError);
    gate.resolve();
    await first;
    // The slot of the first call and the aborted waiter are both gone: the next call runs at once.
    await marketo.request(get);
    expect(apiCalls).toBe(2);
    expect(
      await state.semaphoreAcquire(sharedKey("marketo:123-abc-456.mktorest.com", "inflight"), 1, 1000),
    ).not.toBeNull();
  });

  it("cancels a call waiting for the rate window and releases its slot", async () => {
    const state = new MemoryState();
    identity();
    nock(ORIGIN).get("/rest/v1/leads.json").reply(200, ok());
    const marketo = connector(
      { callsPerWindow: 1, windowMs: 60_000, maxConcurrent: 1 },
      { state, sleep: undefined },
    );
    await marketo.request(get);
    const controller = new AbortController();
    const waits: { reason: string; waitMs: number }[] = [];
    const pending = marketo.request({ ...get, signal: controller.signal, onWait: (w) => waits.push(w) });
    await new Promise((r) => setTimeout(r, 10));
    expect(waits[0]?.reason).toBe("rate_window");
    expect(waits[0]?.waitMs).toBeGreaterThan(59_000);
    controller.abort();
    expect(await rejection(pending)).toBeInstanceOf(CancelledError);
    expect(
      await state.semaphoreAcquire(sharedKey("marketo:123-abc-456.mktorest.com", "inflight"), 1, 1000),
    ).not.toBeNull();
  });
});
