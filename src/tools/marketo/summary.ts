/**
 * The one-line summary of a Marketo API Call answer. Each statement is one a model can act on as it
 * stands: the counts agree with the data and with the linked full result, and what it says to do next
 * works when done (test/tools/marketo-texts/hints.test.ts does each).
 */
import type { MarketoApiCallInput, MarketoApiCallOutput } from "../../schemas/marketo.js";
import { n as count, plural } from "../numbers-in-words.js";
import type { PlainCut, ReadCounts } from "./read-calls.js";

const TRIGGER = /^\/rest\/v1\/campaigns\/(\d+)\/trigger\.json$/;

/**
 * Activity types a smart campaign's flow steps commonly log (Send Email, Change Data Value, Add to List,
 * Remove from List), from the standard types Marketo describes at GET /rest/v1/activities/types.json
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/activities).
 */
export const FLOW_ACTIVITY_TYPES = "6,13,24,25";

/** The lead ids of a trigger request's body (input.leads[].id), as Request Campaign takes them. */
function triggeredLeads(body: unknown): string[] {
  const input = (body as { input?: { leads?: unknown } } | undefined)?.input;
  const leads = Array.isArray(input?.leads) ? input.leads : [];
  return leads.flatMap((lead) => {
    const id = (lead as { id?: unknown } | null)?.id;
    return typeof id === "number" || typeof id === "string" ? [String(id)] : [];
  });
}

/**
 * POST /rest/v1/campaigns/{id}/trigger.json answers only the campaign's id: Marketo queues the run and
 * its flow runs later ("Request Campaign", https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/smart-campaigns).
 * Say what was requested, for whom, and the exact call that shows what the flow did.
 */
export function triggerSummary(input: MarketoApiCallInput, requestedAt: Date): string | undefined {
  const match = input.method === "POST" ? TRIGGER.exec(input.endpoint) : null;
  if (!match) return undefined;
  const campaign = match[1] as string;
  const leads = triggeredLeads(input.body);
  const ids = leads.slice(0, 30).join(",");
  const since = new Date(Math.floor(requestedAt.getTime() / 1000) * 1000).toISOString().replace(".000Z", "Z");
  const call = JSON.stringify({
    method: "GET",
    endpoint: "/rest/v1/activities.json",
    query_parameters: { sinceDatetime: since, leadIds: ids, activityTypeIds: FLOW_ACTIVITY_TYPES },
    paginate: true,
  });
  return (
    `Marketo accepted the request to run smart campaign ${campaign} for ${plural(leads.length, "lead")} ` +
    `(id${leads.length === 1 ? "" : "s"} ${leads.join(", ")}). Marketo runs the campaign asynchronously: this ` +
    `answer means it was queued, not that its flow has run. To see what the flow did, call marketo_api_call with ${call} ` +
    // activities.json's leadIds "Allows up to 30 entries" (Get Lead Activities, swagger-mapi.json,
    // https://developer.adobe.com/marketo-apis/api/mapi/#tag/Activities/operation/getLeadActivitiesUsingGET).
    (leads.length > 30
      ? `(its leadIds holds the first 30 of the ${leads.length} leads, the most activities.json takes; ` +
        `call it again with leadIds ${leads.slice(30).join(",")}, 30 at a time) `
      : "") +
    `(other activity types: GET /rest/v1/activities/types.json); the activities it logs carry campaignId ${campaign}.`
  );
}

const SCHEDULE = /^\/rest\/v1\/campaigns\/(\d+)\/schedule\.json$/;

/**
 * POST /rest/v1/campaigns/{id}/schedule.json answers only the campaign's id. Schedule Campaign runs a batch
 * campaign at runAt ("If unset, the campaign will be run five minutes after the call is made") on the
 * leads its own smart list selects: the request takes no leads (swagger-mapi.json, scheduleCampaignUsingPOST
 * and ScheduleCampaignData; https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/smart-campaigns).
 * The Lead Database campaign record has no run time; the Asset API's smart campaign has its smartListId.
 */
function scheduleSummary(input: MarketoApiCallInput): string | undefined {
  const match = input.method === "POST" ? SCHEDULE.exec(input.endpoint) : null;
  if (!match) return undefined;
  const campaign = match[1] as string;
  const runAt = (input.body as { input?: { runAt?: unknown } } | undefined)?.input?.runAt;
  const when =
    typeof runAt === "string" ? `to run at ${runAt}` : "to run five minutes from now (no runAt was given)";
  return (
    `Marketo accepted the schedule of batch campaign ${campaign} ${when}. A schedule takes no leads: the run ` +
    "acts on the leads the campaign's own smart list selects. GET /rest/asset/v1/smartCampaign/" +
    `${campaign}.json shows that smart list (smartListId) and whether the campaign is active; Marketo's ` +
    "REST API does not read the scheduled run time back."
  );
}

/** A write's results by status, as Marketo gives it per record ("created 2, updated 1"). */
function statuses(result: readonly Record<string, unknown>[]): string {
  const counts = new Map<string, number>();
  for (const record of result) {
    const status = typeof record.status === "string" ? record.status : undefined;
    if (status) counts.set(status, (counts.get(status) ?? 0) + 1);
  }
  return [...counts].map(([status, n]) => `${status} ${count(n)}`).join(", ");
}

/** A POST or DELETE that changes data: what Marketo answered per record, never "records read". */
function writeSummary(input: MarketoApiCallInput, data: MarketoApiCallOutput): string | undefined {
  const schedule = scheduleSummary(input);
  if (schedule) return schedule;
  const read = input.query_parameters?._method === "GET" || input.endpoint.endsWith("/file.json");
  if (input.method === "GET" || read) return undefined;
  const byStatus = statuses(data.result);
  const ids = data.result.flatMap((record) =>
    typeof record.id === "number" || typeof record.id === "string" ? [String(record.id)] : [],
  );
  const said = byStatus
    ? `Marketo answered ${plural(data.result.length, "result")}: ${byStatus}`
    : `Marketo accepted the request and answered ${plural(data.result.length, "result")}`;
  const parts = [
    `${input.method} ${input.endpoint}: ${said}` +
      // Only when every record has its id: "in input order" with one missing would pair them wrongly (review s23).
      (ids.length > 0 && ids.length <= 30 && ids.length === data.result.length
        ? ` (id${ids.length === 1 ? "" : "s"} ${ids.join(", ")}, in input order)`
        : "") +
      `, ${plural(data.calls_used, "call")}`,
  ];
  const split = data.extra?.split_calls;
  if (typeof split === "number") {
    parts.push(
      `sent as ${split} calls of at most ${data.extra?.ids_per_call_max} ids each (Marketo's limit a call), statuses joined in input order`,
    );
  }
  if (data.record_errors.length > 0) parts.push(`${plural(data.record_errors.length, "record")} skipped`);
  return `${parts.join("; ")}.`;
}

const LEAD_BY_ID = /^\/rest\/v1\/lead\/(\d+)\.json$/;
const ASSET_BY_ID = /^\/rest\/asset\/v1\/([A-Za-z]+)\/(\d+)(?:\/content)?\.json$/;
/** Where to look an asset type up instead, by its path's name (all Asset API browse/byName calls). */
const ASSET_LISTS: Record<string, string> = {
  program: "GET /rest/asset/v1/programs.json (or program/byName.json?name=)",
  email: "GET /rest/asset/v1/emails.json (or email/byName.json?name=)",
  folder: "GET /rest/asset/v1/folders.json (or folder/byName.json?name=)",
  smartCampaign: "GET /rest/asset/v1/smartCampaigns.json",
  staticList: "GET /rest/asset/v1/staticLists.json",
};

/**
 * A read of one object by id that found none says so: Get Lead by Id answers an empty result for an id no
 * lead has, and the Asset API's by-id reads answer the warning "No assets found for the given search
 * criteria." (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/leads#by-id,
 * .../rest/assets/programs#by-id; agent trial s4, T10 and T20: "0 records read" left it to be inferred).
 */
function missingWords(input: MarketoApiCallInput, data: MarketoApiCallOutput): string | undefined {
  if (input.method !== "GET" || data.result.length > 0) return undefined;
  const lead = LEAD_BY_ID.exec(input.endpoint);
  if (lead) {
    return (
      `no lead has id ${lead[1]} in this instance (never created, deleted, or merged into another lead): ` +
      "GET /rest/v1/activities/deletedleads.json lists deleted leads by leadId"
    );
  }
  const filtered = filterWords(input, data) ?? membershipWords(input, data);
  if (filtered) return filtered;
  const asset = ASSET_BY_ID.exec(input.endpoint);
  if (!asset || !data.warnings.some((warning) => /no assets found/i.test(warning))) return undefined;
  const [, type = "", id] = asset;
  // A folder's contents: an empty folder or program answers as a missing one does (trial s24, N315: "folder 1030
  // does not exist" of a program that had no assets).
  if (type === "folder" && input.endpoint.endsWith("/content.json")) {
    const program = input.query_parameters?.type === "Program";
    const what = program ? `program ${id}` : `folder ${id}`;
    const read = program ? `/rest/asset/v1/program/${id}.json` : `/rest/asset/v1/folder/${id}.json`;
    return `${what} holds no assets, or does not exist (Marketo answers both alike): GET ${read} tells which`;
  }
  // Asked for one version ("status": approved or draft), none is an answer about that version only: an email
  // that is only a draft has no approved one (trial s22, N261: "does not exist" sent the agent to the list).
  const status = input.query_parameters?.status;
  if (status === "approved" || status === "draft") {
    const other = status === "approved" ? "draft" : "approved";
    return (
      `${type} ${id} has no ${status} version, or does not exist (Marketo found no asset with that id and status ` +
      `${status}): ask again with status ${other}, or without status, for its other version`
    );
  }
  const list = ASSET_LISTS[type];
  return `${type} ${id} does not exist in this instance (Marketo found no asset with that id)${list ? `: ${list} lists those there are` : ""}`;
}

/**
 * A filtered read (filterType and filterValues: Get Leads by Filter Type, Get Program Members,
 * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/program-members)
 * that found nothing, read to its end: which filter found nothing, so "0 records read" is not left to be read
 * as a wrong filter or field (trial s15, N130: two more calls to make sure).
 */
function filterWords(input: MarketoApiCallInput, data: MarketoApiCallOutput): string | undefined {
  const query = input.query_parameters ?? {};
  const type = query.filterType;
  const values = query.filterValues;
  // Leads by filter say theirs after the summary, with how the filter matches (lead-filter words).
  if (input.endpoint.startsWith("/rest/v1/leads.json")) return undefined;
  if (typeof type !== "string" || values === undefined || data.next_cursor) return undefined;
  const shown = String(values).slice(0, 120);
  return `no record here has ${type} ${shown} (the filter was applied: filterType ${type}, filterValues ${shown})`;
}

/**
 * A lead's memberships read to their end with none: Get Lists, Programs or Smart Campaigns by Lead Id
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/leads). "0 records
 * read" left an agent unsure whether the lead was on no list, and it checked list by list (trial s17, N161).
 */
const MEMBERSHIP =
  /^\/rest\/v1\/leads\/(\d+)\/(listMembership|programMembership|smartCampaignMembership)\.json/;
const MEMBERSHIP_WORDS: Readonly<Record<string, string>> = {
  listMembership: "is on no static list",
  programMembership: "is a member of no program",
  smartCampaignMembership: "is in no smart campaign",
};

function membershipWords(input: MarketoApiCallInput, data: MarketoApiCallOutput): string | undefined {
  const match = MEMBERSHIP.exec(input.endpoint);
  if (!match || data.next_cursor) return undefined;
  return `lead ${match[1]} ${MEMBERSHIP_WORDS[match[2] ?? ""] ?? "has none"} (Marketo lists none for it)`;
}

/** What max_items kept of a read without paginate, and how to have all of it (trial s9, N52). */
function plainCutWords(cut: PlainCut): string {
  return (
    `max_items ${count(cut.kept)} kept the first ${count(cut.kept)} of the ${plural(cut.of, "record")} Marketo's page ` +
    `returned (max_items caps records read, not the results wanted): leave max_items out to get all ${count(cut.of)}` +
    (cut.more ? ", and give paginate true for the pages after it" : "")
  );
}

/** The summary of a read: one consistent account of what was read, what is shown and where the rest is. */
export function summarize(
  input: MarketoApiCallInput,
  data: MarketoApiCallOutput,
  counts: ReadCounts,
  described: string | undefined,
  file: boolean,
): string {
  const write = file ? undefined : writeSummary(input, data);
  if (write) return write;
  const { method, endpoint } = input;
  const unit = file ? "row" : "record";
  const pages = plural(data.pages, file ? "range request" : "page");
  const parts = [
    described && !file
      ? `${method} ${endpoint}: ${described}`
      : `${method} ${endpoint}: ${plural(counts.read, unit)} read${described ? ` (${described})` : ""} in ${pages}, ${plural(data.calls_used, "call")}`,
  ];
  if (counts.cut) parts.push(plainCutWords(counts.cut));
  if (counts.shown < counts.read) {
    parts.push(
      `the first ${count(counts.shown)} are shown here (the answer is capped by size)` +
        (counts.kept ? `; all ${count(counts.read)} are in the full result linked below` : ""),
    );
  } else if (counts.kept && counts.read > 0) {
    parts.push(`all ${count(counts.read)} are shown here and in the full result linked below`);
  }
  if (data.record_errors.length > 0) parts.push(`${plural(data.record_errors.length, "record")} skipped`);
  const missing = missingWords(input, data);
  if (missing) parts.push(missing);
  if (data.next_cursor) {
    const again = "call again with cursor = next_cursor (same method, endpoint and query_parameters)";
    parts.push(
      counts.kept && counts.end
        ? `or, to read the rest in answers instead, ${again}`
        : `more remain: to continue after the ${unit}s shown, ${again}`,
    );
  }
  if (data.translated_from) parts.push(`translated from ${data.translated_from}`);
  return `${parts.join("; ")}.`;
}
