/**
 * Bulk lead import on the sandbox: a multipart file becomes a batch that moves Queued → Importing →
 * Complete, upserts leads on the lookup field, adds them to a list, and keeps failures and warnings files.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, fileInit, type Harness, jsonInit, startHarness } from "../../helpers/marketo-sandbox.js";

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
  return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
};

const FILE = [
  "email,firstName,lastName,leadScore,shoeSize",
  "lead5@example.com,Five,Updated,,",
  "new.import@example.com,New,Import,12,44",
  "broken,Bad,Email,,",
  "other.import@example.com,Other,Import,lots,",
].join("\n");

describe("bulk lead import", () => {
  it("queues, imports and completes a CSV batch, with its failures and warnings files", async () => {
    const created = await h.call("/bulk/v1/leads.json?format=csv&listId=1010", fileInit(FILE));
    expect(created).toMatchObject({ success: true, result: [{ status: "Queued", numOfLeadsProcessed: 0 }] });
    const id = created.result?.[0]?.batchId as number;
    expect(created.result?.[0]?.importId).toBe(String(id));
    const early = await raw(`/bulk/v1/leads/batch/${id}/failures.json`);
    expect(early.status).toBe(404);
    expect(early.text).toBe(`Import batch ${id} is Importing, not Complete`);

    expect((await h.call(`/bulk/v1/leads/batch/${id}.json`)).result?.[0]?.status).toBe("Importing");
    clock += 5_000;
    expect((await h.call(`/bulk/v1/leads/batch/${id}.json`)).result?.[0]?.status).toBe("Importing");
    clock += 5_000;
    const done = await h.call(`/bulk/v1/leads/batch/${id}.json`);
    expect(done.result?.[0]).toEqual({
      batchId: id,
      importId: String(id),
      status: "Complete",
      numOfLeadsProcessed: 2,
      numOfRowsFailed: 2,
      numOfRowsWithWarning: 1,
      message: "Import completed with errors, 2 records imported (2 members), 2 failed",
    });

    const lead5 = await h.call("/rest/v1/lead/5.json?fields=firstName,lastName");
    expect(lead5.result?.[0]).toMatchObject({ firstName: "Five", lastName: "Updated" });
    const created2 = await h.call(
      "/rest/v1/leads.json?filterType=email&filterValues=new.import@example.com&fields=leadScore",
    );
    expect(created2.result?.[0]).toMatchObject({ leadScore: 12 });
    const members = await h.call("/rest/v1/lists/1010/leads.json");
    expect(members.result?.map((l) => l.id).sort()).toEqual([5, created2.result?.[0]?.id].sort());

    const failures = await raw(`/bulk/v1/leads/batch/${id}/failures.json`);
    expect(failures.type).toBe("text/csv;charset=UTF-8");
    expect(failures.text.trim().split("\n")).toEqual([
      "email,firstName,lastName,leadScore,shoeSize,Import Failure Reason",
      "broken,Bad,Email,,,Invalid value for field 'email' and value 'broken'",
      "other.import@example.com,Other,Import,lots,,Invalid data type for field 'leadScore'",
    ]);
    const warnings = await raw(`/bulk/v1/leads/batch/${id}/warnings.json`);
    expect(warnings.text.trim().split("\n")).toEqual([
      "email,firstName,lastName,leadScore,shoeSize,Import Warning Reason",
      "new.import@example.com,New,Import,12,44,Field 'shoeSize' not found",
    ]);
  });

  it("reads format and options from form fields too; id as lookup field only updates", async () => {
    const tsv = "id\tcompany\n7\tTabbed Inc\n999999\tNobody Ltd\n";
    const created = await h.call("/bulk/v1/leads.json", fileInit(tsv, { format: "tsv", lookupField: "id" }));
    const id = created.result?.[0]?.batchId as number;
    await h.call(`/bulk/v1/leads/batch/${id}.json`);
    clock += 10_000;
    const done = await h.call(`/bulk/v1/leads/batch/${id}.json`);
    expect(done.result?.[0]).toMatchObject({
      status: "Complete",
      numOfLeadsProcessed: 1,
      numOfRowsFailed: 1,
    });
    expect((await h.call("/rest/v1/lead/7.json?fields=company")).result?.[0]?.company).toBe("Tabbed Inc");
    const failures = await raw(`/bulk/v1/leads/batch/${id}/failures.json`);
    expect(failures.type).toBe("text/tab-separated-values;charset=UTF-8");
    expect(failures.text).toContain("999999\tNobody Ltd\tLead not found");
  });

  it("fails a batch whose file lacks the lookup field, and refuses bad requests", async () => {
    const created = await h.call("/bulk/v1/leads.json?format=ssv", fileInit("firstName;lastName\nA;B\n"));
    const id = created.result?.[0]?.batchId as number;
    await h.call(`/bulk/v1/leads/batch/${id}.json`);
    clock += 10_000;
    expect((await h.call(`/bulk/v1/leads/batch/${id}.json`)).result?.[0]).toMatchObject({
      status: "Failed",
      message: "Import failed: the file has no column for the lookup field 'email'",
    });
    expect((await h.call("/bulk/v1/leads.json", fileInit(FILE))).errors).toEqual([
      { code: "1002", message: "Missing value for the required parameter 'format'" },
    ]);
    expect(errorCode(await h.call("/bulk/v1/leads.json?format=xls", fileInit(FILE)))).toBe("1003");
    expect(errorCode(await h.call("/bulk/v1/leads.json?format=csv&listId=4242", fileInit(FILE)))).toBe(
      "1013",
    );
    expect(errorCode(await h.call("/bulk/v1/leads.json?format=csv", jsonInit("POST", { file: FILE })))).toBe(
      "612",
    );
    expect(errorCode(await h.call("/bulk/v1/leads/batch/1.json"))).toBe("1013");
  });

  it("imports two batches at once and refuses an eleventh open one with 1016", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 10; i++) {
      const body = await h.call("/bulk/v1/leads.json?format=csv", fileInit(`email\nq${i}@example.com\n`));
      ids.push(body.result?.[0]?.batchId as number);
    }
    expect(await h.call("/bulk/v1/leads.json?format=csv", fileInit(FILE))).toMatchObject({
      success: false,
      errors: [{ code: "1016", message: "Too many imports" }],
    });
    const statuses = async () =>
      Promise.all(
        ids.map(async (id) => (await h.call(`/bulk/v1/leads/batch/${id}.json`)).result?.[0]?.status),
      );
    expect(await statuses()).toEqual(["Importing", "Importing", ...Array(8).fill("Queued")]);
    clock += 10_000;
    expect(await statuses()).toEqual([
      "Complete",
      "Complete",
      "Importing",
      "Importing",
      ...Array(6).fill("Queued"),
    ]);
    clock += 40_000;
    expect(new Set(await statuses())).toEqual(new Set(["Complete"]));
  });
});
