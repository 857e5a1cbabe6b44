/**
 * A property's kept field list, read again when a name is missing from it: at most once per 30 s per
 * property, at once after a custom definition was written through the connector, never after a read.
 */
import nock from "nock";
import { describe, expect, it } from "vitest";
import { ADMIN, DATA, NOW, offline, setup } from "../../helpers/google-connector.js";

offline();

const fields = (...names: string[]) => ({
  name: "properties/1/metadata",
  dimensions: names.map((apiName) => ({ apiName })),
});

describe("the kept field list of a property", () => {
  it("is read again for a missing name at most once per 30 s", async () => {
    let now = NOW;
    const { connector } = setup({ now: () => now });
    nock(DATA).get("/v1beta/properties/1/metadata").reply(200, fields("country"));
    expect(await connector.getMetadata("1")).toEqual(fields("country"));
    now += 29_000;
    // Under 30 s old: nothing is sent (no interceptor would answer), the kept list stands.
    expect(await connector.refreshMetadata("1")).toBeUndefined();
    now += 1_000;
    nock(DATA).get("/v1beta/properties/1/metadata").reply(200, fields("country", "customEvent:tier"));
    expect(await connector.refreshMetadata("1")).toEqual(fields("country", "customEvent:tier"));
    expect(await connector.getMetadata("1")).toEqual(fields("country", "customEvent:tier"));
    now += 5_000;
    expect(await connector.refreshMetadata("1")).toBeUndefined();
    expect(nock.pendingMocks()).toEqual([]);
  });

  it("shares one read among callers that ask together", async () => {
    const { connector } = setup();
    nock(DATA).get("/v1beta/properties/1/metadata").once().reply(200, fields("country"));
    const [kept, again] = await Promise.all([connector.getMetadata("1"), connector.refreshMetadata("1")]);
    expect(again).toEqual(kept);
  });

  it("is dropped by a custom definition written through the connector, not by a read of them", async () => {
    const { connector } = setup();
    nock(DATA).get("/v1beta/properties/1/metadata").reply(200, fields("country"));
    await connector.getMetadata("1");
    nock(ADMIN).get("/v1beta/properties/1/customDimensions").reply(200, { customDimensions: [] });
    await connector.request("admin", { method: "GET", path: "v1beta/properties/1/customDimensions" });
    // Still kept: no second metadata interceptor is needed.
    expect(await connector.getMetadata("1")).toEqual(fields("country"));
    for (const [method, path] of [
      ["POST", "v1beta/properties/1/customDimensions"],
      ["PATCH", "v1beta/properties/1/customMetrics/7"],
      ["POST", "v1beta/properties/1/customDimensions/5:archive"],
    ] as const) {
      nock(ADMIN).intercept(`/${path}`, method).query(true).reply(200, {});
      await connector.request("admin", { method, path, body: {} });
      nock(DATA).get("/v1beta/properties/1/metadata").reply(200, fields("country", path));
      expect(await connector.getMetadata("1")).toEqual(fields("country", path));
    }
    expect(nock.pendingMocks()).toEqual([]);
  });
});
