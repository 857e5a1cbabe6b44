import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, type Harness, jsonInit, startHarness } from "../../helpers/marketo-sandbox.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ leadCount: 100 });
});
afterAll(async () => {
  await h.close();
});

const trigger = (id: number, input: unknown) =>
  h.call(`/rest/v1/campaigns/${id}/trigger.json`, jsonInit("POST", { input }));

describe("Marketo sandbox smart campaigns", () => {
  it("lists campaigns with the real item fields and filters triggerable ones", async () => {
    const all = await h.call("/rest/v1/campaigns.json");
    expect(all.result).toHaveLength(8);
    expect(all.result?.[0]).toMatchObject({
      id: 1001,
      type: "trigger",
      active: true,
      workspaceName: "Default",
    });
    const triggerable = await h.call("/rest/v1/campaigns.json?isTriggerable=true");
    expect(triggerable.result?.map((c) => c.id)).toEqual([1001, 1002, 1008]);
    expect((await h.call("/rest/v1/campaigns/1005.json")).result?.[0]?.type).toBe("batch");
    expect(errorCode(await h.call("/rest/v1/campaigns/4242.json"))).toBe("1013");
  });

  it("deactivates and activates a trigger campaign through the Asset API, which requests then follow", async () => {
    const post = (path: string) => h.call(path, { method: "POST" });
    expect(await post("/rest/asset/v1/smartCampaign/1001/deactivate.json")).toMatchObject({
      success: true,
      result: [{ id: 1001 }],
    });
    expect((await h.call("/rest/asset/v1/smartCampaign/1001.json")).result?.[0]).toMatchObject({
      isActive: false,
      status: "Inactive",
    });
    expect((await h.call("/rest/v1/campaigns/1001.json")).result?.[0]?.active).toBe(false);
    expect(errorCode(await trigger(1001, { leads: [{ id: 1 }] }))).toBe("1003");
    expect((await post("/rest/asset/v1/smartCampaign/1001/deactivate.json")).errors).toEqual([
      { code: "709", message: "Smart campaign 1001 is already inactive" },
    ]);
    expect(await post("/rest/asset/v1/smartCampaign/1001/activate.json")).toMatchObject({
      success: true,
      result: [{ id: 1001 }],
    });
    expect((await trigger(1001, { leads: [{ id: 1 }] })).success).toBe(true);
    expect(errorCode(await post("/rest/asset/v1/smartCampaign/1001/activate.json"))).toBe("709");
    expect((await post("/rest/asset/v1/smartCampaign/1005/activate.json")).errors?.[0]?.message).toContain(
      "is a batch campaign",
    );
    expect(errorCode(await post("/rest/asset/v1/smartCampaign/4242/activate.json"))).toBe("702");
  });

  it("pages with nextPageToken alone, as real Get Campaigns answers do (no moreResult)", async () => {
    const first = await h.call("/rest/v1/campaigns.json?batchSize=5");
    expect(first.result).toHaveLength(5);
    expect(typeof first.nextPageToken).toBe("string");
    expect(first).not.toHaveProperty("moreResult");
    const rest = await h.call(`/rest/v1/campaigns.json?batchSize=5&nextPageToken=${first.nextPageToken}`);
    expect(rest.result).toHaveLength(3);
    expect(rest).not.toHaveProperty("moreResult");
  });

  it("triggers a requestable campaign and records the run", async () => {
    const body = await trigger(1001, {
      leads: [{ id: 1 }, { id: 2 }],
      tokens: [{ name: "{{my.message}}", value: "Hello" }],
    });
    expect(body).toMatchObject({ success: true, result: [{ id: 1001 }] });
    expect(h.sb.campaignRuns().at(-1)).toMatchObject({
      campaignId: 1001,
      kind: "trigger",
      leadIds: [1, 2],
      tokens: [{ name: "{{my.message}}", value: "Hello" }],
    });
  });

  it("refuses batch, non-requestable, inactive and unknown campaigns, and too many leads", async () => {
    const batch = await trigger(1005, { leads: [{ id: 1 }] });
    expect(batch.success).toBe(false);
    expect(batch.errors?.[0]?.code).toBe("1003");
    expect(batch.errors?.[0]?.message).toContain("batch campaign");
    expect(errorCode(await trigger(1003, { leads: [{ id: 1 }] }))).toBe("1003");
    expect((await trigger(1004, { leads: [{ id: 1 }] })).errors?.[0]?.message).toContain("not active");
    expect(errorCode(await trigger(4242, { leads: [{ id: 1 }] }))).toBe("1013");
    const leads = Array.from({ length: 101 }, (_, i) => ({ id: i + 1 }));
    expect(errorCode(await trigger(1001, { leads }))).toBe("1003");
    expect(h.sb.campaignRuns().filter((r) => r.campaignId !== 1001)).toEqual([]);
  });

  it("schedules a batch campaign (body optional) and refuses runAt more than two years ahead", async () => {
    const noBody = await h.call("/rest/v1/campaigns/1005/schedule.json", { method: "POST" });
    expect(noBody).toMatchObject({ success: true, result: [{ id: 1005 }] });
    const far = new Date(Date.now() + 3 * 365 * 86_400_000).toISOString();
    expect(
      errorCode(
        await h.call("/rest/v1/campaigns/1005/schedule.json", jsonInit("POST", { input: { runAt: far } })),
      ),
    ).toBe("1042");
    const soon = new Date(Date.now() + 86_400_000).toISOString();
    const ok = await h.call(
      "/rest/v1/campaigns/1006/schedule.json",
      jsonInit("POST", { input: { runAt: soon } }),
    );
    expect(ok.result).toEqual([{ id: 1006 }]);
    expect(
      h.sb
        .campaignRuns()
        .filter((r) => r.kind === "schedule")
        .map((r) => r.campaignId),
    ).toEqual([1005, 1006]);
  });
});
