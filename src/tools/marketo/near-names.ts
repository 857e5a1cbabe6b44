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
import { closestFirst } from "../records/fields.js";

interface Lookup {
  /** What the records are, for the words. */
  what: string;
  /** The read of all of them, one page. */
  path: string;
  query: Record<string, number>;
}

/** Lead DB pages hold at most 300 records, Asset API pages 200 (maxReturn). */
const LOOKUPS: Readonly<Record<string, Lookup>> = {
  "/rest/v1/lists.json": { what: "static lists", path: "/rest/v1/lists.json", query: { batchSize: 300 } },
  "/rest/v1/campaigns.json": {
    what: "smart campaigns",
    path: "/rest/v1/campaigns.json",
    query: { batchSize: 300 },
  },
  "/rest/asset/v1/smartCampaign/byName.json": {
    what: "smart campaigns",
    path: "/rest/asset/v1/smartCampaigns.json",
    query: { maxReturn: 200 },
  },
  "/rest/asset/v1/staticList/byName.json": {
    what: "static lists",
    path: "/rest/asset/v1/staticLists.json",
    query: { maxReturn: 200 },
  },
  "/rest/asset/v1/smartList/byName.json": {
    what: "smart lists",
    path: "/rest/asset/v1/smartLists.json",
    query: { maxReturn: 200 },
  },
  "/rest/asset/v1/program/byName.json": {
    what: "programs",
    path: "/rest/asset/v1/programs.json",
    query: { maxReturn: 200 },
  },
};

const NEAREST = 5;

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
  let all: string[];
  let more: boolean;
  try {
    const page = await marketo.request({
      method: "GET",
      path: lookup.path,
      query: lookup.query,
      ...(signal ? { signal } : {}),
    });
    all = page.result.flatMap((record) => {
      const name = (record as { name?: unknown } | null)?.name;
      return typeof name === "string" ? [name] : [];
    });
    more = page.nextPageToken !== undefined || page.moreResult === true;
  } catch {
    return `No record is named exactly ${quoted}; GET ${lookup.path} lists the ${lookup.what} to pick a name from.`;
  }
  const read = `${all.length}${more ? " (the first page)" : ""} ${lookup.what} read with 1 more call`;
  if (all.length === 0)
    return `No record is named exactly ${quoted}, and there are no ${lookup.what} (${read}).`;
  const nearest = [...new Set(names.flatMap((name) => closestFirst(name, all).slice(0, NEAREST)))];
  return (
    `No record is named exactly ${quoted} (the name must match exactly); the nearest names of the ${read}: ` +
    `${nearest.map((name) => `"${name}"`).join(", ")}.`
  );
}
