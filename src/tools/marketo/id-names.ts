/**
 * Names beside the ids count_by groups by: a count per campaignId gets campaignName, one per listId listName
 * (trial s19, N203 counted members per list by id), one per programId programName, read from Marketo in as few requests as it allows (ids batched) through the connector, so on
 * the same limits, quota and deadline as the read. A fresh agent counted Send Email per email and campaign in
 * one call and spent another on GET /rest/v1/campaigns.json?id=… for the names (trial 2026-12-03 s9, N45).
 * A name lookup that fails leaves the counts whole: the rows say the name was not read and the summary why.
 */
import type { CheckedPath } from "../../connectors/endpoint-guard.js";
import type { MarketoConnector } from "../../connectors/marketo/connector.js";
import type { OnWait } from "../../connectors/marketo/types.js";
import { checkMarketoPath } from "../../connectors/marketo/url.js";
import { isDeadlineReason } from "../../deadline.js";
import { isMartechError } from "../../errors.js";
import { n, plural } from "../numbers-in-words.js";
import type { RecordCompute } from "../records/compute.js";
import { SET_JOIN } from "../records/per.js";
import { isEmpty, textOf } from "../records/values.js";

/** The row's name of an id Marketo answered without (deleted, or outside the API user's workspaces). */
export const NOT_FOUND = "(not found)";
/** The row's name of an id whose lookup failed or was not made (the summary says why). */
export const NOT_READ = "(name not read)";
/** The most requests one count spends on one field's names: past it, the names are not read (and that is said). */
export const MAX_NAME_REQUESTS = 5;

export interface NameReader {
  marketo: MarketoConnector;
  signal?: AbortSignal | undefined;
  onWait: OnWait;
}

/** An id field whose name Marketo gives, and the read that gives many at once. */
interface IdKind {
  field: string;
  column: string;
  what: string;
  endpoint: string;
  path: CheckedPath;
  /** Ids per request: the most the endpoint answers in one page. */
  batch: number;
  query: (ids: readonly string[]) => Record<string, string>;
}

const KINDS: readonly IdKind[] = [
  {
    field: "campaignId",
    column: "campaignName",
    what: "smart campaign",
    // Get Campaigns (getCampaignsUsingGET in Adobe's swagger-mapi.json): `id` a comma-separated list, up to
    // batchSize (at most 300) records a page;
    // https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/smart-campaigns
    endpoint: "/rest/v1/campaigns.json",
    path: checkMarketoPath("/rest/v1/campaigns.json"),
    batch: 300,
    query: (ids) => ({ id: ids.join(","), batchSize: "300" }),
  },
  {
    field: "listId",
    column: "listName",
    what: "static list",
    // Get Lists (getListsUsingGET in Adobe's swagger-mapi.json): `id` a comma-separated list, batchSize at most
    // 300 (its default); https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/static-lists
    endpoint: "/rest/v1/lists.json",
    path: checkMarketoPath("/rest/v1/lists.json"),
    batch: 300,
    query: (ids) => ({ id: ids.join(","), batchSize: "300" }),
  },
  {
    field: "programId",
    column: "programName",
    what: "program",
    // Get Programs (browseProgramsUsingGET in Adobe's swagger-asset.json): filterType "id" with comma-separated
    // filterValues, up to maxReturn (at most 200) a page;
    // https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/programs
    endpoint: "/rest/asset/v1/programs.json",
    path: checkMarketoPath("/rest/asset/v1/programs.json"),
    batch: 200,
    query: (ids) => ({ filterType: "id", filterValues: ids.join(","), maxReturn: "200" }),
  },
];

/** What one field's names came to: the summary's words read it, calls_used adds its calls. */
export interface IdNames {
  field: string;
  column: string;
  what: string;
  endpoint: string;
  /** Distinct ids counted. */
  ids: number;
  calls: number;
  /** Ids Marketo answered without. */
  missing: string[];
  /** Ids whose names were not read, and why. */
  unread?: { ids: string[]; reason: string };
}

/** The calls the names took, which the answer's calls_used counts. */
export const namesCalls = (all: readonly IdNames[] | undefined): number =>
  (all ?? []).reduce((sum, names) => sum + names.calls, 0);

const isId = (text: string) => /^\d{1,10}$/.test(text);

/**
 * The ids a counted value holds: one, or those a per row lists ("1001 + 1029", per "leadId,programId"), each
 * named (trial s34 N505: the joined text was looked up as one id, and 409 "programIds" were said to be missing).
 */
const idsIn = (text: string): string[] => {
  const parts = text.split(SET_JOIN);
  return parts.length > 1 && parts.every(isId) ? parts : [text];
};

/**
 * Reads the names of the ids count_by counted (a row field, not the columns' field, and not when the name is
 * counted itself) and adds each name column to the counts; undefined when there is nothing to name.
 */
export async function nameCounted(
  compute: RecordCompute,
  reader: NameReader,
): Promise<IdNames[] | undefined> {
  const countBy = compute.spec.countBy ?? [];
  const kinds = KINDS.filter((k) => countBy.includes(k.field) && !countBy.includes(k.column));
  const outcomes: IdNames[] = [];
  for (const kind of kinds) {
    const ids = [...new Set(compute.countedValues(kind.field).flatMap(idsIn))];
    // Only empty ids: the column still reads (empty), and nothing is asked of Marketo.
    if (ids.length === 0) {
      compute.label({ field: kind.field, column: kind.column, of: () => null });
      continue;
    }
    const { names, outcome } = await lookUp(kind, ids, reader);
    const answered = new Set(ids.filter((id) => !outcome.unread?.ids.includes(id)));
    compute.label({
      field: kind.field,
      column: kind.column,
      of: (value) => {
        if (isEmpty(value)) return null;
        const nameOf = (id: string) => names.get(id) ?? (answered.has(id) ? NOT_FOUND : NOT_READ);
        return idsIn(textOf(value)).map(nameOf).join(SET_JOIN);
      },
    });
    outcomes.push(outcome);
  }
  return outcomes.length > 0 ? outcomes : undefined;
}

/** The names of ids of one kind ("listId", "programId", "campaignId"), read as a count's are. */
export function lookUpNames(
  field: string,
  ids: readonly string[],
  reader: NameReader,
): Promise<{ names: Map<string, string>; outcome: IdNames }> | undefined {
  const kind = KINDS.find((k) => k.field === field);
  return kind ? lookUp(kind, ids, reader) : undefined;
}

async function lookUp(
  kind: IdKind,
  ids: readonly string[],
  reader: NameReader,
): Promise<{ names: Map<string, string>; outcome: IdNames }> {
  const { field, column, what, endpoint } = kind;
  const names = new Map<string, string>();
  const outcome: IdNames = { field, column, what, endpoint, ids: ids.length, calls: 0, missing: [] };
  const asked = ids.filter(isId);
  const batches: string[][] = [];
  for (let i = 0; i < asked.length; i += kind.batch) batches.push(asked.slice(i, i + kind.batch));
  if (batches.length > MAX_NAME_REQUESTS) {
    const most = (MAX_NAME_REQUESTS * kind.batch).toLocaleString("en-US");
    outcome.unread = {
      ids: asked,
      reason: `not sent, a count names at most ${most} ${field}s (${MAX_NAME_REQUESTS} requests of ${kind.batch}); read them with it`,
    };
    return { names, outcome };
  }
  for (const [i, batch] of batches.entries()) {
    try {
      const answer = await reader.marketo.call({
        method: "GET",
        path: kind.path,
        query: kind.query(batch),
        ...(reader.signal ? { signal: reader.signal } : {}),
        onWait: reader.onWait,
      });
      outcome.calls += answer.callsUsed;
      for (const item of answer.result) {
        const { id, name } = (item ?? {}) as { id?: unknown; name?: unknown };
        if (id !== undefined && typeof name === "string") names.set(textOf(id), name);
      }
    } catch (error) {
      outcome.unread = { ids: batches.slice(i).flat(), reason: failure(error, reader.signal) };
      break;
    }
  }
  const unread = new Set(outcome.unread?.ids);
  outcome.missing = ids.filter((id) => !names.has(id) && !unread.has(id));
  return { names, outcome };
}

/** Why a lookup failed, from an error the connector typed (its message is scrubbed); anything else is a fault. */
function failure(error: unknown, signal: AbortSignal | undefined): string {
  if (isMartechError(error)) return error.message;
  if (signal?.aborted && isDeadlineReason(signal.reason)) return "the call's deadline came first";
  throw error;
}

const listed = (ids: readonly string[]) =>
  `${ids.slice(0, 20).join(", ")}${ids.length > 20 ? `, and ${n(ids.length - 20)} more` : ""}`;

/** The summary's words for the names: where they come from, which ids have none, and which were not read and why. */
export function idNamesWords(all: readonly IdNames[] | undefined): string[] {
  return (all ?? []).flatMap((names) => {
    const { field, column, what, endpoint } = names;
    const unread = names.unread?.ids ?? [];
    const parts =
      unread.length < names.ids
        ? [
            `${column} is each ${field}'s ${what} name from GET ${endpoint} (${plural(names.calls, "call")}, counted in calls_used)`,
          ]
        : [];
    if (names.missing.length > 0) {
      parts.push(
        `${plural(names.missing.length, field)} ${names.missing.length === 1 ? "has" : "have"} no ${what} there ` +
          `(deleted, or in a workspace this API user cannot see), ${column} "${NOT_FOUND}": ${listed(names.missing)}`,
      );
    }
    if (names.unread) {
      const reason = names.unread.reason.replace(/\.\s*$/, "");
      parts.push(
        `${column} not read for ${plural(unread.length, field)} (${listed(unread)}), which read "${NOT_READ}"; ` +
          `the counts are whole; GET ${endpoint} for their names failed: ${reason}`,
      );
    }
    return parts;
  });
}
