import { describe, expect, it } from "vitest";
import { marketoOverMcp } from "../helpers/marketo-mcp.js";

/**
 * Trial s15, N125: Get Campaigns' description "Campaign is Requested (source: Web Service API)" stood on an
 * inactive campaign, and the agent read each campaign's asset one by one to learn which can be requested. A
 * read of /rest/v1/campaigns.json says where that is, in one read; following it, isRequestable is true exactly
 * for the campaigns that Request Campaign (trigger.json) accepts.
 */
interface Campaigns {
  result: { id: number; isRequestable?: boolean; isActive?: boolean }[];
}
const mkto = marketoOverMcp({});
const NOTE = "GET /rest/asset/v1/smartCampaigns.json, every campaign in one read";

describe("which campaigns can be requested", () => {
  it("campaigns.json names the read that says so, and its isRequestable is what trigger.json does", async () => {
    const lead = await mkto.call<Campaigns>({ method: "GET", endpoint: "/rest/v1/campaigns.json" });
    expect(lead.first).toContain(NOTE);
    const asset = await mkto.ok<Campaigns>({ method: "GET", endpoint: "/rest/asset/v1/smartCampaigns.json" });
    expect(asset.first).not.toContain(NOTE);
    expect(asset.data.result.map((c) => c.id).sort()).toEqual(lead.data.result.map((c) => c.id).sort());
    for (const campaign of asset.data.result) {
      const trigger = await mkto.call({
        method: "POST",
        endpoint: `/rest/v1/campaigns/${campaign.id}/trigger.json`,
        body: { input: { leads: [{ id: 1 }] } },
      });
      expect(!trigger.result.isError, `${campaign.id}: ${trigger.first}`).toBe(
        campaign.isRequestable === true,
      );
      if (campaign.isRequestable) expect(campaign.isActive).toBe(true);
    }
    expect(asset.data.result.some((c) => c.isRequestable)).toBe(true);
    expect(asset.data.result.some((c) => !c.isRequestable)).toBe(true);
  });
});
