/**
 * A write's answer of many records: Marketo answers one status per id ("added", "updated"), and an agent
 * that added 426 leads to a list read 426 lines of "added" (trial s19, N204: 5,180 characters of statuses
 * for one call). The answer lists each record once, and only the exceptions: the result holds the records
 * whose status is not the most common one and that Marketo did not skip, each with its input index (an
 * upsert's results match their input only by position); record_errors holds the skipped, with reasons, as
 * always. Every status, in input order, is kept and linked beside it. On a tie the status of records not
 * skipped is the common one. Only an answer that echoes the ids sent (a list add or removal, a status change:
 * each record's id is its input's) is listed by its exceptions: an upsert's ids are news to the caller, and
 * its answer is shown whole, or, larger than an answer holds, its first statuses with the whole linked. A
 * client that keeps no whole result (the CLI) gets every status: a write's answer is never cut by size
 * before this (read-calls.ts), so the summary counts every status too.
 */
import type { MarketoApiCallInput, MarketoApiCallOutput } from "../../schemas/marketo.js";
import { n, plural } from "../numbers-in-words.js";
import { capItems, MAX_RESULT_BYTES } from "../output-cap.js";
import type { FullResult, ToolContext } from "../types.js";

/** More results than this are answered as their exceptions. */
export const WRITE_LISTED = 25;

type Row = Record<string, unknown>;

const statusOf = (record: Readonly<Row>) => (typeof record.status === "string" ? record.status : undefined);

/** The status most records have; on a tie, one of a record Marketo did not skip. */
function usualStatus(result: readonly Row[], skipped: ReadonlySet<number>): string | undefined {
  const counts = new Map<string, { count: number; kept: boolean }>();
  result.forEach((record, index) => {
    const status = statusOf(record);
    if (!status) return;
    const seen = counts.get(status) ?? { count: 0, kept: false };
    counts.set(status, { count: seen.count + 1, kept: seen.kept || !skipped.has(index) });
  });
  let usual: [string, { count: number; kept: boolean }] | undefined;
  for (const entry of counts) {
    const better =
      !usual ||
      entry[1].count > usual[1].count ||
      (entry[1].count === usual[1].count && entry[1].kept && !usual[1].kept);
    if (better) usual = entry;
  }
  return usual?.[0];
}

/**
 * The ids the call sent, by input position: body.input[i].id, or the query's id list (a list add or removal by
 * query, POST or DELETE, an array or "1, 2, 3"), read as list-split.ts reads it (review s23, finding 2).
 */
function sentIds(input: MarketoApiCallInput): unknown[] | undefined {
  const items = (input.body as { input?: unknown } | undefined)?.input;
  if (Array.isArray(items)) return items.map((item) => (item as { id?: unknown } | null)?.id);
  const query = input.query_parameters?.id;
  if (query === undefined) return undefined;
  return Array.isArray(query)
    ? query
    : String(query)
        .split(",")
        .map((id) => id.trim());
}

/** Whether every record's id (when it has one) is the id sent at its position. */
function echoesIds(input: MarketoApiCallInput, result: readonly Row[]): boolean {
  const sent = sentIds(input);
  if (!sent || sent.length !== result.length) return false;
  return result.every((record, i) => record.id === undefined || String(record.id) === String(sent[i]));
}

/** Whether the call writes: a POST or DELETE, not an export run to completion (which reads its file). */
export function writes(input: MarketoApiCallInput): boolean {
  return input.method !== "GET" && !input.run_to_completion;
}

/**
 * The answer with each record listed once and only its exceptions, the whole kept, and the words that say
 * so; unchanged when it is short, not a write, not kept by this client, or has no status most records share.
 */
export function compactWrite<T extends MarketoApiCallOutput>(
  input: MarketoApiCallInput,
  answer: { data: T; full?: FullResult | undefined },
  ctx: ToolContext,
): { data: T; full?: FullResult; words?: string } {
  const { data, full } = answer;
  const all = data.result;
  const unchanged = { data, ...(full ? { full } : {}) };
  if (!writes(input) || !ctx.fullResults || all.length <= WRITE_LISTED) return unchanged;
  if (!echoesIds(input, all)) return cutWrite(data);
  const skipped = new Set(data.record_errors.map((error) => error.index));
  const usual = usualStatus(all, skipped);
  if (usual === undefined) return cutWrite(data);
  const others = all.flatMap((record, index) =>
    statusOf(record) === usual || skipped.has(index) ? [] : [{ index, ...record }],
  );
  // Half the answer each, so that neither list crowds out the other.
  const listed = capItems(others, MAX_RESULT_BYTES / 2, true).items;
  const errors = capItems(data.record_errors, MAX_RESULT_BYTES / 2, true).items;
  return {
    data: { ...data, result: listed, record_errors: errors },
    full: { kind: "statuses", items: all },
    words: compactWords({
      usual,
      whole: all.length,
      others: others.length,
      listed: listed.length,
      skipped: skipped.size,
      errors: errors.length,
    }),
  };
}

/** An answer whose records are news (an upsert's ids): whole, or its first records with the whole linked. */
function cutWrite<T extends MarketoApiCallOutput>(data: T): { data: T; full?: FullResult; words?: string } {
  const { items, dropped } = capItems(data.result, MAX_RESULT_BYTES / 2, true);
  const errors = capItems(data.record_errors, MAX_RESULT_BYTES / 2, true).items;
  if (dropped === 0 && errors.length === data.record_errors.length) return { data };
  const whole = data.result.length;
  const cut = errors.length < data.record_errors.length;
  return {
    data: { ...data, result: items, record_errors: errors },
    full: { kind: "statuses", items: data.result },
    words: `The answer is capped by size: ${[
      ...(dropped > 0 ? [`the first ${n(items.length)} of the ${n(whole)} statuses are shown here`] : []),
      ...(cut
        ? [
            `record_errors shows the first ${n(errors.length)} of the ${n(data.record_errors.length)} skipped records`,
          ]
        : []),
    ].join("; ")}; all ${n(whole)} statuses, in input order, are in the full result linked below.`,
  };
}

function compactWords(o: {
  usual: string;
  whole: number;
  others: number;
  listed: number;
  skipped: number;
  errors: number;
}): string {
  const some = (k: number, of: number, what: string) =>
    k < of ? `the first ${n(k)} of the ${n(of)} ${what}` : `the ${plural(of, what.replace(/s$/, ""))}`;
  const notSkipped =
    o.usual === "skipped" ? "not skipped" : `whose status is not "${o.usual}" and that were not skipped`;
  const result =
    o.others > 0
      ? `The result lists ${some(o.listed, o.others, "records")} ${notSkipped}, each with its input index`
      : o.skipped === o.whole
        ? "The result lists none: every record was skipped (record_errors)"
        : o.skipped === 0
          ? `The result lists none: every record is "${o.usual}"`
          : `The result lists none: every record not in record_errors is "${o.usual}"`;
  const errors =
    o.errors < o.skipped
      ? `; record_errors shows ${some(o.errors, o.skipped, "skipped records")}, with reasons`
      : "";
  return `${result}${errors}; all ${n(o.whole)} statuses, in input order, are in the full result linked below.`;
}
