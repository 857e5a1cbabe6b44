/**
 * The Lead DB and bulk operations added for issue 18 (program member and custom object exports, custom
 * objects, program member writes, lead operations) answer in the shape of Adobe's Swagger response
 * schema, as marketo-wire.test.ts checks the others. The last test checks that the list of validated
 * operations did not shrink.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileInit, type Harness, jsonInit, startHarness } from "../../helpers/marketo-sandbox.js";
import { expectWireShape, validated } from "../../helpers/wire/schemas.js";

let clock = Date.parse("2025-03-03T15:00:00Z");
let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    leadCount: 400,
    now: () => clock,
    bulkJobMs: 60_000,
    tokenTtlSeconds: 30 * 86_400,
  });
});
afterAll(async () => {
  await h.close();
});

async function mapi(operation: string, path: string, init?: RequestInit) {
  const body = await h.call(path, init);
  expectWireShape("marketo-mapi", operation, body);
  return body;
}

describe("bulk program member and custom object exports have the Swagger shapes", () => {
  it("create, enqueue, status (queued and completed), list, cancel and a refusal", async () => {
    for (const [template, base, body] of [
      [
        "/bulk/v1/program/members",
        "/bulk/v1/program/members",
        { fields: ["leadId", "statusName"], filter: { programId: 1001 } },
      ],
      [
        "/bulk/v1/customobjects/{apiName}",
        "/bulk/v1/customobjects/car_c",
        { fields: ["vin", "leadId"], filter: { staticListId: 1003 } },
      ],
    ] as const) {
      const op = `${template}/export`;
      const kind = `${base}/export`;
      const created = await mapi(`POST ${op}/create.json`, `${kind}/create.json`, jsonInit("POST", body));
      const id = created.result?.[0]?.exportId as string;
      await mapi(`POST ${op}/{exportId}/enqueue.json`, `${kind}/${id}/enqueue.json`, { method: "POST" });
      await mapi(`GET ${op}/{exportId}/status.json`, `${kind}/${id}/status.json`);
      clock += 61_000;
      const done = await mapi(`GET ${op}/{exportId}/status.json`, `${kind}/${id}/status.json`);
      expect(done.result?.[0]).toMatchObject({ status: "Completed", numberOfRecords: expect.any(Number) });
      await mapi(`GET ${template}/export.json`, `${base}/export.json?status=Completed`);
      const other = await h.call(`${kind}/create.json`, jsonInit("POST", body));
      await mapi(`POST ${op}/{exportId}/cancel.json`, `${kind}/${other.result?.[0]?.exportId}/cancel.json`, {
        method: "POST",
      });
      const refused = await mapi(`POST ${op}/{exportId}/enqueue.json`, `${kind}/${id}/enqueue.json`, {
        method: "POST",
      });
      expect(refused.success).toBe(false);
    }
  });
});

describe("custom objects have the Swagger shapes", () => {
  it("list, describe, query (paged), sync and delete, with skipped records", async () => {
    await mapi("GET /rest/v1/customobjects.json", "/rest/v1/customobjects.json");
    await mapi("GET /rest/v1/customobjects.json", "/rest/v1/customobjects.json?names=car_c");
    const describe = "GET /rest/v1/customobjects/{customObjectName}/describe.json";
    await mapi(describe, "/rest/v1/customobjects/car_c/describe.json");
    expect((await mapi(describe, "/rest/v1/customobjects/boat_c/describe.json")).success).toBe(false);
    const query = "GET /rest/v1/customobjects/{customObjectName}.json";
    const leads = Array.from({ length: 300 }, (_, i) => i + 1).join(",");
    const paged = await mapi(
      query,
      `/rest/v1/customobjects/car_c.json?filterType=leadId&filterValues=${leads}&batchSize=5&fields=vin,make,year`,
    );
    expect(paged.nextPageToken).toEqual(expect.any(String));
    const sync = "POST /rest/v1/customobjects/{customObjectName}.json";
    const synced = await mapi(
      sync,
      "/rest/v1/customobjects/car_c.json",
      jsonInit("POST", {
        input: [
          { vin: "WIRE1", leadId: 1, make: "Kia" },
          { vin: "WIRE2", leadId: 999_999 },
        ],
      }),
    );
    expect(synced.result?.map((r) => r.status)).toEqual(["created", "skipped"]);
    await mapi(
      "POST /rest/v1/customobjects/{customObjectName}/delete.json",
      "/rest/v1/customobjects/car_c/delete.json",
      jsonInit("POST", { input: [{ vin: "WIRE1" }, { vin: "NOPE" }] }),
    );
  });
});

describe("bulk custom object and program member imports have the Swagger shapes", () => {
  it("create, status while importing and complete, and a refusal", async () => {
    const custom = "/bulk/v1/customobjects/{apiName}/import";
    const created = await mapi(
      `POST ${custom}.json`,
      "/bulk/v1/customobjects/car_c/import.json?format=csv",
      fileInit("vin,leadId\nWIRE-IMP,1\n"),
    );
    const id = created.result?.[0]?.batchId as number;
    await mapi(
      `GET ${custom}/{batchId}/status.json`,
      `/bulk/v1/customobjects/car_c/import/${id}/status.json`,
    );
    clock += 61_000;
    const done = await mapi(
      `GET ${custom}/{batchId}/status.json`,
      `/bulk/v1/customobjects/car_c/import/${id}/status.json`,
    );
    expect(done.result?.[0]).toMatchObject({ status: "Complete", numOfObjectsProcessed: 1 });
    const members = await mapi(
      "POST /bulk/v1/program/{programId}/members/import.json",
      "/bulk/v1/program/1002/members/import.json?format=csv&programMemberStatus=Member",
      fileInit("email\nwire.member@example.com\n"),
    );
    const batch = members.result?.[0]?.batchId as number;
    clock += 61_000;
    const complete = await mapi(
      "GET /bulk/v1/program/members/import/{batchId}/status.json",
      `/bulk/v1/program/members/import/${batch}/status.json`,
    );
    expect(complete.result?.[0]).toMatchObject({ status: "Complete", numOfLeadsProcessed: 1 });
    const refused = await mapi(
      "POST /bulk/v1/program/{programId}/members/import.json",
      "/bulk/v1/program/1002/members/import.json?format=csv",
      fileInit("email\nx@example.com\n"),
    );
    expect(refused.success).toBe(false);
  });
});

describe("a lead's memberships and Change Lead Program Status have the Swagger shapes", () => {
  it("list, program and smart campaign membership (paged), and a status change with a skipped lead", async () => {
    await mapi("GET /rest/v1/leads/{leadId}/listMembership.json", "/rest/v1/leads/3/listMembership.json");
    const paged = await mapi(
      "GET /rest/v1/leads/{leadId}/programMembership.json",
      "/rest/v1/leads/3/programMembership.json?batchSize=1",
    );
    expect(paged.nextPageToken).toEqual(expect.any(String));
    await h.call("/rest/v1/campaigns/1001/trigger.json", jsonInit("POST", { input: { leads: [{ id: 3 }] } }));
    await mapi(
      "GET /rest/v1/leads/{leadId}/smartCampaignMembership.json",
      "/rest/v1/leads/3/smartCampaignMembership.json",
    );
    await mapi(
      "POST /rest/v1/leads/programs/{programId}/status.json",
      "/rest/v1/leads/programs/1002/status.json",
      jsonInit("POST", { status: "Member", input: [{ id: 3 }, { id: 999_999 }] }),
    );
    await mapi(
      "POST /rest/v1/programs/{programId}/members/delete.json",
      "/rest/v1/programs/1002/members/delete.json",
      jsonInit("POST", { input: [{ leadId: 3 }, { leadId: 999_999 }] }),
    );
  });
});

describe("merge, associate and partitions have the Swagger shapes", () => {
  it("a merge, a refused merge, an association and the partitions", async () => {
    const merge = "POST /rest/v1/leads/{leadId}/merge.json";
    expect((await mapi(merge, "/rest/v1/leads/40/merge.json?leadId=41", { method: "POST" })).success).toBe(
      true,
    );
    expect((await mapi(merge, "/rest/v1/leads/40/merge.json?leadId=40", { method: "POST" })).success).toBe(
      false,
    );
    const cookie = encodeURIComponent("id:561-HYG-937&token:_mch-marketo.com-1427205775289-40768");
    await mapi(
      "POST /rest/v1/leads/{leadId}/associate.json",
      `/rest/v1/leads/40/associate.json?cookie=${cookie}`,
      {
        method: "POST",
      },
    );
    await mapi("GET /rest/v1/leads/partitions.json", "/rest/v1/leads/partitions.json");
    await mapi(
      "POST /rest/v1/leads/partitions.json",
      "/rest/v1/leads/partitions.json",
      jsonInit("POST", {
        input: [
          { id: 40, partitionName: "Default" },
          { id: 40, partitionName: "EMEA" },
        ],
      }),
    );
  });
});

describe("Push Lead to Marketo and Sync Program Member Data have the Swagger shapes", () => {
  it("a push that creates, updates and skips, then a member data sync with a skipped record", async () => {
    const program = (await h.call("/rest/asset/v1/program/1004.json")).result?.[0]?.name as string;
    const existing = (await h.call("/rest/v1/lead/5.json?fields=email")).result?.[0]?.email as string;
    const pushed = await mapi(
      "POST /rest/v1/leads/push.json",
      "/rest/v1/leads/push.json",
      jsonInit("POST", {
        programName: program,
        input: [{ email: "wire.push@example.com" }, { email: existing }, { email: "not-an-email" }],
      }),
    );
    expect(
      pushed.result?.map((r) => r.status),
      JSON.stringify(pushed.result),
    ).toEqual(["created", "updated", "skipped"]);
    await mapi(
      "POST /rest/v1/programs/{programId}/members.json",
      "/rest/v1/programs/1004/members.json",
      jsonInit("POST", { input: [{ leadId: 5, myCustomField: "wire" }, { leadId: 999_999 }] }),
    );
  });
});

/** The operations validated above: a shrinking list fails the last test. */
const EXPECTED = [
  "marketo-mapi GET /bulk/v1/customobjects/{apiName}/export.json",
  "marketo-mapi GET /bulk/v1/customobjects/{apiName}/export/{exportId}/status.json",
  "marketo-mapi GET /bulk/v1/customobjects/{apiName}/import/{batchId}/status.json",
  "marketo-mapi GET /bulk/v1/program/members/export.json",
  "marketo-mapi GET /bulk/v1/program/members/export/{exportId}/status.json",
  "marketo-mapi GET /bulk/v1/program/members/import/{batchId}/status.json",
  "marketo-mapi GET /rest/v1/customobjects.json",
  "marketo-mapi GET /rest/v1/customobjects/{customObjectName}.json",
  "marketo-mapi GET /rest/v1/customobjects/{customObjectName}/describe.json",
  "marketo-mapi GET /rest/v1/leads/partitions.json",
  "marketo-mapi GET /rest/v1/leads/{leadId}/listMembership.json",
  "marketo-mapi GET /rest/v1/leads/{leadId}/programMembership.json",
  "marketo-mapi GET /rest/v1/leads/{leadId}/smartCampaignMembership.json",
  "marketo-mapi POST /bulk/v1/customobjects/{apiName}/export/create.json",
  "marketo-mapi POST /bulk/v1/customobjects/{apiName}/export/{exportId}/cancel.json",
  "marketo-mapi POST /bulk/v1/customobjects/{apiName}/export/{exportId}/enqueue.json",
  "marketo-mapi POST /bulk/v1/customobjects/{apiName}/import.json",
  "marketo-mapi POST /bulk/v1/program/members/export/create.json",
  "marketo-mapi POST /bulk/v1/program/members/export/{exportId}/cancel.json",
  "marketo-mapi POST /bulk/v1/program/members/export/{exportId}/enqueue.json",
  "marketo-mapi POST /bulk/v1/program/{programId}/members/import.json",
  "marketo-mapi POST /rest/v1/customobjects/{customObjectName}.json",
  "marketo-mapi POST /rest/v1/customobjects/{customObjectName}/delete.json",
  "marketo-mapi POST /rest/v1/leads/partitions.json",
  "marketo-mapi POST /rest/v1/leads/programs/{programId}/status.json",
  "marketo-mapi POST /rest/v1/leads/push.json",
  "marketo-mapi POST /rest/v1/leads/{leadId}/associate.json",
  "marketo-mapi POST /rest/v1/leads/{leadId}/merge.json",
  "marketo-mapi POST /rest/v1/programs/{programId}/members.json",
  "marketo-mapi POST /rest/v1/programs/{programId}/members/delete.json",
];

describe("coverage", () => {
  it(`validated the answers of ${EXPECTED.length} operations against their response schemas`, () => {
    expect([...validated.keys()].sort()).toEqual(EXPECTED);
  });
});
