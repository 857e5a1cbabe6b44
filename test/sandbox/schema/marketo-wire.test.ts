/**
 * Every endpoint the Marketo sandbox serves answers in the shape of Adobe's Swagger response schema
 * (with the documented wire exceptions of wire-exceptions.ts). The last test checks that the list of
 * validated operations did not shrink.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  fileInit,
  formInit,
  type Harness,
  type Json,
  jsonInit,
  startHarness,
} from "../../helpers/marketo-sandbox.js";
import { expectWireShape, validated } from "../../helpers/wire/schemas.js";

const NOW = Date.parse("2025-03-03T15:00:00Z");
let clock = NOW;
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ leadCount: 400, now: () => clock, bulkJobMs: 60_000 });
});
afterAll(async () => {
  await h.close();
});

/** Calls the sandbox and validates the answer against the operation's response schema. */
async function check(
  spec: "marketo-mapi" | "marketo-asset",
  operation: string,
  path: string,
  init?: RequestInit,
) {
  const body = await h.call(path, init);
  expectWireShape(spec, operation, body);
  return body;
}
const mapi = (operation: string, path: string, init?: RequestInit) =>
  check("marketo-mapi", operation, path, init);
const asset = (operation: string, path: string, init?: RequestInit) =>
  check("marketo-asset", operation, path, init);

describe("Lead DB answers have the Swagger shapes", () => {
  it("leads, describe, describe2, lists, membership", async () => {
    expect(
      (await mapi("GET /rest/v1/leads.json", "/rest/v1/leads.json?filterType=id&filterValues=1,2")).result,
    ).toHaveLength(2);
    await mapi("GET /rest/v1/lead/{leadId}.json", "/rest/v1/lead/3.json");
    await mapi(
      "POST /rest/v1/leads.json",
      "/rest/v1/leads.json",
      jsonInit("POST", { input: [{ email: "x@example.com" }, { email: "bad" }] }),
    );
    await mapi("GET /rest/v1/leads/describe.json", "/rest/v1/leads/describe.json");
    await mapi("GET /rest/v1/leads/describe2.json", "/rest/v1/leads/describe2.json");
    await mapi("GET /rest/v1/lists.json", "/rest/v1/lists.json");
    const pagedLists = await mapi("GET /rest/v1/lists.json", "/rest/v1/lists.json?batchSize=3");
    expect(pagedLists).not.toHaveProperty("moreResult");
    await mapi("GET /rest/v1/lists/{listId}.json", "/rest/v1/lists/1002.json");
    await mapi("GET /rest/v1/lists/{listId}/leads.json", "/rest/v1/lists/1002/leads.json?batchSize=5");
    await mapi("POST /rest/v1/lists/{listId}/leads.json", "/rest/v1/lists/1010/leads.json?id=1,99999");
    await mapi(
      "GET /rest/v1/lists/{listId}/leads/ismember.json",
      "/rest/v1/lists/1010/leads/ismember.json?id=1,2",
    );
    await mapi("DELETE /rest/v1/lists/{listId}/leads.json", "/rest/v1/lists/1010/leads.json?id=1,2", {
      method: "DELETE",
    });
  });

  it("program membership and its describe", async () => {
    const leads = await mapi(
      "GET /rest/v1/leads/programs/{programId}.json",
      "/rest/v1/leads/programs/1004.json?batchSize=3",
    );
    expect(leads.result?.[0]).toHaveProperty("membership.progressionStatus");
    const members = await mapi(
      "GET /rest/v1/programs/{programId}/members.json",
      "/rest/v1/programs/1001/members.json?filterType=statusName&filterValues=Clicked,Sent&fields=statusName,updatedAt",
    );
    expect(members.result?.[0]).toMatchObject({ seq: 0, programId: 1001 });
    await mapi("GET /rest/v1/programs/members/describe.json", "/rest/v1/programs/members/describe.json");
    const changed = await mapi(
      "POST /rest/v1/programs/{programId}/members/status.json",
      "/rest/v1/programs/1001/members/status.json",
      jsonInit("POST", { statusName: "Sent", input: [{ leadId: 1 }, { leadId: 999_999 }] }),
    );
    expect(changed.result?.map((r) => r.status)).toEqual(["updated", "skipped"]);
  });

  it("campaigns, activities, deletions and statistics", async () => {
    await mapi("GET /rest/v1/campaigns.json", "/rest/v1/campaigns.json");
    const pagedCampaigns = await mapi("GET /rest/v1/campaigns.json", "/rest/v1/campaigns.json?batchSize=3");
    expect(pagedCampaigns).not.toHaveProperty("moreResult");
    await mapi("GET /rest/v1/campaigns/{campaignId}.json", "/rest/v1/campaigns/1001.json");
    await mapi(
      "POST /rest/v1/campaigns/{campaignId}/trigger.json",
      "/rest/v1/campaigns/1001/trigger.json",
      jsonInit("POST", { input: { leads: [{ id: 1 }] } }),
    );
    await mapi(
      "POST /rest/v1/campaigns/{campaignId}/schedule.json",
      "/rest/v1/campaigns/1005/schedule.json",
      jsonInit("POST", {}),
    );
    const since = encodeURIComponent(new Date(NOW - 20 * 86_400_000).toISOString());
    const token = (await h.call(`/rest/v1/activities/pagingtoken.json?sinceDatetime=${since}`))
      .nextPageToken as string;
    await mapi(
      "GET /rest/v1/activities.json",
      `/rest/v1/activities.json?activityTypeIds=1,6&nextPageToken=${token}`,
    );
    await mapi(
      "GET /rest/v1/activities/leadchanges.json",
      `/rest/v1/activities/leadchanges.json?fields=leadScore&nextPageToken=${token}`,
    );
    await mapi(
      "POST /rest/v1/leads/delete.json",
      "/rest/v1/leads/delete.json",
      jsonInit("POST", { input: [{ id: 7 }, { id: 99999 }] }),
    );
    await mapi(
      "POST /rest/v1/leads.json",
      "/rest/v1/leads.json?_method=DELETE",
      jsonInit("POST", { input: [{ id: 8 }] }),
    );
    const recent = encodeURIComponent(new Date(clock - 60_000).toISOString());
    const fresh = (await h.call(`/rest/v1/activities/pagingtoken.json?sinceDatetime=${recent}`))
      .nextPageToken as string;
    const deleted = await mapi(
      "GET /rest/v1/activities/deletedleads.json",
      `/rest/v1/activities/deletedleads.json?nextPageToken=${fresh}`,
    );
    expect(deleted.result?.map((a) => a.leadId)).toEqual([7, 8]);
    await mapi("GET /rest/v1/stats/usage.json", "/rest/v1/stats/usage.json");
    await mapi("GET /rest/v1/stats/usage/last7days.json", "/rest/v1/stats/usage/last7days.json");
    const errors = await mapi("GET /rest/v1/stats/errors.json", "/rest/v1/stats/errors.json");
    expect(errors.result?.[0]).toMatchObject({ total: expect.any(Number), errors: expect.any(Array) });
    await mapi("GET /rest/v1/stats/errors/last7days.json", "/rest/v1/stats/errors/last7days.json");
  });

  it("bulk lead and activity export jobs, including refusals", async () => {
    for (const [base, body] of [
      ["/bulk/v1/leads", { fields: ["id", "email"], filter: { staticListId: 1002 } }],
      [
        "/bulk/v1/activities",
        { filter: { createdAt: { startAt: "2025-02-10T00:00:00Z", endAt: "2025-03-01T00:00:00Z" } } },
      ],
    ] as const) {
      const kind = `${base}/export`;
      const created = await mapi(`POST ${kind}/create.json`, `${kind}/create.json`, jsonInit("POST", body));
      const id = created.result?.[0]?.exportId as string;
      await mapi(`POST ${kind}/{exportId}/enqueue.json`, `${kind}/${id}/enqueue.json`, { method: "POST" });
      await mapi(`GET ${kind}/{exportId}/status.json`, `${kind}/${id}/status.json`);
      clock += 61_000;
      const done = await mapi(`GET ${kind}/{exportId}/status.json`, `${kind}/${id}/status.json`);
      expect(done.result?.[0]).toMatchObject({
        status: "Completed",
        fileChecksum: expect.stringMatching(/^sha256:/),
      });
      await mapi(`GET ${base}/export.json`, `${base}/export.json?status=Completed`);
      const other = await h.call(`${kind}/create.json`, jsonInit("POST", body));
      await mapi(
        `POST ${kind}/{exportId}/cancel.json`,
        `${kind}/${other.result?.[0]?.exportId}/cancel.json`,
        { method: "POST" },
      );
      const refused = await mapi(`POST ${kind}/{exportId}/enqueue.json`, `${kind}/${id}/enqueue.json`, {
        method: "POST",
      });
      expect(refused.success).toBe(false);
    }
  });
});

describe("Bulk import answers have the Swagger shapes", () => {
  it("bulk lead import: create, status while queued, importing and complete, and refusals", async () => {
    const file = "email,firstName\nwire.import@example.com,Wire\nbad,Row\n";
    const created = await mapi(
      "POST /bulk/v1/leads.json",
      "/bulk/v1/leads.json?format=csv&listId=1003",
      fileInit(file),
    );
    const id = created.result?.[0]?.batchId as number;
    await mapi("GET /bulk/v1/leads/batch/{batchId}.json", `/bulk/v1/leads/batch/${id}.json`);
    clock += 61_000;
    const done = await mapi("GET /bulk/v1/leads/batch/{batchId}.json", `/bulk/v1/leads/batch/${id}.json`);
    expect(done.result?.[0]).toMatchObject({ status: "Complete", numOfRowsFailed: 1 });
    const refused = await mapi("POST /bulk/v1/leads.json", "/bulk/v1/leads.json", fileInit(file));
    expect(refused.success).toBe(false);
  });
});

describe("Asset answers have the Swagger shapes", () => {
  it("static lists: browse, by id, by name, create, delete, and no match", async () => {
    await asset("GET /rest/asset/v1/staticLists.json", "/rest/asset/v1/staticLists.json?maxReturn=200");
    await asset("GET /rest/asset/v1/staticList/{id}.json", "/rest/asset/v1/staticList/1002.json");
    await asset(
      "GET /rest/asset/v1/staticList/byName.json",
      "/rest/asset/v1/staticList/byName.json?name=Beta%20Testers",
    );
    const none: Json = await asset(
      "GET /rest/asset/v1/staticList/byName.json",
      "/rest/asset/v1/staticList/byName.json?name=nope",
    );
    expect(none).not.toHaveProperty("result");
    const created = await asset(
      "POST /rest/asset/v1/staticLists.json",
      "/rest/asset/v1/staticLists.json",
      formInit({ name: "Wire List", folder: '{"id":12,"type":"Folder"}' }),
    );
    await asset(
      "POST /rest/asset/v1/staticList/{id}/delete.json",
      `/rest/asset/v1/staticList/${created.result?.[0]?.id}/delete.json`,
      { method: "POST" },
    );
  });

  it("folders, smart lists, smart campaigns, programs and emails", async () => {
    await asset("GET /rest/asset/v1/folders.json", "/rest/asset/v1/folders.json?maxReturn=200&maxDepth=5");
    await asset(
      "GET /rest/asset/v1/folder/byName.json",
      "/rest/asset/v1/folder/byName.json?name=Global%20Lists",
    );
    await asset("GET /rest/asset/v1/folder/{id}.json", "/rest/asset/v1/folder/1007.json?type=Program");
    await asset("GET /rest/asset/v1/smartLists.json", "/rest/asset/v1/smartLists.json?maxReturn=200");
    await asset(
      "GET /rest/asset/v1/smartList/{id}.json",
      "/rest/asset/v1/smartList/4005.json?includeRules=true",
    );
    await asset(
      "GET /rest/asset/v1/smartList/{id}.json",
      "/rest/asset/v1/smartList/5001.json?includeRules=true",
    );
    await asset(
      "GET /rest/asset/v1/smartList/byName.json",
      "/rest/asset/v1/smartList/byName.json?name=US%20Leads",
    );
    await asset("GET /rest/asset/v1/smartCampaigns.json", "/rest/asset/v1/smartCampaigns.json");
    for (const verb of ["deactivate", "activate"]) {
      const op = `POST /rest/asset/v1/smartCampaign/{id}/${verb}.json`;
      expect(
        (await asset(op, `/rest/asset/v1/smartCampaign/1002/${verb}.json`, { method: "POST" })).success,
      ).toBe(true);
      expect(
        (await asset(op, `/rest/asset/v1/smartCampaign/1005/${verb}.json`, { method: "POST" })).success,
      ).toBe(false);
    }
    await asset("GET /rest/asset/v1/smartCampaign/{id}.json", "/rest/asset/v1/smartCampaign/1005.json");
    await asset(
      "GET /rest/asset/v1/smartCampaign/{id}/smartList.json",
      "/rest/asset/v1/smartCampaign/1002/smartList.json?includeRules=true",
    );
    await asset(
      "GET /rest/asset/v1/smartCampaign/byName.json",
      "/rest/asset/v1/smartCampaign/byName.json?name=Webinar%20Reminder",
    );
    await asset("GET /rest/asset/v1/programs.json", "/rest/asset/v1/programs.json");
    await asset("GET /rest/asset/v1/program/{id}.json", "/rest/asset/v1/program/1001.json");
    await asset(
      "GET /rest/asset/v1/program/byName.json",
      "/rest/asset/v1/program/byName.json?name=Email%20Program%2001",
    );
    await asset("GET /rest/asset/v1/emails.json", "/rest/asset/v1/emails.json");
    await asset("GET /rest/asset/v1/email/{id}.json", "/rest/asset/v1/email/2002.json");
    await asset("GET /rest/asset/v1/email/{id}/content.json", "/rest/asset/v1/email/2002/content.json");
    await asset(
      "POST /rest/asset/v1/email/{id}/approveDraft.json",
      "/rest/asset/v1/email/2004/approveDraft.json",
      { method: "POST" },
    );
  });
});

describe("the identity answer has the Swagger shape", () => {
  it("GET and POST /identity/oauth/token", async () => {
    const query = new URLSearchParams({
      grant_type: "client_credentials",
      client_id: h.sb.clientId,
      client_secret: h.sb.clientSecret,
    });
    expectWireShape(
      "marketo-identity",
      "GET /identity/oauth/token",
      await (await fetch(`${h.sb.url}/identity/oauth/token?${query}`)).json(),
    );
    const posted = await fetch(`${h.sb.url}/identity/oauth/token`, { method: "POST", body: query });
    expectWireShape("marketo-identity", "POST /identity/oauth/token", await posted.json());
  });
});

/** The operations validated above: a shrinking list fails the last test. */
const EXPECTED = [
  "marketo-asset GET /rest/asset/v1/email/{id}.json",
  "marketo-asset GET /rest/asset/v1/email/{id}/content.json",
  "marketo-asset GET /rest/asset/v1/emails.json",
  "marketo-asset GET /rest/asset/v1/folder/byName.json",
  "marketo-asset GET /rest/asset/v1/folder/{id}.json",
  "marketo-asset GET /rest/asset/v1/folders.json",
  "marketo-asset GET /rest/asset/v1/program/byName.json",
  "marketo-asset GET /rest/asset/v1/program/{id}.json",
  "marketo-asset GET /rest/asset/v1/programs.json",
  "marketo-asset GET /rest/asset/v1/smartCampaign/byName.json",
  "marketo-asset GET /rest/asset/v1/smartCampaign/{id}.json",
  "marketo-asset GET /rest/asset/v1/smartCampaign/{id}/smartList.json",
  "marketo-asset GET /rest/asset/v1/smartCampaigns.json",
  "marketo-asset GET /rest/asset/v1/smartList/byName.json",
  "marketo-asset GET /rest/asset/v1/smartList/{id}.json",
  "marketo-asset GET /rest/asset/v1/smartLists.json",
  "marketo-asset GET /rest/asset/v1/staticList/byName.json",
  "marketo-asset GET /rest/asset/v1/staticList/{id}.json",
  "marketo-asset GET /rest/asset/v1/staticLists.json",
  "marketo-asset POST /rest/asset/v1/email/{id}/approveDraft.json",
  "marketo-asset POST /rest/asset/v1/smartCampaign/{id}/activate.json",
  "marketo-asset POST /rest/asset/v1/smartCampaign/{id}/deactivate.json",
  "marketo-asset POST /rest/asset/v1/staticList/{id}/delete.json",
  "marketo-asset POST /rest/asset/v1/staticLists.json",
  "marketo-identity GET /identity/oauth/token",
  "marketo-identity POST /identity/oauth/token",
  "marketo-mapi DELETE /rest/v1/lists/{listId}/leads.json",
  "marketo-mapi GET /bulk/v1/activities/export.json",
  "marketo-mapi GET /bulk/v1/activities/export/{exportId}/status.json",
  "marketo-mapi GET /bulk/v1/leads/batch/{batchId}.json",
  "marketo-mapi GET /bulk/v1/leads/export.json",
  "marketo-mapi GET /bulk/v1/leads/export/{exportId}/status.json",
  "marketo-mapi GET /rest/v1/activities.json",
  "marketo-mapi GET /rest/v1/activities/deletedleads.json",
  "marketo-mapi GET /rest/v1/activities/leadchanges.json",
  "marketo-mapi GET /rest/v1/campaigns.json",
  "marketo-mapi GET /rest/v1/campaigns/{campaignId}.json",
  "marketo-mapi GET /rest/v1/lead/{leadId}.json",
  "marketo-mapi GET /rest/v1/leads.json",
  "marketo-mapi GET /rest/v1/leads/describe.json",
  "marketo-mapi GET /rest/v1/leads/describe2.json",
  "marketo-mapi GET /rest/v1/leads/programs/{programId}.json",
  "marketo-mapi GET /rest/v1/lists.json",
  "marketo-mapi GET /rest/v1/lists/{listId}.json",
  "marketo-mapi GET /rest/v1/lists/{listId}/leads.json",
  "marketo-mapi GET /rest/v1/lists/{listId}/leads/ismember.json",
  "marketo-mapi GET /rest/v1/programs/members/describe.json",
  "marketo-mapi GET /rest/v1/programs/{programId}/members.json",
  "marketo-mapi GET /rest/v1/stats/errors.json",
  "marketo-mapi GET /rest/v1/stats/errors/last7days.json",
  "marketo-mapi GET /rest/v1/stats/usage.json",
  "marketo-mapi GET /rest/v1/stats/usage/last7days.json",
  "marketo-mapi POST /bulk/v1/activities/export/create.json",
  "marketo-mapi POST /bulk/v1/activities/export/{exportId}/cancel.json",
  "marketo-mapi POST /bulk/v1/activities/export/{exportId}/enqueue.json",
  "marketo-mapi POST /bulk/v1/leads.json",
  "marketo-mapi POST /bulk/v1/leads/export/create.json",
  "marketo-mapi POST /bulk/v1/leads/export/{exportId}/cancel.json",
  "marketo-mapi POST /bulk/v1/leads/export/{exportId}/enqueue.json",
  "marketo-mapi POST /rest/v1/campaigns/{campaignId}/schedule.json",
  "marketo-mapi POST /rest/v1/campaigns/{campaignId}/trigger.json",
  "marketo-mapi POST /rest/v1/leads.json",
  "marketo-mapi POST /rest/v1/leads/delete.json",
  "marketo-mapi POST /rest/v1/lists/{listId}/leads.json",
  "marketo-mapi POST /rest/v1/programs/{programId}/members/status.json",
];

describe("coverage", () => {
  it(`validated the answers of ${EXPECTED.length} operations against their response schemas`, () => {
    expect([...validated.keys()].sort()).toEqual(EXPECTED);
  });
});
