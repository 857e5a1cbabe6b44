/**
 * A write's answer of many records: Marketo answers one status per id ("added", "updated"), and an agent
 * that added 426 leads to a list read 426 lines of "added" (trial s19, N204: 5,180 characters of statuses
 * for one call). The answer lists the records whose status is not the most common one (the exceptions, a
 * skipped id with its reasons); every status, in input order, is kept and linked beside it. A client that
 * keeps no whole result (the CLI) gets every status as before.
 */
import type { MarketoApiCallInput, MarketoApiCallOutput } from "../../schemas/marketo.js";
import { n, plural } from "../numbers-in-words.js";
import type { FullResult, ToolContext } from "../types.js";

/** More results than this are answered as their exceptions. */
export const WRITE_LISTED = 25;

const statusOf = (record: Readonly<Record<string, unknown>>) =>
  typeof record.status === "string" ? record.status : undefined;

/** The status most records have, when there is one. */
function usualStatus(result: readonly Record<string, unknown>[]): string | undefined {
  const counts = new Map<string, number>();
  for (const record of result) {
    const status = statusOf(record);
    if (status) counts.set(status, (counts.get(status) ?? 0) + 1);
  }
  let usual: [string, number] | undefined;
  for (const entry of counts) if (!usual || entry[1] > usual[1]) usual = entry;
  return usual?.[0];
}

/** Whether the call writes (a POST or DELETE that is not a read sent as POST). */
export function writes(input: MarketoApiCallInput): boolean {
  return input.method !== "GET" && input.query_parameters?._method !== "GET" && !input.run_to_completion;
}

/**
 * The answer with only its exceptions listed, the whole kept, and the words that say so; unchanged when
 * it is short, read, not kept by this client, or has no status most records share.
 */
export function compactWrite<T extends MarketoApiCallOutput>(
  input: MarketoApiCallInput,
  answer: { data: T; full?: FullResult | undefined },
  ctx: ToolContext,
): { data: T; full?: FullResult; words?: string } {
  const { data, full } = answer;
  // An answer capped by size keeps its whole result already: the statuses are those.
  const all = (full?.items ?? data.result) as Record<string, unknown>[];
  const unchanged = { data, ...(full ? { full } : {}) };
  if (!writes(input) || !ctx.fullResults || all.length <= WRITE_LISTED) return unchanged;
  const usual = usualStatus(all);
  if (usual === undefined) return unchanged;
  const others = all.filter((record) => statusOf(record) !== usual);
  const whole = all.length;
  const listed =
    others.length === 0
      ? `Every one is "${usual}", so none is listed here`
      : `The result lists the ${plural(others.length, "record")} whose status is not "${usual}"`;
  return {
    data: { ...data, result: others },
    full: { kind: "statuses", items: all },
    words: `${listed}; all ${n(whole)} statuses, in input order, are in the full result linked below.`,
  };
}
