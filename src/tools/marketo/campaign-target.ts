/**
 * What a triggered or scheduled campaign acts on. Request Campaign and Schedule Campaign answer only the
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

/** The campaign id and kind of a Request Campaign or Schedule Campaign call; else undefined. */
export function campaignWrite(
  input: MarketoApiCallInput,
): { id: string; kind: "trigger" | "schedule" } | undefined {
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

/** The sentence after a trigger's or schedule's summary: the smart list, its triggers and filters. */
export function targetWords(list: SmartListRecord, kind: "trigger" | "schedule", id: string): string {
  const triggers = Array.isArray(list.rules?.triggers) ? list.rules.triggers.map(String) : [];
  const filters = (list.rules?.filters ?? []).map(ruleText);
  const match = list.rules?.filterMatchType === "any" ? "any" : "all";
  const selects =
    filters.length > 0
      ? `its filters (${match} must match): ${filters.join("; ")}`
      : "no filters (every lead its triggers admit)";
  const requestable = triggers.includes("Campaign is Requested")
    ? "it has a Campaign is Requested trigger, so it can be requested by API"
    : "it has no Campaign is Requested trigger, so it cannot be requested by API (trigger.json refuses it)";
  const acts =
    kind === "schedule"
      ? "The scheduled run acts on the leads this smart list selects"
      : "The requested leads run through its flow";
  return (
    `Smart campaign ${id} targets its smart list "${String(list.name ?? "")}" (id ${String(list.id ?? "")}): ` +
    `triggers ${triggers.length > 0 ? triggers.join(", ") : "none"}; ${selects}; ${requestable}. ${acts} ` +
    `(read with 1 more call: GET /rest/asset/v1/smartCampaign/${id}/smartList.json?includeRules=true).`
  );
}

/** Reads the campaign's smart list; a failed read is said, never thrown: the write itself was accepted. */
export async function campaignTarget(
  marketo: MarketoConnector,
  write: { id: string; kind: "trigger" | "schedule" },
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
