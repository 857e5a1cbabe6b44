/**
 * Smart lists and smart campaigns through the Asset API
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/smart-lists and
 * .../smart-campaigns). Smart campaigns are the Lead DB campaigns 1001… seen as assets; each has a
 * smart list (5001…) in its program. Shapes follow the docs' examples, which leave out several fields
 * the Swagger marks required (see test/helpers/wire/exceptions.ts).
 */

import { NO_ASSETS, offsetPage, updatedWithin } from "../assets/paging.js";
import { booleanParam, folderParam, sameFolder } from "../assets/params.js";
import {
  type ApiRequest,
  type Campaign,
  type HandlerContext,
  type HandlerResult,
  type LeadField,
  MarketoApiError,
  type SmartList,
} from "../types.js";
import { assetDate } from "../wire/codec.js";
import { toInt } from "../wire/params.js";

/**
 * A campaign's triggers: what makes it a trigger campaign in Marketo, where a smart list with a trigger makes
 * its campaign a trigger campaign and one without a batch campaign
 * (https://experienceleague.adobe.com/en/docs/marketo/using/product-docs/core-marketo-concepts/smart-campaigns/creating-a-smart-campaign/define-smart-list-for-a-smart-campaign).
 * One that can be requested by API has "Campaign is Requested"; the sandbox's other trigger campaign (Score Web
 * Visits) "Visits Web Page". A trigger campaign with no trigger (trial s13, N90) read as a batch campaign.
 */
function triggersOf(campaign: Campaign | undefined): string[] {
  if (campaign?.type !== "trigger") return [];
  return [campaign.requestable ? "Campaign is Requested" : "Visits Web Page"];
}

/**
 * Rules as Get Smart List by Id returns them with includeRules=true. The sandbox's filters are lead
 * attribute filters; their ids and rule type ids are the lead field ids (inferred: the docs show an
 * activity filter only).
 */
function rulesJson(list: SmartList, fields: readonly LeadField[], campaign: Campaign | undefined) {
  return {
    filterMatchType: "all",
    triggers: triggersOf(campaign),
    filters: list.rules.map((rule, i) => {
      const field = fields.find((f) => f.name === rule.field);
      const id = field?.id ?? 0;
      const name = field?.displayName ?? rule.field;
      return {
        id: list.id * 10 + i,
        name,
        ruleTypeId: id,
        ruleType: name,
        operator: rule.operator,
        conditions: [
          {
            activityAttributeId: id,
            activityAttributeName: name,
            operator: rule.operator,
            values: rule.values,
            isPrimary: true,
          },
        ],
      };
    }),
  };
}

function campaignOf(ctx: HandlerContext, list: SmartList): Campaign | undefined {
  return list.campaignId === undefined
    ? undefined
    : ctx.world.campaigns.find((c) => c.id === list.campaignId);
}

function formatSmartList(ctx: HandlerContext, list: SmartList, withRules: boolean) {
  return {
    id: list.id,
    name: list.name,
    ...(list.description !== "" ? { description: list.description } : {}),
    createdAt: assetDate(list.createdAt),
    updatedAt: assetDate(list.updatedAt),
    url: `${ctx.origin}/#SL${list.id}A1`,
    folder: { ...list.folder },
    workspace: "Default",
    ...(withRules ? { rules: rulesJson(list, ctx.world.fields, campaignOf(ctx, list)) } : {}),
  };
}

export function getSmartLists(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const folder = folderParam(req.params, "folder");
  const inRange = updatedWithin(req);
  const lists = ctx.world.smartLists.filter(
    (l) => (!folder || sameFolder(l.folder, folder)) && inRange(l.updatedAt),
  );
  return offsetPage(req, lists, (l) => formatSmartList(ctx, l, false));
}

export function getSmartListById(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const listId = toInt(id ?? "", "id");
  const list = ctx.world.smartLists.find((l) => l.id === listId);
  const withRules = booleanParam(req.params, "includeRules") === true;
  return list ? { result: [formatSmartList(ctx, list, withRules)] } : { warnings: [NO_ASSETS] };
}

/**
 * Get Smart List by Smart Campaign Id, GET /rest/asset/v1/smartCampaign/{id}/smartList.json
 * (swagger-asset.json, getSmartListBySmartCampaignIdUsingGET; includeRules=true adds the rules).
 */
export function getSmartListByCampaignId(
  req: ApiRequest,
  ctx: HandlerContext,
  [id]: string[],
): HandlerResult {
  const campaignId = toInt(id ?? "", "id");
  const list = ctx.world.smartLists.find((l) => l.campaignId === campaignId);
  const withRules = booleanParam(req.params, "includeRules") === true;
  return list ? { result: [formatSmartList(ctx, list, withRules)] } : { warnings: [NO_ASSETS] };
}

export function getSmartListByName(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const name = req.params.get("name");
  if (name === null || name === "") throw new MarketoApiError("701", "name cannot be blank");
  const list = ctx.world.smartLists.find((l) => l.name === name);
  return list ? { result: [formatSmartList(ctx, list, false)] } : { warnings: [NO_ASSETS] };
}

/** Status as the Asset API reports it; batch campaigns that were scheduled count as a single run. */
function campaignStatus(ctx: HandlerContext, c: Campaign): string {
  if (c.type === "trigger") return c.active ? "Active" : "Inactive";
  return ctx.world.campaignRuns.some((run) => run.campaignId === c.id) ? "Single Run" : "Never Run";
}

function formatSmartCampaign(ctx: HandlerContext, c: Campaign) {
  const smartList = ctx.world.smartLists.find((l) => l.campaignId === c.id);
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    createdAt: assetDate(c.createdAt),
    updatedAt: assetDate(c.updatedAt),
    folder: { id: c.programId, type: "Program" },
    status: campaignStatus(ctx, c),
    type: c.type,
    isSystem: false,
    isActive: c.active,
    // Adobe's SmartCampaign model: "is active and contains 'Campaign is Requested' trigger with Source of 'Web
    // Service API'" (swagger-asset.json, SmartCampaignResponse.isRequestable): an inactive one is not requestable.
    isRequestable: c.type === "trigger" && c.active && c.requestable,
    isCommunicationLimitEnabled: false,
    recurrence: { weekdayOnly: false },
    qualificationRuleType: "once",
    workspace: c.workspaceName,
    smartListId: smartList?.id ?? 0,
    // Flows are not emulated; the id only has to be stable and distinct.
    flowId: c.id + 5000,
    computedUrl: `${ctx.origin}/#SC${c.id}A1`,
  };
}

export function getSmartCampaigns(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const folder = folderParam(req.params, "folder");
  const inRange = updatedWithin(req);
  const activeOnly = booleanParam(req.params, "isActive") === true;
  const inFolder = (c: Campaign): boolean => {
    if (!folder) return true;
    if (folder.type === "Program") return c.programId === folder.id;
    return ctx.world.programs.some((p) => p.id === c.programId && p.folder.value === folder.id);
  };
  const campaigns = ctx.world.campaigns.filter(
    // isActive=true returns only active trigger campaigns (ADE smart-campaigns.md "Browse").
    (c) => inFolder(c) && inRange(c.updatedAt) && (!activeOnly || (c.type === "trigger" && c.active)),
  );
  return offsetPage(req, campaigns, (c) => formatSmartCampaign(ctx, c));
}

export function getSmartCampaignById(_req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const campaignId = toInt(id ?? "", "id");
  const campaign = ctx.world.campaigns.find((c) => c.id === campaignId);
  return campaign ? { result: [formatSmartCampaign(ctx, campaign)] } : { warnings: [NO_ASSETS] };
}

export function getSmartCampaignByName(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const name = req.params.get("name");
  if (name === null || name === "") throw new MarketoApiError("701", "name cannot be blank");
  const campaign = ctx.world.campaigns.find((c) => c.name === name);
  return campaign ? { result: [formatSmartCampaign(ctx, campaign)] } : { warnings: [NO_ASSETS] };
}
