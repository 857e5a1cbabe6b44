import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, type Harness, jsonInit, startHarness } from "../../helpers/marketo-sandbox.js";

/** Custom objects through the Lead DB API: the seeded car_c type, its records, sync and delete. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ leadCount: 400 });
});
afterAll(async () => {
  await h.close();
});

const sync = (body: unknown) => h.call("/rest/v1/customobjects/car_c.json", jsonInit("POST", body));
const byVin = (vin: string, fields = "vin,leadId,make") =>
  h.call(`/rest/v1/customobjects/car_c.json?filterType=vin&filterValues=${vin}&fields=${fields}`);

describe("custom objects", () => {
  it("lists and describes the car_c type linked to leads", async () => {
    const list = await h.call("/rest/v1/customobjects.json");
    expect(list.result?.map((t) => t.name)).toEqual(["car_c"]);
    expect((await h.call("/rest/v1/customobjects.json?names=boat_c")).result).toEqual([]);
    const described = (await h.call("/rest/v1/customobjects/car_c/describe.json")).result?.[0];
    expect(described).toMatchObject({
      idField: "marketoGUID",
      dedupeFields: ["vin"],
      relationships: [{ field: "leadId", relatedTo: { name: "Lead" } }],
    });
    expect(errorCode(await h.call("/rest/v1/customobjects/boat_c/describe.json"))).toBe("1013");
  });

  it("queries by a dedupe or searchable field; the default fields are the GUID, the dedupe fields and the dates", async () => {
    const byLead = await h.call(
      `/rest/v1/customobjects/car_c.json?filterType=leadId&filterValues=${Array.from({ length: 300 }, (_, i) => i + 1).join(",")}`,
    );
    const first = byLead.result?.[0] as Record<string, unknown>;
    expect(Object.keys(first).sort()).toEqual(["createdAt", "marketoGUID", "seq", "updatedAt", "vin"]);
    const again = await byVin(String(first.vin));
    expect(again.result).toHaveLength(1);
    const byGuid = await h.call(
      `/rest/v1/customobjects/car_c.json?filterType=idField&filterValues=${String(first.marketoGUID)}&fields=vin`,
    );
    expect(byGuid.result?.[0]?.vin).toBe(first.vin);
    expect(
      errorCode(await h.call("/rest/v1/customobjects/car_c.json?filterType=color&filterValues=Red")),
    ).toBe("1003");
    expect(errorCode(await byVin("X", "wheels"))).toBe("1006");
  });

  it("syncs: createOnly, updateOnly and createOrUpdate by vin, update by marketoGUID; refusals per record", async () => {
    const created = await sync({ action: "createOnly", input: [{ vin: "TEST-1", leadId: 5, make: "Kia" }] });
    expect(created.result?.[0]).toMatchObject({ seq: 0, status: "created", marketoGUID: expect.any(String) });
    const guid = created.result?.[0]?.marketoGUID as string;
    expect((await byVin("TEST-1")).result?.[0]).toMatchObject({ vin: "TEST-1", leadId: 5, make: "Kia" });
    const again = await sync({ action: "createOnly", input: [{ vin: "TEST-1", leadId: 5 }] });
    expect(again.result?.[0]).toMatchObject({ status: "skipped", reasons: [{ code: "1005" }] });
    const missing = await sync({ action: "updateOnly", input: [{ vin: "TEST-404", leadId: 5 }] });
    expect(missing.result?.[0]).toMatchObject({ status: "skipped", reasons: [{ code: "1013" }] });
    const updated = await sync({ dedupeBy: "idField", input: [{ marketoGUID: guid, make: "Hyundai" }] });
    expect(updated.result?.[0]).toMatchObject({ status: "updated", marketoGUID: guid });
    expect((await byVin("TEST-1")).result?.[0]?.make).toBe("Hyundai");
    const bad = await sync({
      input: [
        { vin: "TEST-2", leadId: 5, wheels: 4 },
        { vin: "TEST-3", leadId: 999_999 },
      ],
    });
    expect(bad.result?.map((r) => (r.reasons as { code: string }[])[0]?.code)).toEqual(["1006", "1003"]);
    expect(errorCode(await sync({ input: [] }))).toBe("701");
  });

  it("deletes by vin or marketoGUID; a record not found is skipped", async () => {
    await sync({
      input: [
        { vin: "DEL-1", leadId: 7 },
        { vin: "DEL-2", leadId: 7 },
      ],
    });
    const guid = (await byVin("DEL-2")).result?.[0]?.marketoGUID as string;
    const del = (body: unknown) => h.call("/rest/v1/customobjects/car_c/delete.json", jsonInit("POST", body));
    const first = await del({ input: [{ vin: "DEL-1" }, { vin: "DEL-404" }] });
    expect(first.result?.map((r) => r.status)).toEqual(["deleted", "skipped"]);
    expect((await del({ deleteBy: "idField", input: [{ marketoGUID: guid }] })).result?.[0]?.status).toBe(
      "deleted",
    );
    expect((await byVin("DEL-1,DEL-2")).result).toEqual([]);
  });

  it("leaves the custom object metadata API (schema paths) to the not emulated answer", async () => {
    const schema = await h.call("/rest/v1/customobjects/schema.json");
    expect(errorCode(schema)).toBe("610");
    expect(JSON.stringify(schema)).toContain("is a real Marketo endpoint that this sandbox does not emulate");
  });
});
