/**
 * An exact-name lookup that finds nothing names the nearest existing names. Marketo answers a name that
 * matches no record with an empty result (Lead DB: Get Lists / Get Campaigns `name`; Asset API: the
 * byName.json reads answer "No assets found for the given search criteria", warning 702,
 * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/assets-api), which an agent
 * reads as "there is none" when a capital letter or a word was off. One more call reads one page of all the
 * names (at most the API's page size), ranked by closeness as the other did-you-mean answers are.
 */
import type { MarketoConnector } from "../../connectors/marketo/connector.js";
import type { MarketoApiCallInput } from "../../schemas/marketo.js";
import { plural } from "../numbers-in-words.js";
import { alikeFirst, sharingAWord } from "../records/similar-names.js";

interface Lookup {
  /** What the records are, for the words. */
  what: string;
  /** One of them. */
  one: string;
  /** The read of all of them, one page. */
  path: string;
  query: Record<string, number>;
}

/** Lead DB pages hold at most 300 records, Asset API pages 200 (maxReturn). */
const LOOKUPS: Readonly<Record<string, Lookup>> = {
  "/rest/v1/lists.json": {
    what: "static lists",
    one: "static list",
    path: "/rest/v1/lists.json",
    query: { batchSize: 300 },
  },
  "/rest/v1/campaigns.json": {
    what: "smart campaigns",
    one: "smart campaign",
    path: "/rest/v1/campaigns.json",
    query: { batchSize: 300 },
  },
  "/rest/asset/v1/smartCampaign/byName.json": {
    what: "smart campaigns",
    one: "smart campaign",
    path: "/rest/asset/v1/smartCampaigns.json",
    query: { maxReturn: 200 },
  },
  "/rest/asset/v1/staticList/byName.json": {
    what: "static lists",
    one: "static list",
    path: "/rest/asset/v1/staticLists.json",
    query: { maxReturn: 200 },
  },
  "/rest/asset/v1/smartList/byName.json": {
    what: "smart lists",
    one: "smart list",
    path: "/rest/asset/v1/smartLists.json",
    query: { maxReturn: 200 },
  },
  "/rest/asset/v1/program/byName.json": {
    what: "programs",
    one: "program",
    path: "/rest/asset/v1/programs.json",
    query: { maxReturn: 200 },
  },
  "/rest/asset/v1/email/byName.json": {
    what: "emails",
    one: "email",
    path: "/rest/asset/v1/emails.json",
    query: { maxReturn: 200 },
  },
  "/rest/asset/v1/emailTemplate/byName.json": {
    what: "email templates",
    one: "email template",
    path: "/rest/asset/v1/emailTemplates.json",
    query: { maxReturn: 200 },
  },
  "/rest/asset/v1/landingPage/byName.json": {
    what: "landing pages",
    one: "landing page",
    path: "/rest/asset/v1/landingPages.json",
    query: { maxReturn: 200 },
  },
  "/rest/asset/v1/form/byName.json": {
    what: "forms",
    one: "form",
    path: "/rest/asset/v1/forms.json",
    query: { maxReturn: 200 },
  },
};

const NEAREST = 5;
/** Names listed when none is alike: the agent picks one or reads them all with the call named. */
const LISTED = 20;

/** The names asked for when the call is a by-name lookup with a name; else undefined. */
function askedNames(input: MarketoApiCallInput): { names: string[]; lookup: Lookup } | undefined {
  // With where or count_by an empty answer may be the filter's doing, not the name's.
  const computed = input.where !== undefined || input.count_by !== undefined;
  const lookup = input.method === "GET" && !computed ? LOOKUPS[input.endpoint] : undefined;
  const raw = input.query_parameters?.name;
  if (!lookup || raw === undefined || raw === null) return undefined;
  const names = (Array.isArray(raw) ? raw : [raw])
    .flatMap((value) => String(value).split(","))
    .map((name) => name.trim())
    .filter(Boolean);
  return names.length > 0 ? { names, lookup } : undefined;
}

/**
 * The sentence added to an empty by-name answer: the nearest names of one page of all records, or that
 * none exist; undefined when the call is no such lookup or found something.
 */
export async function nearNames(
  marketo: MarketoConnector,
  input: MarketoApiCallInput,
  found: number,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  const asked = found === 0 ? askedNames(input) : undefined;
  if (!asked) return undefined;
  const { names, lookup } = asked;
  const quoted = names.map((name) => `"${name}"`).join(", ");
  let all: Map<string, unknown[]>;
  let more: boolean;
  try {
    const page = await marketo.request({
      method: "GET",
      path: lookup.path,
      query: lookup.query,
      ...(signal ? { signal } : {}),
    });
    all = idsByName(page.result);
    more = page.nextPageToken !== undefined || page.moreResult === true;
  } catch {
    return `No record is named exactly ${quoted}; GET ${lookup.path} lists the ${lookup.what} to pick a name from.`;
  }
  const read = `${all.size}${more ? " (the first page)" : ""} ${lookup.what} read with 1 more call`;
  if (all.size === 0)
    return `No record is named exactly ${quoted}, and there are no ${lookup.what} (${read}).`;
  const nearest = [...new Set(names.flatMap((name) => alikeFirst(name, [...all.keys()]).slice(0, NEAREST)))];
  // Each name with its id, so the agent reads or changes the record with no lookup by the name again.
  const withIds = (list: readonly string[]) =>
    list.map((name) => `"${name}" (${idWords(all.get(name) ?? [])})`);
  if (nearest.length === 0) {
    // Those sharing a word first: "no name shares its words" was untrue when six shared "Webinar" (trial s10, N67).
    const sharing = [...new Set(names.flatMap((name) => sharingAWord(name, [...all.keys()])))];
    const order = [...sharing, ...[...all.keys()].filter((name) => !sharing.includes(name))];
    const listed = withIds(order.slice(0, LISTED)).join(", ");
    const rest = all.size > LISTED || more ? `; GET ${lookup.path} lists them all` : "";
    const why =
      sharing.length > 0
        ? `none is spelled like it or shares a third of its words; the ${plural(sharing.length, "name")} sharing a word come first`
        : "no name shares a word with it or is spelled like it";
    return `No ${lookup.one} is named like ${quoted} (${why}); the ${read}: ${listed}${rest}.`;
  }
  return (
    `No record is named exactly ${quoted} (the name must match exactly); the nearest names of the ${read}, ` +
    `with their ids: ${withIds(nearest).join(", ")}.`
  );
}

/** The ids of each name, in the order read (two records may share a name). */
function idsByName(records: readonly unknown[]): Map<string, unknown[]> {
  const byName = new Map<string, unknown[]>();
  for (const record of records) {
    const { name, id } = (record ?? {}) as { name?: unknown; id?: unknown };
    if (typeof name !== "string") continue;
    const ids = byName.get(name) ?? [];
    if (id !== undefined && id !== null) ids.push(id);
    byName.set(name, ids);
  }
  return byName;
}

function idWords(ids: readonly unknown[]): string {
  if (ids.length === 0) return "no id";
  return `${ids.length === 1 ? "id" : "ids"} ${ids.map(String).join(", ")}`;
}

/**
 * Get Leads by Filter Type compares each filterValues item with the whole field value: "acme.com" finds no
 * lead whose email is someone@acme.com (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/leads,
 * "Query": the values are the field values to look up). An empty answer says so, and how to match a part.
 */
export function exactFilterWords(input: MarketoApiCallInput, found: number): string | undefined {
  const query = input.query_parameters;
  const type = query?.filterType;
  const computed = input.where !== undefined || input.count_by !== undefined;
  if (found > 0 || computed || input.method !== "GET" || input.endpoint !== "/rest/v1/leads.json")
    return undefined;
  if (typeof type !== "string" || type === "") return undefined;
  // An id is a whole number: no part of one to match (review s31, finding 5: fields "id","id", where id contains).
  if (/^id$/i.test(type)) return undefined;
  const values = String(query?.filterValues ?? "")
    .split(",")
    .map((value) => value.trim())
    .filter(Boolean);
  const part = JSON.stringify(values[0] ?? "…");
  return (
    `filterType ${type} matches whole values exactly (no part, no wildcard): no lead's ${type} is exactly ` +
    `${values.map((value) => JSON.stringify(value)).join(" or ") || "the value given"}. To match a part, export the leads ` +
    `and filter them: POST /bulk/v1/leads/export/create.json with run_to_completion, body {"fields":["id","${type}"],` +
    `"format":"CSV","filter":{"createdAt":{"startAt":"<from>","endAt":"<to>"}}} and where ${type} contains ${part}.`
  );
}
