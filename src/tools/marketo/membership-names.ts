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
import { idNamesWords, lookUpNames, type NameReader, NOT_FOUND, NOT_READ } from "./id-names.js";
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

/**
 * The answer of a membership read with each id's name beside it, the calls the names took counted, and the
 * words that say where the names come from; any other answer as it is.
 */
export async function nameMemberships(
  input: MarketoApiCallInput,
  path: string,
  answer: ReadAnswer,
  reader: NameReader,
): Promise<ReadAnswer> {
  const membership = MEMBERSHIPS.find((m) => m.path.test(path));
  if (input.method !== "GET" || !membership) return answer;
  const { field, kind, column } = membership;
  const records = [...rowsOf(answer.data.result), ...rowsOf(answer.full?.items)];
  const ids = [
    ...new Set(
      records.flatMap((r) => (r[field] === undefined || r[field] === null ? [] : [String(r[field])])),
    ),
  ];
  if (ids.length === 0) return answer;
  const looked = await lookUpNames(kind, ids, reader);
  if (!looked) return answer;
  const { names, outcome } = looked;
  const unread = new Set(outcome.unread?.ids);
  const name = (value: unknown) => {
    if (value === undefined || value === null) return null;
    const id = String(value);
    return names.get(id) ?? (unread.has(id) ? NOT_READ : NOT_FOUND);
  };
  const label = (items: readonly unknown[]) =>
    items.map((item) =>
      typeof item === "object" && item !== null && !Array.isArray(item)
        ? beside(item as Row, field, column, name((item as Row)[field]))
        : item,
    );
  const full: FullResult | undefined = answer.full
    ? { ...answer.full, items: label(answer.full.items) }
    : undefined;
  return {
    ...answer,
    data: {
      ...answer.data,
      result: label(answer.data.result) as Row[],
      calls_used: answer.data.calls_used + outcome.calls,
    },
    ...(full ? { full } : {}),
    notes: [...(answer.notes ?? []), ...idNamesWords([{ ...outcome, field }])],
  };
}
