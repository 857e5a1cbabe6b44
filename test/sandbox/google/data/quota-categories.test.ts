/**
 * Google's quota page on the Data API emulator: Core, Realtime and Funnel buckets per property with
 * the standard limits, the per-project share enforced, concurrency for each category, getMetadata and
 * checkCompatibility charged as Core requests, and checkCompatibility failing on an incompatible request.
 */
import { afterEach, describe, expect, it } from "vitest";
import { QuotaTracker, STANDARD_LIMITS } from "../../../../src/sandbox/google/data/quota.js";
import { type Sandbox, SHOP, startSandbox } from "../../../helpers/ga-data-sandbox.js";

const P = `/v1beta/properties/${SHOP}`;
const BODY = {
  dateRanges: [{ startDate: "7daysAgo", endDate: "yesterday" }],
  metrics: [{ name: "sessions" }],
  returnPropertyQuota: true,
};
const REALTIME = { metrics: [{ name: "activeUsers" }], returnPropertyQuota: true };
const message = (json: Record<string, unknown>) => (json.error as { message: string } | undefined)?.message;

describe("Data API quota categories", () => {
  let s: Sandbox | undefined;
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  it("reports the quota page's standard limits for core and realtime requests", async () => {
    s = await startSandbox();
    for (const [path, body] of [
      [`${P}:runReport`, BODY],
      [`${P}:runRealtimeReport`, REALTIME],
    ] as const) {
      const { json } = await s.post(path, body);
      expect(json.propertyQuota, path).toEqual({
        tokensPerDay: { consumed: 1, remaining: 199_999 },
        tokensPerHour: { consumed: 1, remaining: 39_999 },
        concurrentRequests: { remaining: 10 },
        serverErrorsPerProjectPerHour: { remaining: 10 },
        potentiallyThresholdedRequestsPerHour: { remaining: 120 },
        tokensPerProjectPerHour: { consumed: 1, remaining: 13_999 },
      });
    }
  });

  it("enforces tokens per project per property per hour, per category", async () => {
    s = await startSandbox({ tokensPerProjectPerHour: 2 });
    expect((await s.post(`${P}:runReport`, BODY)).status).toBe(200);
    expect((await s.post(`${P}:runReport`, BODY)).status).toBe(200);
    const rejected = await s.post(`${P}:runReport`, BODY);
    expect(rejected.status).toBe(429);
    // Google's exact wording (REAL-API B4; the message Airbyte's GA4 source matches, api_quota.py), so
    // retry code written against the sandbox recognises the real one.
    expect(message(rejected.json)).toBe("Exhausted property tokens for a project per hour.");
    expect(rejected.json).toMatchObject({ error: { code: 429, status: "RESOURCE_EXHAUSTED" } });
    // Realtime has buckets of its own.
    expect((await s.post(`${P}:runRealtimeReport`, REALTIME)).status).toBe(200);
    s.world.clock.now += 3_600_001;
    expect((await s.post(`${P}:runReport`, BODY)).status).toBe(200);
  });

  it("charges getMetadata and checkCompatibility one core token and refuses them on an exhausted property", async () => {
    s = await startSandbox({ tokensPerHour: 4 });
    expect((await s.get(`${P}/metadata`)).status).toBe(200);
    expect((await s.post(`${P}:checkCompatibility`, { metrics: [{ name: "sessions" }] })).status).toBe(200);
    const report = await s.post(`${P}:runReport`, BODY);
    // 1 (metadata) + 1 (compatibility) + 1 (this report) of 4.
    expect((report.json.propertyQuota as { tokensPerHour: unknown }).tokensPerHour).toEqual({
      consumed: 1,
      remaining: 1,
    });
    expect((await s.get(`${P}/metadata`)).status).toBe(200);
    const metadata = await s.get(`${P}/metadata`);
    expect(metadata.status).toBe(429);
    expect(message(metadata.json)).toBe("Exhausted property tokens per hour.");
    const compatibility = await s.post(`${P}:checkCompatibility`, { metrics: [{ name: "sessions" }] });
    expect(compatibility.status).toBe(429);
    // The universal metadata belongs to no property.
    expect((await s.get("/v1beta/properties/0/metadata")).status).toBe(200);
  });

  it("checkCompatibility fails with INVALID_ARGUMENT when the request itself is incompatible or invalid", async () => {
    s = await startSandbox();
    const incompatible = await s.post(`${P}:checkCompatibility`, {
      dimensions: [{ name: "itemName" }],
      metrics: [{ name: "sessions" }],
    });
    expect(incompatible.status).toBe(400);
    expect((incompatible.json.error as { status: string }).status).toBe("INVALID_ARGUMENT");
    expect(message(incompatible.json)).toContain("sessions");
    const unknown = await s.post(`${P}:checkCompatibility`, { dimensions: [{ name: "nope" }] });
    expect(unknown.status).toBe(400);
    const fine = await s.post(`${P}:checkCompatibility`, { dimensions: [{ name: "itemName" }] });
    expect(fine.status).toBe(200);
  });

  it("limits realtime requests in flight per property like core ones", async () => {
    s = await startSandbox({ concurrentRequests: 2, latencyMs: 200 });
    const sandbox = s;
    const results = await Promise.all(
      Array.from({ length: 5 }, () => sandbox.post(`${P}:runRealtimeReport`, REALTIME)),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 429, 429, 429]);
    expect(message(results.find((r) => r.status === 429)?.json ?? {})).toBe(
      "Exhausted concurrent requests quota.",
    );
  });

  it("keeps a funnel category with its own tokens and concurrency (runFunnelReport charges it)", () => {
    const limits = { ...STANDARD_LIMITS, tokensPerHour: 1, concurrentRequests: 1 };
    const tracker = new QuotaTracker({ core: limits, realtime: limits, funnel: limits });
    const now = Date.UTC(2025, 0, 1);
    tracker.charge("funnel", SHOP, now, 1);
    expect(() => tracker.ensureTokens("funnel", SHOP, now)).toThrow("Exhausted property tokens per hour.");
    expect(() => tracker.ensureTokens("core", SHOP, now)).not.toThrow();
    const release = tracker.acquire("funnel", SHOP);
    expect(() => tracker.acquire("funnel", SHOP)).toThrow("Exhausted concurrent requests quota.");
    expect(tracker.acquire("core", SHOP)).toBeTypeOf("function");
    release();
    expect(tracker.acquire("funnel", SHOP)).toBeTypeOf("function");
  });
});
