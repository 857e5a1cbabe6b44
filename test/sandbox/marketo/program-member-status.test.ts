import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, type Harness, jsonInit, startHarness } from "../../helpers/marketo-sandbox.js";

const NOW = Date.parse("2026-03-03T15:00:00Z");
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ leadCount: 300, now: () => NOW });
});
afterAll(async () => {
  await h.close();
});

const change = (program: number, body: unknown) =>
  h.call(`/rest/v1/programs/${program}/members/status.json`, jsonInit("POST", body));

describe("changing program member status", () => {
  it("sets the status, makes non-members members, and writes a Change Status in Progression activity", async () => {
    const members = await h.call(
      "/rest/v1/programs/1001/members.json?filterType=leadId&filterValues=1,2,3,4,5,6,7,8,9,10&fields=statusName",
    );
    const member = members.result?.[0] as { leadId: number; statusName: string };
    const memberIds = new Set(members.result?.map((m) => m.leadId));
    const outsider = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].find((n) => !memberIds.has(n)) as number;
    const target = member.statusName === "Clicked" ? "Opened" : "Clicked";
    const answer = await change(1001, {
      statusName: target,
      input: [{ leadId: member.leadId }, { leadId: outsider }, { leadId: 999_999 }],
    });
    expect(answer.result).toEqual([
      { seq: 0, leadId: member.leadId, status: "updated" },
      { seq: 1, leadId: outsider, status: "updated" },
      { seq: 2, leadId: 999_999, status: "skipped", reasons: [{ code: "1004", message: "Lead not found" }] },
    ]);
    const after = await h.call(
      `/rest/v1/programs/1001/members.json?filterType=leadId&filterValues=${member.leadId},${outsider}&fields=statusName,reachedSuccess`,
    );
    expect(after.result?.map((m) => m.statusName)).toEqual([target, target]);
    const since = encodeURIComponent(new Date(NOW - 1_000).toISOString());
    const token = (await h.call(`/rest/v1/activities/pagingtoken.json?sinceDatetime=${since}`)).nextPageToken;
    const activities = await h.call(`/rest/v1/activities.json?activityTypeIds=104&nextPageToken=${token}`);
    expect(activities.result?.map((a) => a.leadId).sort()).toEqual([member.leadId, outsider].sort());
    expect(activities.result?.[0]).toMatchObject({ activityTypeId: 104, primaryAttributeValueId: 1001 });
  });

  it("refuses a status outside the program's progression, a blank one, and an unknown program", async () => {
    expect(errorCode(await change(1001, { statusName: "Attended", input: [{ leadId: 1 }] }))).toBe("1003");
    expect(errorCode(await change(1001, { input: [{ leadId: 1 }] }))).toBe("701");
    expect(errorCode(await change(1001, { statusName: "Sent", input: [] }))).toBe("701");
    expect(errorCode(await change(4242, { statusName: "Sent", input: [{ leadId: 1 }] }))).toBe("1013");
  });
});
