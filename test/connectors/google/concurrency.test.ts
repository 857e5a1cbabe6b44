import nock from "nock";
import { describe, expect, it } from "vitest";
import { MemoryState } from "../../../src/state/memory.js";
import { DATA, offline, setup } from "../../helpers/google-connector.js";

offline();

/** Wraps fetch to measure how many requests per property are on the wire at once. */
function countingFetch() {
  const inFlight = new Map<string, number>();
  const peak = new Map<string, number>();
  const wrapped: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const property = /properties\/(\d+)/.exec(url)?.[1] ?? "?";
    const now = (inFlight.get(property) ?? 0) + 1;
    inFlight.set(property, now);
    peak.set(property, Math.max(peak.get(property) ?? 0, now));
    try {
      return await fetch(input, init);
    } finally {
      inFlight.set(property, (inFlight.get(property) ?? 1) - 1);
    }
  };
  return { fetch: wrapped, peak };
}

describe("per-property concurrency", () => {
  it("keeps at most 10 requests in flight per property and queues the rest", async () => {
    const counter = countingFetch();
    nock(DATA).post("/v1beta/properties/1:runReport").times(25).delay(40).reply(200, { rowCount: 1 });
    nock(DATA).post("/v1beta/properties/2:runReport").times(5).delay(40).reply(200, { rowCount: 2 });
    const state = new MemoryState();
    // Two connectors (two accounts) on one shared state share the property's slots.
    const a = setup({ fetch: counter.fetch, state }).connector;
    const b = setup({ fetch: counter.fetch, state }).connector;
    const results = await Promise.all([
      ...Array.from({ length: 25 }, (_, i) => (i % 2 ? a : b).runReport("1", {})),
      ...Array.from({ length: 5 }, () => a.runReport("2", {})),
    ]);
    expect(results.filter((r) => r.rowCount === 1)).toHaveLength(25);
    expect(counter.peak.get("1")).toBe(10);
    expect(counter.peak.get("2")).toBe(5);
    expect(nock.pendingMocks()).toEqual([]);
  });

  it("honours a lower configured limit", async () => {
    const counter = countingFetch();
    nock(DATA).post("/v1beta/properties/3:runReport").times(6).delay(20).reply(200, {});
    const { connector } = setup({ fetch: counter.fetch, maxInFlightPerProperty: 2 });
    await Promise.all(Array.from({ length: 6 }, () => connector.runReport("3", {})));
    expect(counter.peak.get("3")).toBe(2);
  });
});
