/**
 * where, order_by and count_by over records already joined in memory (the ids of a fan-out read, the activity
 * type groups of activity-groups.ts), and `per` (records/per.ts): the matching records rolled up to one row per
 * value of a field, over which count_by, order_by, sum and limit then run (this file's rolledUp, which a paged
 * read calls too: compute-read.ts).
 */
import type { MarketoApiCallInput } from "../../schemas/marketo.js";
import { n, plural } from "../numbers-in-words.js";
import { computeSpec, RecordCompute } from "../records/compute.js";
import { checkFields } from "../records/fields.js";
import { type PerGroups, SET_JOIN } from "../records/per.js";
import type { ToolContext } from "../types.js";
import { type Computed, computedAnswer } from "./compute-answer.js";
import { computedSummary } from "./compute-words.js";
import { type NameReader, nameCounted, namesCalls } from "./id-names.js";
import type { ReadAnswer, Shaped } from "./read-calls.js";

export interface ComputedParts {
  head: string;
  base: Omit<Shaped, "result" | "complete">;
  /** What was left unread, when something was. */
  cut: string | undefined;
  /** max_items stopped the read (ids not read, records cut). */
  itemsCut: boolean;
  /** What reads the names of the ids counted (id-names.ts). */
  reader: NameReader;
  /** With `per`: the matching records are rolled up into it, and its rows answered. */
  per?: PerGroups | undefined;
  /** The unit the answer's words count: "row" for per's rows. */
  unit?: "record" | "row";
  /** With per's rows: the records read, of which they are the rows. */
  from?: number;
}

/**
 * where, order_by and count_by over joined records (no cursor: the read is the ids given, or the activity type
 * groups of activity-groups.ts).
 */
export async function computedJoined(
  input: MarketoApiCallInput,
  ctx: ToolContext,
  compute: RecordCompute,
  records: Record<string, unknown>[],
  parts: ComputedParts,
): Promise<ReadAnswer> {
  if (parts.per) {
    for (const record of records) if (compute.see(record)) parts.per.add(record);
    return rolledUp(input, ctx, compute, parts.per, parts);
  }
  const kept = records.filter((record) => compute.see(record));
  const names = await nameCounted(compute, parts.reader);
  const computed: Computed = {
    compute,
    kept,
    positions: [],
    next: undefined,
    ...(parts.itemsCut ? { stoppedBy: "items" as const } : {}),
    pages: parts.base.pages,
    calls: parts.base.calls_used + namesCalls(names),
    unit: parts.unit ?? "record",
    ...(parts.from !== undefined ? { from: parts.from } : {}),
    ...(names ? { names } : {}),
  };
  const answer = computedAnswer(input, ctx, computed);
  const data: Shaped = {
    ...answer.data,
    ...parts.base,
    calls_used: answer.data.calls_used,
    complete: answer.data.complete && !parts.cut,
  };
  // A cut is said before the figures, which cover only what was read (trial s8, N35).
  const head = parts.cut
    ? `${parts.head}; ${parts.cut}; the figures below cover only the records read`
    : parts.head;
  return { ...answer, data, summary: computedSummary(input, computed, answer, head) };
}

/**
 * per's rows answered: `first` tested where over the records read (its fields are checked here), and count_by,
 * order_by, sum and limit run over the rows (their fields: the per field, records and types).
 */
export async function rolledUp(
  input: MarketoApiCallInput,
  ctx: ToolContext,
  first: RecordCompute,
  per: PerGroups,
  parts: ComputedParts,
): Promise<ReadAnswer> {
  first.check();
  // A field no record read has would make no row: refused with the fields they have, as where's are.
  checkFields([{ input: "per", field: per.field }], first.fields, first.read);
  const { where: _where, per: _per, ...rest } = input;
  const second: MarketoApiCallInput = rest;
  const spec = computeSpec(second, "") ?? {};
  const rows = per.rows();
  return computedJoined(second, ctx, new RecordCompute(spec), rows, {
    ...parts,
    per: undefined,
    unit: "row",
    from: first.read,
    head: `${parts.head}; ${perWords(input, first, per, parts.unit ?? "record")}`,
  });
}

function perWords(input: MarketoApiCallInput, first: RecordCompute, per: PerGroups, noun: string): string {
  const where = first.spec.where
    ? `where ${input.where}: ${n(first.matched)} of ${plural(first.read, noun)} match; `
    : "";
  const matching = first.spec.where ? "matching " : "";
  const without =
    per.without > 0
      ? `; ${plural(per.without, `${matching}${noun}`)} with no ${per.field} ${per.without === 1 ? "is" : "are"} in none`
      : "";
  const types = per.listsTypes ? `, and types (the activity types it has, joined by "${SET_JOIN}")` : "";
  return (
    `${where}per ${per.field}: ${plural(per.size, "row")}, one per ${per.field}, each with records ` +
    `(how many of the ${n(per.added)} ${matching}${noun}s have it)${types}${without}`
  );
}
