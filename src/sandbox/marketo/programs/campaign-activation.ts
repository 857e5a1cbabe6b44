/**
 * Activate and Deactivate Smart Campaign (Swagger activateSmartCampaignUsingPOST,
 * deactivateSmartCampaignUsingPOST; https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/smart-campaigns#activate):
 * activation needs a trigger campaign (one with a trigger and a flow step) that is deactivated;
 * deactivation needs an active one. The answer is the campaign's id. The refusal codes and wording
 * are inferred: 709 (blocked by a business rule, ADE error-codes.md) for each broken condition, 702
 * for an unknown campaign, as for other Asset writes here.
 */

import {
  type ApiRequest,
  type Campaign,
  type HandlerContext,
  type HandlerResult,
  MarketoApiError,
} from "../types.js";
import { toInt } from "../wire/params.js";

function campaignOf(ctx: HandlerContext, id: string | undefined): Campaign {
  const campaignId = toInt(id ?? "", "id");
  const campaign = ctx.world.campaigns.find((c) => c.id === campaignId);
  if (!campaign) throw new MarketoApiError("702", `Smart campaign ${campaignId} not found`);
  return campaign;
}

function setActive(ctx: HandlerContext, id: string | undefined, active: boolean): HandlerResult {
  const campaign = campaignOf(ctx, id);
  if (campaign.type !== "trigger") {
    throw new MarketoApiError(
      "709",
      `Smart campaign ${campaign.id} is a batch campaign: only a trigger campaign can be ${active ? "activated" : "deactivated"}`,
    );
  }
  if (campaign.active === active) {
    throw new MarketoApiError(
      "709",
      `Smart campaign ${campaign.id} is already ${active ? "active" : "inactive"}`,
    );
  }
  campaign.active = active;
  campaign.updatedAt = ctx.now();
  return { result: [{ id: campaign.id }] };
}

export function activateSmartCampaign(_req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  return setActive(ctx, id, true);
}

export function deactivateSmartCampaign(
  _req: ApiRequest,
  ctx: HandlerContext,
  [id]: string[],
): HandlerResult {
  return setActive(ctx, id, false);
}
