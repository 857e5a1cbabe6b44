import nock from "nock";
import { describe, expect, it } from "vitest";
import { UpstreamError } from "../../../src/errors.js";
import { ADMIN, DATA, NOW, offline, setup, status } from "../../helpers/google-connector.js";

offline();

describe("listAll", () => {
  it("follows nextPageToken with the same parameters until the last page", async () => {
    const scope = nock(ADMIN)
      .get("/v1beta/properties")
      .query({ filter: "parent:accounts/1", pageSize: "2" })
      .reply(200, { properties: [{ name: "properties/1" }, { name: "properties/2" }], nextPageToken: "p2" })
      .get("/v1beta/properties")
      .query({ filter: "parent:accounts/1", pageSize: "2", pageToken: "p2" })
      .reply(200, { properties: [{ name: "properties/3" }] });
    const { connector } = setup();
    const result = await connector.listAll<{ name: string }>("v1beta/properties", "properties", {
      filter: "parent:accounts/1",
      pageSize: 2,
    });
    expect(result).toEqual({
      items: [{ name: "properties/1" }, { name: "properties/2" }, { name: "properties/3" }],
    });
    scope.done();
  });

  it("stops at maxPages or maxItems and returns the token to resume from", async () => {
    nock(ADMIN)
      .get("/v1beta/accounts")
      .query(true)
      .times(3)
      .reply((uri) => {
        const token = new URL(uri, ADMIN).searchParams.get("pageToken") ?? "t0";
        const n = Number(token.slice(1)) + 1;
        return [200, { accounts: [{ name: `accounts/${n}` }], nextPageToken: `t${n}` }];
      });
    const { connector } = setup();
    await expect(connector.listAll("v1beta/accounts", "accounts", {}, { maxPages: 2 })).resolves.toEqual({
      items: [{ name: "accounts/1" }, { name: "accounts/2" }],
      nextPageToken: "t2",
    });
    await expect(connector.listAll("v1beta/accounts", "accounts", {}, { maxItems: 1 })).resolves.toEqual({
      items: [{ name: "accounts/1" }],
      nextPageToken: "t1",
    });
  });

  it("treats a missing list key as an empty page and fails on a repeated page token", async () => {
    nock(ADMIN).get("/v1beta/properties/1/keyEvents").reply(200, {});
    const { connector } = setup();
    await expect(connector.listAll("v1beta/properties/1/keyEvents", "keyEvents")).resolves.toEqual({
      items: [],
    });
    nock(ADMIN)
      .get("/v1beta/accounts")
      .query(true)
      .times(3)
      .reply(200, { accounts: [{}], nextPageToken: "same" });
    await expect(connector.listAll("v1beta/accounts", "accounts")).rejects.toThrow(UpstreamError);
  });
});

describe("property quota", () => {
  const quota = {
    tokensPerDay: { consumed: 12, remaining: 199_988 },
    tokensPerHour: { consumed: 12, remaining: 39_988 },
    concurrentRequests: { remaining: 10 },
  };

  it("asks for propertyQuota on reports and records the snapshot", async () => {
    let sent: Record<string, unknown> = {};
    nock(DATA)
      .post("/v1beta/properties/123:runReport", (body) => {
        sent = body;
        return true;
      })
      .reply(200, { rowCount: 0, propertyQuota: quota, kind: "analyticsData#runReport" });
    const { connector } = setup();
    expect(connector.quota("123")).toBeUndefined();
    await connector.runReport("properties/123", { metrics: [{ name: "sessions" }] });
    expect(sent.returnPropertyQuota).toBe(true);
    expect(connector.quota("123")).toEqual({
      propertyId: "123",
      kind: "core",
      seenAt: new Date(NOW).toISOString(),
      quotas: quota,
    });
  });

  it("respects an explicit returnPropertyQuota:false; fills it into every request of a batch", async () => {
    const bodies: Record<string, unknown>[] = [];
    nock(DATA)
      .post("/v1beta/properties/5:runReport", (b) => bodies.push(b) > 0)
      .reply(200, {})
      .post("/v1beta/properties/5:batchRunReports", (b) => bodies.push(b) > 0)
      .reply(200, { reports: [{ propertyQuota: quota }, { rowCount: 1 }] })
      .post("/v1beta/properties/5:runRealtimeReport", (b) => bodies.push(b) > 0)
      .reply(200, { propertyQuota: { tokensPerHour: { consumed: 1, remaining: 14_999 } } });
    const { connector } = setup();
    await connector.runReport("5", { returnPropertyQuota: false });
    await connector.call({
      method: "POST",
      path: "v1beta/properties/5:batchRunReports",
      body: { requests: [{}, { returnPropertyQuota: false }] },
    });
    expect(connector.quota("5", "core")?.quotas).toEqual(quota);
    await connector.runRealtimeReport("5", {});
    expect(bodies[0]).toEqual({ returnPropertyQuota: false });
    expect(bodies[1]).toEqual({ requests: [{ returnPropertyQuota: true }, { returnPropertyQuota: false }] });
    expect(bodies[2]).toEqual({ returnPropertyQuota: true });
    expect(connector.quota("5", "realtime")?.quotas).toEqual({
      tokensPerHour: { consumed: 1, remaining: 14_999 },
    });
    expect(connector.quota("5", "core")?.quotas).toEqual(quota);
  });
});

describe("metadata", () => {
  it("is cached per property for 10 minutes, and a failure is not cached", async () => {
    let now = NOW;
    const scope = nock(DATA)
      .get("/v1beta/properties/7/metadata")
      .reply(500, status(500, "INTERNAL", "boom"))
      .get("/v1beta/properties/7/metadata")
      .reply(200, { name: "properties/7/metadata", dimensions: [{ apiName: "date" }] })
      .get("/v1beta/properties/7/metadata")
      .reply(200, { name: "properties/7/metadata", dimensions: [{ apiName: "country" }] });
    const { connector } = setup({ now: () => now, maxRetries: 0 });
    await expect(connector.getMetadata("7")).rejects.toThrow(UpstreamError);
    const [a, b] = await Promise.all([connector.getMetadata("7"), connector.getMetadata("properties/7")]);
    expect(a.dimensions?.[0]?.apiName).toBe("date");
    expect(b).toBe(a);
    now += 9 * 60_000;
    expect((await connector.getMetadata("7")).dimensions?.[0]?.apiName).toBe("date");
    now += 2 * 60_000;
    expect((await connector.getMetadata("7")).dimensions?.[0]?.apiName).toBe("country");
    scope.done();
  });

  it("one caller cancelling does not fail another caller waiting on the same fetch", async () => {
    nock(DATA)
      .get("/v1beta/properties/8/metadata")
      .delay(80)
      .reply(200, { name: "properties/8/metadata", dimensions: [{ apiName: "date" }] });
    const { connector } = setup();
    const controller = new AbortController();
    const first = connector.getMetadata("8", controller.signal);
    const second = connector.getMetadata("8");
    setTimeout(() => controller.abort(), 20);
    await expect(first).rejects.toThrow(/cancelled/);
    expect((await second).dimensions?.[0]?.apiName).toBe("date");
  });
});
