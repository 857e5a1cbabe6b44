import nock from "nock";
import { describe, expect, it } from "vitest";
import { MemoryState } from "../../../src/state/memory.js";
import { ADMIN, DATA, offline, setup } from "../../helpers/google-connector.js";

offline();

const compatible = { dimensionCompatibilities: [], metricCompatibilities: [] };
const body = (value: string) => ({
  dimensions: [{ name: "country" }],
  metrics: [{ name: "sessions" }],
  dimensionFilter: { filter: { fieldName: "city", stringFilter: { value } } },
  compatibilityFilter: "INCOMPATIBLE",
});

describe("answers kept by the connector", () => {
  it("asks checkCompatibility once per property and field set, whatever the filter values", async () => {
    const asked = nock(DATA).post("/v1beta/properties/1:checkCompatibility").times(2).reply(200, compatible);
    const { connector } = setup();
    await connector.checkCompatibility("1", body("Paris"));
    await connector.checkCompatibility("1", body("Lyon"));
    await connector.checkCompatibility("1", {
      ...body("Paris"),
      metrics: [{ name: "sessions" }, { name: "activeUsers" }],
    });
    expect(asked.isDone()).toBe(true);
    nock(DATA).post("/v1beta/properties/2:checkCompatibility").reply(200, compatible);
    await connector.checkCompatibility("2", body("Paris"));
    expect(nock.pendingMocks()).toEqual([]);
  });

  it("never keeps a failed compatibility answer", async () => {
    nock(DATA)
      .post("/v1beta/properties/1:checkCompatibility")
      .reply(400, { error: { code: 400, status: "INVALID_ARGUMENT", message: "bad" } });
    nock(DATA).post("/v1beta/properties/1:checkCompatibility").reply(200, compatible);
    const { connector } = setup();
    await expect(connector.checkCompatibility("1", body("Paris"))).rejects.toThrow();
    await expect(connector.checkCompatibility("1", body("Paris"))).resolves.toEqual(compatible);
  });

  it("reads a property's time zone once for many reports", async () => {
    nock(ADMIN)
      .get("/v1beta/properties/7")
      .once()
      .reply(200, { name: "properties/7", timeZone: "Europe/Paris" });
    const { connector } = setup();
    const zones = await Promise.all(Array.from({ length: 5 }, () => connector.timeZone("7")));
    expect(zones).toEqual(Array(5).fill("Europe/Paris"));
    expect(await connector.timeZone("7")).toBe("Europe/Paris");
  });

  it("reads a property once for its time zone and its createTime", async () => {
    nock(ADMIN)
      .get("/v1beta/properties/8")
      .once()
      .reply(200, { name: "properties/8", timeZone: "Asia/Tokyo", createTime: "2025-10-28T15:00:00Z" });
    const { connector } = setup();
    expect(await connector.timeZone("8")).toBe("Asia/Tokyo");
    expect(await connector.propertyFacts("8")).toEqual({
      timeZone: "Asia/Tokyo",
      createTime: "2025-10-28T15:00:00Z",
    });
    expect(nock.pendingMocks()).toEqual([]);
  });
});

describe("a released slot of a property", () => {
  it("wakes one waiter, the first in line, which takes the slot with one try", async () => {
    let acquisitions = 0;
    class Counting extends MemoryState {
      override semaphoreAcquire(key: string, limit: number, leaseMs: number) {
        acquisitions += 1;
        return super.semaphoreAcquire(key, limit, leaseMs);
      }
    }
    const order: number[] = [];
    nock(DATA)
      .post("/v1beta/properties/9:runReport")
      .times(20)
      .delay(10)
      .reply(200, (_uri, requestBody) => {
        order.push((requestBody as { limit: number }).limit);
        return { rowCount: 0 };
      });
    const { connector } = setup({ state: new Counting(), maxInFlightPerProperty: 2 });
    await Promise.all(Array.from({ length: 20 }, (_, i) => connector.runReport("9", { limit: i })));
    // Each call asked the shared state once: nobody was woken to find the slot taken.
    expect(acquisitions).toBe(20);
    // First come, first served.
    expect(order).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });
});
