import { afterEach, describe, expect, it } from "vitest";
import { tokenCost } from "../../../../src/sandbox/google/data/quota.js";
import { type Sandbox, SHOP, startSandbox } from "../../../helpers/ga-data-sandbox.js";

const RUN = `/v1beta/properties/${SHOP}:runReport`;
const BODY = {
  dateRanges: [{ startDate: "7daysAgo", endDate: "yesterday" }],
  dimensions: [{ name: "country" }],
  metrics: [{ name: "sessions" }],
  returnPropertyQuota: true,
};

describe("Data API quotas", () => {
  let s: Sandbox | undefined;
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  it("documents its token cost: more days, dimensions and rows cost more", () => {
    expect(tokenCost({ days: 7, dimensions: 1, rows: 12 })).toBe(1);
    expect(tokenCost({ days: 400, dimensions: 1, rows: 12 })).toBe(4);
    expect(tokenCost({ days: 7, dimensions: 8, rows: 12 })).toBe(3);
    expect(tokenCost({ days: 7, dimensions: 1, rows: 25_000 })).toBe(3);
  });

  it("returns propertyQuota only when asked, counts tokens, then 429s with the real hourly message", async () => {
    s = await startSandbox({ tokensPerHour: 3 });
    const first = await s.post(RUN, BODY);
    expect(first.status).toBe(200);
    const quota = first.json.propertyQuota as Record<string, { consumed?: number; remaining?: number }>;
    expect(Object.keys(quota).sort()).toEqual([
      "concurrentRequests",
      "potentiallyThresholdedRequestsPerHour",
      "serverErrorsPerProjectPerHour",
      "tokensPerDay",
      "tokensPerHour",
      "tokensPerProjectPerHour",
    ]);
    expect(quota.tokensPerHour).toEqual({ consumed: 1, remaining: 2 });
    expect(quota.tokensPerDay).toEqual({ consumed: 1, remaining: 199_999 });
    expect(quota.concurrentRequests).toEqual({ remaining: 10 });
    expect(Object.keys(first.json).at(-1)).toBe("kind");
    const { returnPropertyQuota: _, ...noQuota } = BODY;
    expect((await s.post(RUN, noQuota)).json.propertyQuota).toBeUndefined();
    expect((await s.post(RUN, BODY)).status).toBe(200);
    const rejected = await s.post(RUN, BODY);
    expect(rejected.status).toBe(429);
    expect(rejected.json.error).toEqual({
      code: 429,
      message: "Exhausted property tokens per hour.",
      status: "RESOURCE_EXHAUSTED",
    });
    // The hourly window rolls: an hour later the property has tokens again.
    s.world.clock.now += 3_600_001;
    expect((await s.post(RUN, BODY)).status).toBe(200);
    expect(s.api.stats().rejected429).toBe(1);
  });

  it("the daily limit answers with the real daily message; realtime tokens are counted apart", async () => {
    s = await startSandbox({ tokensPerDay: 1 });
    expect((await s.post(RUN, BODY)).status).toBe(200);
    const rejected = await s.post(RUN, BODY);
    expect(rejected.status).toBe(429);
    expect((rejected.json.error as { message: string }).message).toBe(
      "Exhausted property tokens per day. These quota tokens will return in under 24 hours.",
    );
    const realtime = await s.post(`/v1beta/properties/${SHOP}:runRealtimeReport`, {
      metrics: [{ name: "activeUsers" }],
      returnPropertyQuota: true,
    });
    expect(realtime.status).toBe(200);
    const quota = realtime.json.propertyQuota as Record<string, { remaining: number }>;
    expect(quota.tokensPerHour?.remaining).toBe(39_999);
  });

  it("more than concurrentRequests in flight for one property gets 429 'Exhausted concurrent requests quota.'", async () => {
    // Each report is held 1.5 s, so the five requests overlap even when a loaded machine spreads their
    // arrival (at 150 ms, a CI run under load saw a first report finish before the last arrived).
    s = await startSandbox({ concurrentRequests: 2, latencyMs: 1_500 });
    const sandbox = s;
    const results = await Promise.all(Array.from({ length: 5 }, () => sandbox.post(RUN, BODY)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 429, 429, 429]);
    const rejected = results.find((r) => r.status === 429);
    expect((rejected?.json.error as { message: string } | undefined)?.message).toBe(
      "Exhausted concurrent requests quota.",
    );
    expect(s.api.stats()).toEqual({ requests: 5, rejected429: 3, maxInFlightByProperty: { [SHOP]: 2 } });
    // Slots are released when a report finishes.
    expect((await s.post(RUN, BODY)).status).toBe(200);
  });
});
