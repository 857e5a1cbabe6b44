/**
 * What a campaign acts on, said after a trigger, a schedule or a read of the campaign (Get Smart Campaign by
 * Id, Get Campaign By Id: before any trigger). Request Campaign and Schedule Campaign answer only the
 * campaign's id, so after either is accepted one more call reads the campaign's smart list with its rules:
 * Get Smart List by Smart Campaign Id, GET /rest/asset/v1/smartCampaign/{id}/smartList.json?includeRules=true
 * (swagger-asset.json, getSmartListBySmartCampaignIdUsingGET). Only a campaign whose smart list has a
 * "Campaign is Requested" trigger (source Web Service API) can be requested by API, and a schedule takes no
 * leads: the run acts on the leads the smart list's filters select
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/smart-campaigns).
 */
import type { MarketoConnector } from "../../connectors/marketo/connector.js";
import type { MarketoApiCallInput } from "../../schemas/marketo.js";

const CAMPAIGN_WRITE = /^\/rest\/v1\/campaigns\/(\d+)\/(trigger|schedule)\.json$/;
/** Get Smart Campaign by Id (asset API) and Get Campaign By Id (Lead DB): read before any trigger. */
const CAMPAIGN_READ = /^\/rest\/(?:asset\/v1\/smartCampaign|v1\/campaigns)\/(\d+)\.json$/;

type CampaignCall = "trigger" | "schedule" | "read";

interface Rule {
  name?: unknown;
  operator?: unknown;
  conditions?: { values?: unknown }[];
}
interface SmartListRecord {
  id?: unknown;
  name?: unknown;
  rules?: { triggers?: unknown; filters?: Rule[]; filterMatchType?: unknown };
}

/** The campaign id and kind of a Request Campaign, Schedule Campaign or campaign read; else undefined. */
export function campaignCall(input: MarketoApiCallInput): { id: string; kind: CampaignCall } | undefined {
  if (input.method === "GET") {
    const read = CAMPAIGN_READ.exec(input.endpoint);
    return read ? { id: read[1] as string, kind: "read" } : undefined;
  }
  const match = input.method === "POST" ? CAMPAIGN_WRITE.exec(input.endpoint) : null;
  return match ? { id: match[1] as string, kind: match[2] as "trigger" | "schedule" } : undefined;
}

const words = (value: unknown) => (Array.isArray(value) ? value.map(String).join(", ") : "");

/** "Lead Score greater than 50" from a filter rule as includeRules gives it. */
function ruleText(rule: Rule): string {
  const values = (rule.conditions ?? []).map((c) => words(c.values)).filter(Boolean);
  return [String(rule.name ?? "a filter"), String(rule.operator ?? ""), values.join("; ")]
    .filter(Boolean)
    .join(" ");
}

/**
 * What the call does (or would do) to leads, said only as it holds for this campaign (agent trial s4, T09:
 * a schedule's answer said "cannot be requested by API" and "trigger.json runs the leads you give" at once).
 * Schedule Campaign runs a batch campaign, one without triggers, on what its smart list selects and takes no
 * leads; Request Campaign needs a "Campaign is Requested" trigger and runs the leads given through the flow
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/smart-campaigns).
 */
function actsWords(kind: CampaignCall, id: string, triggers: readonly string[]): string {
  if (kind === "schedule") {
    return "The scheduled run acts on the leads this smart list selects (a schedule takes no leads)";
  }
  const requestable = triggers.includes("Campaign is Requested");
  if (kind === "trigger") return "It can be requested by API: the requested leads run through its flow";
  if (requestable) {
    return `It can be requested by API: POST /rest/v1/campaigns/${id}/trigger.json runs the leads you give through its flow`;
  }
  if (triggers.length === 0) {
    return (
      `It has no triggers, so it is a batch campaign: POST /rest/v1/campaigns/${id}/schedule.json runs it on the leads ` +
      "this smart list selects (a schedule takes no leads); it cannot be requested by API (trigger.json refuses it)"
    );
  }
  return "It cannot be requested by API (trigger.json refuses it: no Campaign is Requested trigger); its own triggers start it";
}

/** The sentence after a campaign's trigger, schedule or read summary: the smart list, its triggers and filters. */
export function targetWords(list: SmartListRecord, kind: CampaignCall, id: string): string {
  const triggers = Array.isArray(list.rules?.triggers) ? list.rules.triggers.map(String) : [];
  const filters = (list.rules?.filters ?? []).map(ruleText);
  const match = list.rules?.filterMatchType === "any" ? "any" : "all";
  const selects =
    filters.length > 0
      ? `its filters (${match} must match): ${filters.join("; ")}`
      : "no filters (every lead its triggers admit)";
  return (
    `Smart campaign ${id} targets its smart list "${String(list.name ?? "")}" (id ${String(list.id ?? "")}): ` +
    `triggers ${triggers.length > 0 ? triggers.join(", ") : "none"}; ${selects}. ${actsWords(kind, id, triggers)} ` +
    `(read with 1 more call: GET /rest/asset/v1/smartCampaign/${id}/smartList.json?includeRules=true).`
  );
}

/** Reads the campaign's smart list; a failed read is said, never thrown: the call itself succeeded. */
export async function campaignTarget(
  marketo: MarketoConnector,
  write: { id: string; kind: CampaignCall },
  signal: AbortSignal | undefined,
): Promise<string> {
  const path = `/rest/asset/v1/smartCampaign/${write.id}/smartList.json`;
  try {
    const page = await marketo.request({
      method: "GET",
      path,
      query: { includeRules: true },
      ...(signal ? { signal } : {}),
    });
    const list = page.result[0] as SmartListRecord | undefined;
    if (list) return targetWords(list, write.kind, write.id);
  } catch {
    // Reported below: the campaign's smart list could not be read, which does not undo the write.
  }
  return `Its smart list could not be read: GET ${path}?includeRules=true shows what the campaign targets.`;
}
