import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, type Harness, jsonInit, startHarness } from "../../helpers/marketo-sandbox.js";

/** Merge Leads, Associate Lead and Get Lead Partitions. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ leadCount: 400 });
});
afterAll(async () => {
  await h.close();
});

const post = { method: "POST" };

describe("merge leads", () => {
  it("keeps the winner, fills its blanks from the first loser listed, moves memberships, deletes the losers", async () => {
    await h.call(
      "/rest/v1/leads.json",
      jsonInit("POST", {
        action: "updateOnly",
        lookupField: "id",
        input: [
          { id: 20, title: "" },
          { id: 21, title: "Electrician" },
          { id: 22, title: "Plumber" },
        ],
      }),
    );
    await h.call("/rest/v1/lists/1010/leads.json?id=22", post);
    const since = encodeURIComponent(new Date(Date.now() - 60_000).toISOString());
    const token = (await h.call(`/rest/v1/activities/pagingtoken.json?sinceDatetime=${since}`)).nextPageToken;
    const merged = await h.call("/rest/v1/leads/20/merge.json?leadIds=21,22", post);
    expect(merged.success, JSON.stringify(merged)).toBe(true);
    expect((await h.call("/rest/v1/lead/20.json?fields=title")).result?.[0]?.title).toBe("Electrician");
    expect((await h.call("/rest/v1/lead/21.json")).result).toEqual([]);
    expect((await h.call("/rest/v1/lead/22.json")).result).toEqual([]);
    const member = await h.call("/rest/v1/lists/1010/leads/ismember.json?id=20");
    expect(member.result?.[0]?.status).toBe("memberof");
    const activities = await h.call(
      `/rest/v1/activities.json?activityTypeIds=32&nextPageToken=${String(token)}`,
    );
    expect(activities.result?.[0]).toMatchObject({ leadId: 20, primaryAttributeValueId: 20 });
    expect(activities.result?.[0]?.attributes).toContainEqual({ name: "Merge IDs", value: "21,22" });
  });

  it("refuses an unknown lead, a lead merged into itself and a merge without losers", async () => {
    expect(errorCode(await h.call("/rest/v1/leads/999999/merge.json?leadId=30", post))).toBe("1004");
    expect(errorCode(await h.call("/rest/v1/leads/30/merge.json?leadId=999999", post))).toBe("1004");
    expect(errorCode(await h.call("/rest/v1/leads/30/merge.json?leadId=30", post))).toBe("1003");
    expect(errorCode(await h.call("/rest/v1/leads/30/merge.json", post))).toBe("1003");
    expect((await h.call("/rest/v1/lead/30.json")).result).toHaveLength(1);
  });
});

describe("associate and partitions", () => {
  it("associates a Munchkin cookie with a lead, refusing other values", async () => {
    const cookie = encodeURIComponent("id:561-HYG-937&token:_mch-marketo.com-1427205775289-40768");
    expect((await h.call(`/rest/v1/leads/5/associate.json?cookie=${cookie}`, post)).success).toBe(true);
    expect(errorCode(await h.call("/rest/v1/leads/5/associate.json?cookie=abc", post))).toBe("1003");
    expect(errorCode(await h.call("/rest/v1/leads/5/associate.json", post))).toBe("701");
    expect(errorCode(await h.call(`/rest/v1/leads/999999/associate.json?cookie=${cookie}`, post))).toBe(
      "1004",
    );
  });

  it("lists the one Default partition", async () => {
    expect((await h.call("/rest/v1/leads/partitions.json")).result).toEqual([
      { id: 1, name: "Default", description: "Initial system lead partition" },
    ]);
  });

  it("moves leads to a partition that exists, skipping unknown leads and partitions", async () => {
    const moved = await h.call(
      "/rest/v1/leads/partitions.json",
      jsonInit("POST", {
        input: [
          { id: 6, partitionName: "Default" },
          { id: 6, partitionName: "EMEA" },
          { id: 999_999, partitionName: "Default" },
        ],
      }),
    );
    expect(
      moved.result?.map((r) => [r.status, (r.reasons as { code: string }[] | undefined)?.[0]?.code]),
    ).toEqual([
      ["updated", undefined],
      ["skipped", "1003"],
      ["skipped", "1004"],
    ]);
  });
});
