import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, type Harness, jsonInit, startHarness } from "../../helpers/marketo-sandbox.js";

/** A lead's lists, programs and smart campaigns, and Change Lead Program Status. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ leadCount: 400 });
});
afterAll(async () => {
  await h.close();
});

describe("a lead's memberships", () => {
  it("lists the static lists a lead is in, as the lists' members say", async () => {
    const lists = await h.call("/rest/v1/leads/3/listMembership.json");
    const ids = (lists.result ?? []).map((l) => l.listId as number);
    for (const id of [1001, 1002, 1003, 1004, 1005]) {
      const member = await h.call(`/rest/v1/lists/${id}/leads/ismember.json?id=3`);
      expect(ids.includes(id)).toBe(member.result?.[0]?.status === "memberof");
    }
    expect(errorCode(await h.call("/rest/v1/leads/999999/listMembership.json"))).toBe("1004");
  });

  it("lists a lead's programs with their status, filtered by programId", async () => {
    const programs = await h.call("/rest/v1/leads/3/programMembership.json");
    const first = programs.result?.[0] as Record<string, unknown>;
    expect(first).toMatchObject({ id: expect.any(Number), progressionStatus: expect.any(String) });
    const members = await h.call(
      `/rest/v1/programs/${first.id}/members.json?filterType=leadId&filterValues=3&fields=statusName`,
    );
    expect(members.result?.[0]?.statusName).toBe(first.progressionStatus);
    const one = await h.call(
      `/rest/v1/leads/3/programMembership.json?filterType=programId&filterValues=${first.id}`,
    );
    expect(one.result?.map((p) => p.id)).toEqual([first.id]);
  });

  it("lists the smart campaigns a lead went through, including one requested for it", async () => {
    await h.call(
      "/rest/v1/campaigns/1001/trigger.json",
      jsonInit("POST", { input: { leads: [{ id: 11 }] } }),
    );
    const campaigns = await h.call("/rest/v1/leads/11/smartCampaignMembership.json");
    expect(campaigns.result?.map((c) => c.smartCampaignId)).toContain(1001);
  });
});

describe("Change Lead Program Status", () => {
  it("sets the status, writes the status change activity, and skips unknown leads", async () => {
    const since = encodeURIComponent(new Date(Date.now() - 60_000).toISOString());
    const token = (await h.call(`/rest/v1/activities/pagingtoken.json?sinceDatetime=${since}`)).nextPageToken;
    // Engaged first, so that Member is a change whatever lead 12's seeded status was.
    await h.call(
      "/rest/v1/leads/programs/1002/status.json",
      jsonInit("POST", { status: "Engaged", input: [{ id: 12 }] }),
    );
    const changed = await h.call(
      "/rest/v1/leads/programs/1002/status.json",
      jsonInit("POST", { status: "member", input: [{ id: 12 }, { id: 999_999 }] }),
    );
    expect(changed.result).toEqual([
      { id: 12, status: "Member" },
      { id: 999_999, status: "skipped", reasons: [{ code: "1004", message: "Lead not found" }] },
    ]);
    const programs = await h.call(
      "/rest/v1/leads/12/programMembership.json?filterType=programId&filterValues=1002",
    );
    expect(programs.result?.[0]?.progressionStatus).toBe("Member");
    const activities = await h.call(
      `/rest/v1/activities.json?activityTypeIds=104&leadIds=12&nextPageToken=${String(token)}`,
    );
    const last = activities.result?.at(-1) as {
      primaryAttributeValueId: number;
      attributes: { name: string; value: unknown }[];
    };
    expect(last.primaryAttributeValueId).toBe(1002);
    expect(last.attributes).toContainEqual({ name: "New Status ID", value: 2 });
    const refused = await h.call(
      "/rest/v1/leads/programs/1002/status.json",
      jsonInit("POST", { status: "Clicked", input: [{ id: 12 }] }),
    );
    expect(errorCode(refused)).toBe("1003");
  });
});

describe("Delete Program Members", () => {
  it("removes the membership, keeps the lead, and skips leads that are not members or do not exist", async () => {
    const programs = await h.call("/rest/v1/leads/13/programMembership.json");
    const programId = programs.result?.[0]?.id as number;
    const deleted = await h.call(
      `/rest/v1/programs/${programId}/members/delete.json`,
      jsonInit("POST", { input: [{ leadId: 13 }, { leadId: 13 }, { leadId: 999_999 }] }),
    );
    expect(deleted.result).toEqual([
      { seq: 0, leadId: 13, status: "deleted" },
      {
        seq: 1,
        leadId: 13,
        status: "skipped",
        reasons: [{ code: "1013", message: "Program member not found" }],
      },
      { seq: 2, leadId: 999_999, status: "skipped", reasons: [{ code: "1004", message: "Lead not found" }] },
    ]);
    const after = await h.call(
      `/rest/v1/leads/13/programMembership.json?filterType=programId&filterValues=${programId}`,
    );
    expect(after.result).toEqual([]);
    expect((await h.call("/rest/v1/lead/13.json")).result).toHaveLength(1);
  });
});
