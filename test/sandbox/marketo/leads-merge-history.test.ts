import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../../helpers/marketo-sandbox.js";

/**
 * Merge Leads moves the losers' history to the winner: "All activity log items are merged"
 * (docs.marketo.com, Merging People: the rules), and a loser's custom object records follow it (their
 * link field names a lead that no longer exists otherwise, and the winner's query by leadId misses them).
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ leadCount: 400, rateLimit: 100_000 });
});
afterAll(async () => {
  await h.close();
});

const post = { method: "POST" };

async function carsOf(leadId: number): Promise<unknown[]> {
  const answer = await h.call(`/rest/v1/customobjects/car_c.json?filterType=leadId&filterValues=${leadId}`);
  return answer.result ?? [];
}

/** Ten of the seeded activity types (a query takes at most ten). */
const TYPES = "1,2,6,7,10,11,12,13,22,46";

async function activitiesOf(leadId: number, token: string): Promise<{ leadId: number }[]> {
  const rows: { leadId: number }[] = [];
  let next = token;
  for (let page = 0; page < 50; page++) {
    const answer = await h.call(
      `/rest/v1/activities.json?activityTypeIds=${TYPES}&leadIds=${leadId}&nextPageToken=${next}`,
    );
    rows.push(...((answer.result ?? []) as { leadId: number }[]));
    if (answer.moreResult !== true) break;
    next = String(answer.nextPageToken);
  }
  return rows;
}

describe("merge leads: the losers' history", () => {
  it("moves a loser's custom object records to the winner", async () => {
    const ids = Array.from({ length: 60 }, (_, i) => i + 1);
    const seeded = await h.call(
      `/rest/v1/customobjects/car_c.json?filterType=leadId&filterValues=${ids.join(",")}&fields=leadId`,
    );
    const owners = ((seeded.result ?? []) as { leadId: number }[]).map((r) => r.leadId);
    const loser = owners[0] ?? 0;
    expect(loser).toBeGreaterThan(0);
    const cars = owners.filter((o) => o === loser).length;
    const winner = ids.find((id) => !owners.includes(id)) ?? 0;
    expect((await h.call(`/rest/v1/leads/${winner}/merge.json?leadId=${loser}`, post)).success).toBe(true);
    expect(await carsOf(loser)).toEqual([]);
    expect(await carsOf(winner)).toHaveLength(cars);
  });

  it("moves a loser's activities to the winner", async () => {
    const token = String(
      (await h.call("/rest/v1/activities/pagingtoken.json?sinceDatetime=2000-01-01T00:00:00Z")).nextPageToken,
    );
    let loser = 100;
    while ((await activitiesOf(loser, token)).length === 0) loser++;
    const moved = (await activitiesOf(loser, token)).length;
    const winner = loser + 1;
    const before = (await activitiesOf(winner, token)).length;
    const merged = await h.call(`/rest/v1/leads/${winner}/merge.json?leadId=${loser}`, post);
    expect(merged.success, JSON.stringify(merged)).toBe(true);
    expect(await activitiesOf(loser, token)).toEqual([]);
    const after = await activitiesOf(winner, token);
    expect(after.length).toBe(before + moved);
    expect(after.every((a) => a.leadId === winner)).toBe(true);
  });
});
