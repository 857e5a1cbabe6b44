/**
 * A lead's memberships with names. Marketo answers a lead's static lists, programs and smart campaigns by id
 * only: Get Lists by Lead Id gives `listId`, Get Programs by Lead Id the program's `id`, Get Smart Campaigns by
 * Lead Id `smartCampaignId` (definitions List, Program and SmartCampaign of Adobe's swagger-mapi.json;
 * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/leads), and "which
 * lists is she on" then cost an agent a second call and a join by hand. The step reads the names in the same
 * call (id-names.ts: batched, on the same limits and quota) and puts each beside its id, in the answer and in
 * what it keeps; a name Marketo does not answer reads "(not found)", a lookup that fails leaves the records
 * whole and the summary says why.
 */
import type { MarketoApiCallInput } from "../../schemas/marketo.js";
import type { FullResult } from "../types.js";
import { type IdNames, idNamesWords, lookUpNames, type NameReader, NOT_FOUND, NOT_READ } from "./id-names.js";
import type { ReadAnswer } from "./read-calls.js";

/** Each membership read: its path, the field its records hold the id in, the kind of id and the name's column. */
const MEMBERSHIPS = [
  {
    path: /^\/rest\/v1\/leads\/[^/]+\/listMembership\.json$/,
    field: "listId",
    kind: "listId",
    column: "listName",
  },
  {
    path: /^\/rest\/v1\/leads\/[^/]+\/programMembership\.json$/,
    field: "id",
    kind: "programId",
    column: "programName",
  },
  {
    path: /^\/rest\/v1\/leads\/[^/]+\/smartCampaignMembership\.json$/,
    field: "smartCampaignId",
    kind: "campaignId",
    column: "campaignName",
  },
] as const;

type Row = Record<string, unknown>;

/** The record with `column` right after `field` (unless it has that column already). */
function beside(record: Row, field: string, column: string, name: unknown): Row {
  if (!Object.hasOwn(record, field) || Object.hasOwn(record, column)) return record;
  const out: Row = {};
  for (const [key, value] of Object.entries(record)) {
    out[key] = value;
    if (key === field) out[column] = name;
  }
  return out;
}

const rowsOf = (items: readonly unknown[] | undefined): Row[] =>
  (items ?? []).filter(
    (item): item is Row => typeof item === "object" && item !== null && !Array.isArray(item),
  );

/** Names membership records as they are read, each id looked up once (pages share the lookups). */
export interface Labeler {
  /** The column it adds: listName, programName or campaignName. */
  column: string;
  /** The records, each with its name beside its id (looking up the ids not seen before). */
  label(records: readonly Row[]): Promise<Row[]>;
  /** Calls the lookups took. */
  calls: number;
  /** Where the names came from, and which could not be read. */
  words(): string[];
}

/** The labeler of a membership read, or undefined for any other call. */
export function membershipLabeler(
  input: MarketoApiCallInput,
  path: string,
  reader: NameReader,
): Labeler | undefined {
  const membership = MEMBERSHIPS.find((m) => m.path.test(path));
  if (input.method !== "GET" || !membership) return undefined;
  const { field, kind, column } = membership;
  const names = new Map<string, string>();
  const asked = new Set<string>();
  const unread = new Set<string>();
  let outcome: IdNames | undefined;
  const name = (value: unknown) => {
    if (value === undefined || value === null) return null;
    const id = String(value);
    return names.get(id) ?? (unread.has(id) ? NOT_READ : NOT_FOUND);
  };
  const labeler: Labeler = {
    column,
    calls: 0,
    async label(records) {
      // Records named already (count_by listId's rows, id-names.ts) are not looked up again.
      const unnamed = records.filter(
        (r) => !Object.hasOwn(r, column) && r[field] !== undefined && r[field] !== null,
      );
      const fresh = [...new Set(unnamed.map((r) => String(r[field])))];
      const ids = fresh.filter((id) => !asked.has(id));
      const looked = ids.length > 0 ? await lookUpNames(kind, ids, reader) : undefined;
      if (looked) {
        for (const id of ids) asked.add(id);
        for (const [id, text] of looked.names) names.set(id, text);
        for (const id of looked.outcome.unread?.ids ?? []) unread.add(id);
        labeler.calls += looked.outcome.calls;
        outcome = merged(outcome, { ...looked.outcome, field });
      }
      return records.map((record) => beside(record, field, column, name(record[field])));
    },
    words: () => (outcome ? idNamesWords([outcome]) : []),
  };
  return labeler;
}

/** Two lookups' outcomes as one (a read's pages each looked up the ids they brought). */
function merged(a: IdNames | undefined, b: IdNames): IdNames {
  if (!a) return b;
  const unread = [...(a.unread?.ids ?? []), ...(b.unread?.ids ?? [])];
  return {
    ...a,
    ids: a.ids + b.ids,
    calls: a.calls + b.calls,
    missing: [...a.missing, ...b.missing],
    ...(unread.length > 0
      ? { unread: { ids: unread, reason: b.unread?.reason ?? a.unread?.reason ?? "" } }
      : {}),
  };
}

/**
 * The answer of a membership read with each id's name beside it (unless the reader named them already), the
 * calls the names took counted, and the words that say where the names come from; any other answer as it is.
 */
export async function nameMemberships(answer: ReadAnswer, labeler: Labeler | undefined): Promise<ReadAnswer> {
  if (!labeler) return answer;
  const before = labeler.calls;
  // The whole first: its ids are all the answer's, so one batched lookup names both.
  const items = answer.full ? await labeler.label(rowsOf(answer.full.items)) : undefined;
  const result = await labeler.label(rowsOf(answer.data.result));
  const full: FullResult | undefined = answer.full && items ? { ...answer.full, items } : undefined;
  // keep_counted's records too, as the plain read's link has them (review s53, 7): ids seen above are not looked up again.
  const also: FullResult | undefined = answer.also
    ? { ...answer.also, items: await labeler.label(rowsOf(answer.also.items)) }
    : undefined;
  const words = labeler.words();
  return {
    ...answer,
    data: { ...answer.data, result, calls_used: answer.data.calls_used + labeler.calls - before },
    ...(full ? { full } : {}),
    ...(also ? { also } : {}),
    ...(words.length > 0 ? { notes: [...(answer.notes ?? []), ...words] } : {}),
  };
}
