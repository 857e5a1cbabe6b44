/**
 * Bulk custom object import and bulk program member import on the sandbox: batches on the lead
 * import's queue (Queued → Importing → Complete), what they write, and their failures and warnings files.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, fileInit, type Harness, startHarness } from "../../helpers/marketo-sandbox.js";

const NOW = Date.parse("2026-03-03T15:00:00Z");
let clock = NOW;
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ leadCount: 200, now: () => clock, bulkJobMs: 10_000 });
});
afterAll(async () => {
  await h.close();
});

const raw = async (path: string) => {
  const res = await fetch(`${h.sb.url}${path}`, { headers: { authorization: `Bearer ${h.token}` } });
  return { status: res.status, text: await res.text() };
};

describe("bulk custom object import", () => {
  it("imports car_c records by vin, with failures and warnings files", async () => {
    const file = [
      "vin,leadId,make,year,wheels",
      "IMP-1,3,Kia,2020,4",
      "IMP-2,999999,Kia,2021,",
      "IMP-3,4,Fiat,,",
    ].join("\n");
    const created = await h.call("/bulk/v1/customobjects/car_c/import.json?format=csv", fileInit(file));
    expect(created.result?.[0]).toMatchObject({
      objectApiName: "car_c",
      operation: "import",
      status: "Queued",
    });
    const id = created.result?.[0]?.batchId as number;
    const status = (name = "car_c") => h.call(`/bulk/v1/customobjects/${name}/import/${id}/status.json`);
    expect((await status()).result?.[0]?.status).toBe("Importing");
    expect((await raw(`/bulk/v1/customobjects/car_c/import/${id}/failures.json`)).status).toBe(404);
    clock += 10_000;
    expect((await status()).result?.[0]).toMatchObject({
      status: "Complete",
      numOfObjectsProcessed: 2,
      numOfRowsFailed: 1,
      numOfRowsWithWarning: 1,
      message: "Import completed with errors, 2 records imported, 1 failed",
    });
    const cars = await h.call(
      "/rest/v1/customobjects/car_c.json?filterType=vin&filterValues=IMP-1,IMP-3&fields=vin,leadId,year",
    );
    expect(cars.result?.map((c) => [c.vin, c.leadId, c.year])).toEqual([
      ["IMP-1", 3, 2020],
      ["IMP-3", 4, null],
    ]);
    const failures = await raw(`/bulk/v1/customobjects/car_c/import/${id}/failures.json`);
    expect(failures.text.trim().split("\n")).toEqual([
      "vin,leadId,make,year,wheels,Import Failure Reason",
      "IMP-2,999999,Kia,2021,,Value for the link field 'leadId' is not a lead id",
    ]);
    const warnings = await raw(`/bulk/v1/customobjects/car_c/import/${id}/warnings.json`);
    expect(warnings.text.trim().split("\n")[1]).toBe("IMP-1,3,Kia,2020,4,Field 'wheels' not found");
    // Not under another type, nor as a lead batch.
    expect(errorCode(await status("boat_c"))).toBe("1013");
    expect(errorCode(await h.call(`/bulk/v1/leads/batch/${id}.json`))).toBe("1013");
  });

  it("refuses an unknown type; a file without the dedupe column fails the batch", async () => {
    expect(
      errorCode(await h.call("/bulk/v1/customobjects/boat_c/import.json?format=csv", fileInit("vin\nX\n"))),
    ).toBe("1013");
    const created = await h.call(
      "/bulk/v1/customobjects/car_c/import.json?format=csv",
      fileInit("make\nKia\n"),
    );
    const id = created.result?.[0]?.batchId as number;
    clock += 20_000;
    const done = await h.call(`/bulk/v1/customobjects/car_c/import/${id}/status.json`);
    expect(done.result?.[0]).toMatchObject({ status: "Failed" });
  });
});

describe("bulk program member import", () => {
  it("upserts leads by email and makes them members with the status, writing the status activity", async () => {
    const file = [
      "email,firstName,title",
      "lead9@example.com,Nine,CTO",
      "pm.new@example.com,New,",
      "broken,Bad,",
    ].join("\n");
    const created = await h.call(
      "/bulk/v1/program/1002/members/import.json?format=csv&programMemberStatus=Engaged",
      fileInit(file),
    );
    expect(created.success, JSON.stringify(created)).toBe(true);
    const id = created.result?.[0]?.batchId as number;
    await h.call(`/bulk/v1/program/members/import/${id}/status.json`);
    clock += 10_000;
    const done = await h.call(`/bulk/v1/program/members/import/${id}/status.json`);
    expect(done.result?.[0]).toMatchObject({
      status: "Complete",
      numOfLeadsProcessed: 2,
      numOfRowsFailed: 1,
      message: "Import completed with errors, 2 records imported (2 members), 1 failed",
    });
    const added = await h.call("/rest/v1/leads.json?filterType=email&filterValues=pm.new@example.com");
    const newId = added.result?.[0]?.id as number;
    const members = await h.call(
      `/rest/v1/programs/1002/members.json?filterType=leadId&filterValues=9,${newId}&fields=statusName`,
    );
    expect(members.result?.map((m) => m.statusName)).toEqual(["Engaged", "Engaged"]);
    const failures = await raw(`/bulk/v1/program/members/import/${id}/failures.json`);
    expect(failures.text.trim().split("\n")[1]).toBe(
      "broken,Bad,,Invalid value for field 'email' and value 'broken'",
    );
  });

  it("needs a status of the program's channel and an existing program", async () => {
    const file = fileInit("email\nx@example.com\n");
    expect(errorCode(await h.call("/bulk/v1/program/1002/members/import.json?format=csv", file))).toBe(
      "1002",
    );
    const bad = fileInit("email\nx@example.com\n");
    expect(
      errorCode(
        await h.call("/bulk/v1/program/1002/members/import.json?format=csv&programMemberStatus=Nope", bad),
      ),
    ).toBe("1003");
    const gone = fileInit("email\nx@example.com\n");
    expect(
      errorCode(
        await h.call("/bulk/v1/program/99/members/import.json?format=csv&programMemberStatus=Engaged", gone),
      ),
    ).toBe("1013");
  });
});
