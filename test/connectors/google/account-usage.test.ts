/**
 * What a Google account has used, for its console card: requests sent through it per UTC day, counted
 * in the shared state so two connectors (two replicas) on one state agree, and the GA4 property quotas
 * last returned to its reports.
 */
import nock from "nock";
import { describe, expect, it } from "vitest";
import { MemoryState } from "../../../src/state/memory.js";
import {
  ADMIN,
  DATA,
  NOW,
  offline,
  REPORT_BODY,
  REPORT_PATH,
  setup,
} from "../../helpers/google-connector.js";

offline();

const quota = (consumed: number) => ({
  tokensPerDay: { consumed, remaining: 200_000 - consumed },
  tokensPerHour: { remaining: 40_000 },
});

describe("calls made through an account", () => {
  it("counts every request sent, failed ones too, shared by connectors on one state", async () => {
    nock(ADMIN).get("/v1beta/accountSummaries").times(2).reply(200, {});
    nock(ADMIN)
      .get("/v1beta/properties/9")
      .reply(404, { error: { code: 404, status: "NOT_FOUND" } });
    const state = new MemoryState();
    const one = setup({ state, usageScope: "default:main" }).connector;
    const replica = setup({ state, usageScope: "default:main" }).connector;
    const other = setup({ state, usageScope: "default:other" }).connector;
    await one.request("admin", { method: "GET", path: "v1beta/accountSummaries" });
    await replica.request("admin", { method: "GET", path: "v1beta/accountSummaries" });
    await expect(one.request("admin", { method: "GET", path: "v1beta/properties/9" })).rejects.toThrow();
    const since = new Date(Date.UTC(2025, 5, 1)).toISOString();
    expect(await one.callsToday()).toEqual({ calls: 3, since });
    expect(await replica.callsToday()).toEqual({ calls: 3, since });
    expect(await other.callsToday()).toEqual({ calls: 0, since });
  });

  it("does not count a request refused before sending, and starts again at 00:00 UTC", async () => {
    const state = new MemoryState();
    let now = NOW;
    const { connector } = setup({ state, usageScope: "w:a", now: () => now });
    await expect(connector.request("admin", { method: "GET", path: "../etc/passwd" })).rejects.toThrow();
    expect((await connector.callsToday()).calls).toBe(0);
    nock(ADMIN).get("/v1beta/accounts").reply(200, {});
    await connector.request("admin", { method: "GET", path: "v1beta/accounts" });
    expect((await connector.callsToday()).calls).toBe(1);
    now = Date.UTC(2025, 5, 2, 0, 0, 1);
    expect(await connector.callsToday()).toEqual({ calls: 0, since: "2025-06-02T00:00:00.000Z" });
  });
});

describe("quotas seen through an account", () => {
  it("lists each property's last core and realtime quotas, newest first", async () => {
    let now = NOW;
    const { connector } = setup({ now: () => now });
    expect(connector.quotasSeen()).toEqual([]);
    nock(DATA)
      .post(REPORT_PATH)
      .reply(200, { propertyQuota: quota(5) })
      .post(REPORT_PATH)
      .reply(200, { propertyQuota: quota(12) })
      .post("/v1beta/properties/77:runRealtimeReport")
      .reply(200, { propertyQuota: quota(1) });
    await connector.request("data", { method: "POST", path: REPORT_PATH.slice(1), body: REPORT_BODY });
    now += 1000;
    await connector.request("data", { method: "POST", path: REPORT_PATH.slice(1), body: REPORT_BODY });
    now += 1000;
    await connector.request("data", {
      method: "POST",
      path: "v1beta/properties/77:runRealtimeReport",
      body: { metrics: [{ name: "activeUsers" }] },
    });
    expect(connector.quotasSeen()).toEqual([
      { propertyId: "77", kind: "realtime", seenAt: new Date(NOW + 2000).toISOString(), quotas: quota(1) },
      { propertyId: "123", kind: "core", seenAt: new Date(NOW + 1000).toISOString(), quotas: quota(12) },
    ]);
  });
});
