import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, type Harness, type Json, jsonInit, startHarness } from "../../helpers/marketo-sandbox.js";

/**
 * Bulk program member and custom object exports: the same job life as lead exports, with their own
 * filters (programId/programIds, isExhausted, nurtureCadence, statusNames, updatedAt; a list of leads or
 * an updatedAt range for the records of one custom object type) and files.
 */
const NOW = Date.parse("2025-03-03T15:00:00Z");
const JOB_MS = 60_000;
let clock = NOW;
let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    leadCount: 400,
    now: () => clock,
    bulkJobMs: JOB_MS,
    tokenTtlSeconds: 30 * 86_400,
  });
});
afterAll(async () => {
  await h.close();
});

const first = (body: Json) => body.result?.[0] as Record<string, unknown>;

/** Creates, enqueues and completes a job; returns its status and its file's lines. */
async function run(
  base: string,
  body: unknown,
): Promise<{ status: Record<string, unknown>; lines: string[] }> {
  const created = await h.call(`${base}/export/create.json`, jsonInit("POST", body));
  expect(created.success, JSON.stringify(created)).toBe(true);
  const id = first(created).exportId as string;
  expect(first(await h.call(`${base}/export/${id}/enqueue.json`, { method: "POST" })).status).toBe("Queued");
  clock += JOB_MS + 1_000;
  const status = first(await h.call(`${base}/export/${id}/status.json`));
  expect(status.status).toBe("Completed");
  const res = await fetch(`${h.sb.url}${base}/export/${id}/file.json`, {
    headers: { authorization: `Bearer ${h.token}` },
  });
  expect(res.status).toBe(200);
  const lines = (await res.text()).trimEnd().split("\n");
  expect(lines.length - 1).toBe(status.numberOfRecords);
  return { status, lines };
}

async function members(programId: number): Promise<Record<string, unknown>[]> {
  const body = await h.call(
    `/rest/v1/programs/${programId}/members.json?filterType=leadId&filterValues=${Array.from({ length: 300 }, (_, i) => i + 1).join(",")}&fields=statusName,isExhausted,nurtureCadence`,
  );
  const more = await h.call(
    `/rest/v1/programs/${programId}/members.json?filterType=leadId&filterValues=${Array.from({ length: 100 }, (_, i) => i + 301).join(",")}&fields=statusName,isExhausted,nurtureCadence`,
  );
  return [...(body.result ?? []), ...(more.result ?? [])] as Record<string, unknown>[];
}

describe("bulk program member export", () => {
  it("exports a program's members with member and lead fields, one row per member", async () => {
    const expected = await members(1001);
    const { lines } = await run("/bulk/v1/program/members", {
      fields: ["leadId", "email", "statusName", "membershipDate"],
      filter: { programId: 1001 },
    });
    expect(lines[0]).toBe("leadId,email,statusName,membershipDate");
    expect(lines.slice(1).map((l) => Number(l.split(",")[0]))).toEqual(expected.map((m) => m.leadId));
    const lead = await h.call(`/rest/v1/lead/${expected[0]?.leadId}.json`);
    expect(lines[1]?.split(",")[1]).toBe(first(lead).email);
    expect(lines[1]?.split(",")[2]).toBe(expected[0]?.statusName);
    expect(lines[1]?.split(",")[3]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it("programIds adds programId as the first column; filters are ANDed", async () => {
    const engagement = 1004; // Engagement programs carry isExhausted and nurtureCadence.
    const all = await members(engagement);
    const want = all.filter((m) => m.nurtureCadence === "norm" && m.isExhausted === false);
    const { lines } = await run("/bulk/v1/program/members", {
      fields: ["leadId", "nurtureCadence"],
      filter: { programIds: [engagement, 1001], nurtureCadence: "norm", isExhausted: false },
    });
    expect(lines[0]).toBe("programId,leadId,nurtureCadence");
    expect(lines.slice(1).map((l) => l.split(",")[1])).toEqual(want.map((m) => String(m.leadId)));
    for (const line of lines.slice(1)) expect(line).toMatch(/^1004,\d+,norm$/);
    const status = all[0]?.statusName as string;
    const byStatus = await run("/bulk/v1/program/members", {
      fields: ["leadId"],
      filter: { programId: engagement, statusNames: [status] },
    });
    expect(byStatus.lines.length - 1).toBe(all.filter((m) => m.statusName === status).length);
  });

  it("refuses what the page refuses, with Marketo's codes", async () => {
    const create = (body: unknown) =>
      h.call("/bulk/v1/program/members/export/create.json", jsonInit("POST", body));
    expect(errorCode(await create({ fields: ["leadId"], filter: {} }))).toBe("1002");
    expect(
      errorCode(await create({ fields: ["leadId"], filter: { programId: 1001, programIds: [1002] } })),
    ).toBe("1003");
    const eleven = Array.from({ length: 11 }, (_, i) => 1001 + i);
    expect(errorCode(await create({ fields: ["leadId"], filter: { programIds: eleven } }))).toBe("1003");
    expect(errorCode(await create({ fields: ["leadId"], filter: { programId: 99 } }))).toBe("1003");
    expect(errorCode(await create({ fields: ["nope"], filter: { programId: 1001 } }))).toBe("1006");
    expect(
      errorCode(await create({ fields: ["leadId"], filter: { programId: 1001, nurtureCadence: "x" } })),
    ).toBe("1003");
  });
});

describe("bulk custom object export", () => {
  it("exports the car_c records linked to the leads of a static list (220 members: one page)", async () => {
    const list = await h.call("/rest/v1/lists/1003/leads.json?batchSize=300&fields=id");
    const leadIds = new Set((list.result ?? []).map((l) => l.id as number));
    const { lines } = await run("/bulk/v1/customobjects/car_c", {
      fields: ["leadId", "vin", "make", "marketoGUID"],
      filter: { staticListId: 1003 },
      columnHeaderNames: { leadId: "Lead" },
    });
    expect(lines[0]).toBe("Lead,vin,make,marketoGUID");
    expect(lines.length).toBeGreaterThan(10);
    for (const line of lines.slice(1)) {
      const [leadId, vin, , guid] = line.split(",");
      expect(leadIds.has(Number(leadId))).toBe(true);
      expect(vin).toMatch(/^SBX\d{14}$/);
      expect(guid).toMatch(/^[0-9a-f]{8}-/);
    }
  });

  it("updatedAt selects records by their update time; the job list is per custom object", async () => {
    const startAt = `${new Date(NOW - 10 * 86_400_000).toISOString().slice(0, 19)}Z`;
    const endAt = `${new Date(NOW).toISOString().slice(0, 19)}Z`;
    const { status, lines } = await run("/bulk/v1/customobjects/car_c", {
      fields: ["vin", "updatedAt"],
      filter: { updatedAt: { startAt, endAt } },
    });
    for (const line of lines.slice(1)) {
      const at = Date.parse(line.split(",")[1] ?? "");
      expect(at).toBeGreaterThanOrEqual(Date.parse(startAt));
      expect(at).toBeLessThanOrEqual(Date.parse(endAt));
    }
    const jobs = await h.call("/bulk/v1/customobjects/car_c/export.json");
    expect((jobs.result ?? []).map((j) => j.exportId)).toContain(status.exportId);
    const leadsJobs = await h.call("/bulk/v1/leads/export.json");
    expect((leadsJobs.result ?? []).map((j) => j.exportId)).not.toContain(status.exportId);
    // The job is not found under another custom object name.
    const other = await h.call(`/bulk/v1/customobjects/boat_c/export/${status.exportId}/status.json`);
    expect(errorCode(other)).toBe("1013");
  });

  it("refuses an unknown custom object, an unknown attribute and two filter types", async () => {
    const create = (name: string, body: unknown) =>
      h.call(`/bulk/v1/customobjects/${name}/export/create.json`, jsonInit("POST", body));
    expect(errorCode(await create("boat_c", { fields: ["vin"], filter: { staticListId: 1002 } }))).toBe(
      "1013",
    );
    expect(errorCode(await create("car_c", { fields: ["wheels"], filter: { staticListId: 1002 } }))).toBe(
      "1006",
    );
    expect(
      errorCode(
        await create("car_c", { fields: ["vin"], filter: { staticListId: 1002, smartListId: 4005 } }),
      ),
    ).toBe("1003");
  });
});
