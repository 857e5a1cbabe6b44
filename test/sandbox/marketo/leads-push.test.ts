/**
 * Push Lead to Marketo (POST /rest/v1/leads/push.json): upserts by lookupField, adds each lead to the
 * named program and writes a "Push Lead to Marketo" activity (type 145) carrying source and reason.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, type Harness, jsonInit, startHarness } from "../../helpers/marketo-sandbox.js";

const NOW = Date.parse("2026-03-03T15:00:00Z");
let h: Harness;
let programName: string;
beforeAll(async () => {
  h = await startHarness({ leadCount: 300, now: () => NOW });
  // Program 1001 is an Email program (progression Clicked, Member, Sent, ...).
  programName = (await h.call("/rest/asset/v1/program/1001.json")).result?.[0]?.name as string;
});
afterAll(async () => {
  await h.close();
});

const push = (body: unknown) => h.call("/rest/v1/leads/push.json", jsonInit("POST", body));
const statusOf = async (leadId: number) =>
  (
    await h.call(
      `/rest/v1/programs/1001/members.json?filterType=leadId&filterValues=${leadId}&fields=statusName`,
    )
  ).result?.[0]?.statusName;

async function pushActivities(): Promise<Record<string, unknown>[]> {
  const since = encodeURIComponent(new Date(NOW - 1_000).toISOString());
  const token = (await h.call(`/rest/v1/activities/pagingtoken.json?sinceDatetime=${since}`)).nextPageToken;
  return (await h.call(`/rest/v1/activities.json?activityTypeIds=145&nextPageToken=${token}`)).result ?? [];
}

describe("pushing leads to Marketo", () => {
  it("creates and updates leads, makes them members and writes the Push Lead to Marketo activity", async () => {
    const lead = (await h.call("/rest/v1/lead/7.json?fields=email,title")).result?.[0] as { email: string };
    const answer = await push({
      programName,
      source: "Partner portal",
      reason: "Webinar sign-up",
      input: [
        { email: "pushed.new@example.com", firstName: "Pia" },
        { email: lead.email, title: "Head of Pushing" },
        { email: "broken" },
      ],
    });
    expect(answer.success).toBe(true);
    const [created, updated, skipped] = answer.result as Record<string, unknown>[];
    expect(created).toEqual({ id: expect.any(Number), status: "created" });
    expect(updated).toEqual({ id: 7, status: "updated" });
    expect(skipped).toEqual({ status: "skipped", reasons: [expect.objectContaining({ code: "1003" })] });
    const newId = created?.id as number;
    const stored = await h.call(`/rest/v1/lead/${newId}.json?fields=email,firstName`);
    expect(stored.result?.[0]).toMatchObject({ email: "pushed.new@example.com", firstName: "Pia" });
    expect((await h.call("/rest/v1/lead/7.json?fields=title")).result?.[0]?.title).toBe("Head of Pushing");
    // Without programStatus a new member gets the first status that is not the success one.
    expect(await statusOf(newId)).toBe("Member");
    const activities = await pushActivities();
    expect(activities.map((a) => a.leadId).sort()).toEqual([7, newId].sort());
    expect(activities[0]?.attributes).toEqual([
      { name: "Program Name", value: programName },
      { name: "Source", value: "Partner portal" },
      { name: "Reason", value: "Webinar sign-up" },
    ]);
    const types = await h.call("/rest/v1/activities/types.json");
    expect(types.result?.find((t) => t.id === 145)?.name).toBe("Push Lead to Marketo");
  });

  it("sets programStatus when given, and keeps an existing member's status when not", async () => {
    const first = await push({
      programName,
      programStatus: "opened",
      input: [{ email: "status@example.com" }],
    });
    const id = first.result?.[0]?.id as number;
    expect(await statusOf(id)).toBe("Opened");
    await push({ programName, input: [{ email: "status@example.com" }] });
    expect(await statusOf(id)).toBe("Opened");
  });

  it("upserts by another lookupField", async () => {
    const lead = (await h.call("/rest/v1/lead/9.json?fields=email")).result?.[0] as { email: string };
    const answer = await push({
      programName,
      lookupField: "id",
      input: [{ id: 9, title: "Found by id" }],
    });
    expect(answer.result).toEqual([{ id: 9, status: "updated" }]);
    expect((await h.call("/rest/v1/lead/9.json?fields=email,title")).result?.[0]).toMatchObject({
      email: lead.email,
      title: "Found by id",
    });
  });

  it("refuses a missing or unknown programName, a status outside the progression and 301 records", async () => {
    const input = [{ email: "refused@example.com" }];
    expect(errorCode(await push({ input }))).toBe("701");
    expect(errorCode(await push({ programName: "No Such Program", input }))).toBe("1013");
    expect(errorCode(await push({ programName, programStatus: "Attended", input }))).toBe("1003");
    const many = Array.from({ length: 301 }, (_, i) => ({ email: `bulk${i}@example.com` }));
    expect(errorCode(await push({ programName, input: many }))).toBe("1003");
    const found = await h.call("/rest/v1/leads.json?filterType=email&filterValues=refused@example.com");
    expect(found.result).toEqual([]);
  });
});
