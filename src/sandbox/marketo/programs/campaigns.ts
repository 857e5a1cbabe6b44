/**
 * Smart campaigns through the Lead DB API (superseded by the Asset smartCampaign API, but live):
 * list, get, Request Campaign (trigger) and Schedule Campaign
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/smart-campaigns).
 */

import { logCampaignRun } from "../activities/log.js";
import {
  type ApiRequest,
  type Campaign,
  type HandlerContext,
  type HandlerResult,
  MarketoApiError,
} from "../types.js";
import { leadDate, parseMarketoDate } from "../wire/codec.js";
import { intList, isRecord, jsonBody, LEAD_DB_MAX_BATCH, multi, pageByToken, toInt } from "../wire/params.js";

/** Request Campaign takes at most 100 leads and 100 tokens (ADE rest-api.md "Limits"). */
const MAX_TRIGGER_LEADS = 100;
const MAX_TOKENS = 100;
const TWO_YEARS_MS = 2 * 366 * 86_400_000;
/** Without runAt, a scheduled run starts five minutes after the call (Swagger ScheduleCampaignData). */
const DEFAULT_SCHEDULE_DELAY_MS = 5 * 60_000;

function formatCampaign(c: Campaign) {
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    type: c.type,
    programName: c.programName,
    programId: c.programId,
    workspaceName: c.workspaceName,
    createdAt: leadDate(c.createdAt),
    updatedAt: leadDate(c.updatedAt),
    active: c.active,
  };
}

function findCampaign(ctx: HandlerContext, rawId: string | undefined): Campaign {
  const id = toInt(rawId ?? "", "campaignId");
  const campaign = ctx.world.campaigns.find((c) => c.id === id);
  if (!campaign) throw new MarketoApiError("1013", `Campaign '${id}' not found`);
  return campaign;
}

const triggerable = (c: Campaign) => c.type === "trigger" && c.active && c.requestable;

export function getCampaigns(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const ids = new Set(intList(req.params, "id", LEAD_DB_MAX_BATCH));
  const names = multi(req.params, "name").map((n) => n.toLowerCase());
  const programNames = new Set(multi(req.params, "programName"));
  const workspaces = new Set(multi(req.params, "workspaceName"));
  const onlyTriggerable = req.params.get("isTriggerable")?.toLowerCase() === "true";
  const matches = ctx.world.campaigns.filter(
    (c) =>
      (ids.size === 0 || ids.has(c.id)) &&
      (names.length === 0 || names.some((n) => c.name.toLowerCase().includes(n))) &&
      (programNames.size === 0 || programNames.has(c.programName)) &&
      (workspaces.size === 0 || workspaces.has(c.workspaceName)) &&
      (!onlyTriggerable || triggerable(c)),
  );
  const { page, nextPageToken } = pageByToken(matches, req.params, "campaigns");
  const result = page.map(formatCampaign);
  // A paged Get Campaigns answer carries nextPageToken and no moreResult (ADE smart-campaigns.md examples,
  // https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/smart-campaigns).
  return nextPageToken ? { result, nextPageToken } : { result };
}

export function getCampaignById(_req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  return { result: [formatCampaign(findCampaign(ctx, id))] };
}

function parseTokens(raw: unknown): { name: string; value: string }[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw new MarketoApiError("1003", "Invalid value for tokens, expected an array");
  if (raw.length > MAX_TOKENS) throw new MarketoApiError("1003", `Too many tokens, maximum is ${MAX_TOKENS}`);
  return raw.map((token) => {
    if (!isRecord(token) || typeof token.name !== "string" || !/^\{\{my\..+\}\}$/.test(token.name)) {
      throw new MarketoApiError("1003", 'Invalid token, expected {"name":"{{my.token}}","value":"…"}');
    }
    return { name: token.name, value: String(token.value ?? "") };
  });
}

function bodyInput(req: ApiRequest): Record<string, unknown> | undefined {
  const body = jsonBody(req.body);
  if (body === undefined) return undefined;
  if (!isRecord(body)) throw new MarketoApiError("609", "Invalid JSON");
  if (body.input === undefined) return undefined;
  if (!isRecord(body.input)) throw new MarketoApiError("1003", "Invalid value for input, expected an object");
  return body.input;
}

export function triggerCampaign(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const campaign = findCampaign(ctx, id);
  const input = bodyInput(req);
  const leads = input?.leads;
  if (!Array.isArray(leads) || leads.length === 0)
    throw new MarketoApiError("701", "input.leads cannot be blank");
  if (leads.length > MAX_TRIGGER_LEADS) {
    throw new MarketoApiError("1003", `Too many leads: ${leads.length}, maximum is ${MAX_TRIGGER_LEADS}`);
  }
  const leadIds = leads.map((lead) => {
    const raw = isRecord(lead) ? lead.id : undefined;
    return toInt(typeof raw === "number" || typeof raw === "string" ? String(raw) : "", "input.leads.id");
  });
  const tokens = parseTokens(input?.tokens);
  // Only an active trigger campaign whose smart list is "Campaign is Requested" (source: Web Service
  // API) can be requested; anything else is refused with 1003 (ADE smart-campaigns.md).
  if (campaign.type === "batch") {
    throw new MarketoApiError(
      "1003",
      `Campaign '${campaign.name}' is a batch campaign and cannot be requested`,
    );
  }
  if (!campaign.requestable) {
    throw new MarketoApiError(
      "1003",
      `Trigger campaign '${campaign.name}' does not have a 'Campaign is Requested' trigger with source 'Web Service API'`,
    );
  }
  if (!campaign.active)
    throw new MarketoApiError("1003", `Trigger campaign '${campaign.name}' is not active`);
  const known = leadIds.filter((leadId) => ctx.world.leads.has(leadId));
  ctx.world.campaignRuns.push({
    campaignId: campaign.id,
    kind: "trigger",
    leadIds: known,
    tokens,
    runAt: new Date(ctx.now()).toISOString(),
  });
  logCampaignRun(ctx.world, campaign, known, ctx.now());
  return { result: [{ id: campaign.id }] };
}

export function scheduleCampaign(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const campaign = findCampaign(ctx, id);
  const input = bodyInput(req);
  const now = ctx.now();
  let runAt = now + DEFAULT_SCHEDULE_DELAY_MS;
  if (input?.runAt !== undefined) {
    const parsed = typeof input.runAt === "string" ? parseMarketoDate(input.runAt) : undefined;
    if (parsed === undefined)
      throw new MarketoApiError("1003", `Invalid value for runAt '${String(input.runAt)}'`);
    if (parsed > now + TWO_YEARS_MS) {
      throw new MarketoApiError("1042", "Invalid runAt date, it must be within the next two years");
    }
    runAt = Math.max(parsed, now);
  }
  const tokens = parseTokens(input?.tokens);
  if (campaign.type !== "batch") {
    throw new MarketoApiError(
      "1003",
      `Campaign '${campaign.name}' is a trigger campaign and cannot be scheduled`,
    );
  }
  ctx.world.campaignRuns.push({
    campaignId: campaign.id,
    kind: "schedule",
    leadIds: [],
    tokens,
    runAt: new Date(runAt).toISOString(),
  });
  return { result: [{ id: campaign.id }] };
}
