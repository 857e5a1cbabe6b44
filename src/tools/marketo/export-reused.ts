/**
 * The answer of an export run to completion served from a recent run's kept rows (export-reuse.ts): the
 * call's own where/count_by/order_by and max_items over those rows, and a summary that says which export
 * it reused, when it finished, and how to get a fresh one instead.
 */
import { jsonBytes } from "../../json-size.js";
import type { MarketoApiCallInput } from "../../schemas/marketo.js";
import { n, plural } from "../numbers-in-words.js";
import { durationWords } from "../output-cap.js";
import type { RecordCompute } from "../records/compute.js";
import type { ToolContext } from "../types.js";
import { type Computed, computedAnswer } from "./compute-answer.js";
import { figureWords, readBeforeWords, shownWords } from "./compute-words.js";
import { type KeptExport, REUSE_MS } from "./export-reuse.js";
import { type NameReader, nameCounted, namesCalls } from "./id-names.js";
import type { ReadAnswer } from "./read-calls.js";

export interface Reuse {
  found: KeptExport;
  /** The columns the call asks for (its fields), in its order; every kept column when it gives none. */
  columns: string[];
  /** Columns read only for where/count_by/order_by or the join's key. */
  hidden: string[];
  compute: RecordCompute;
  maxBytes: number;
  /** What reads the names of the ids counted (id-names.ts): the calls the answer spends now. */
  reader: NameReader;
}

/** The kept rows through the call's where/count_by/order_by, max_items and file limit. */
function computeOver(input: MarketoApiCallInput, reuse: Reuse): Computed {
  const { compute, found } = reuse;
  const wanted = [...reuse.columns, ...reuse.hidden];
  compute.knowColumns(wanted);
  const kept: Record<string, unknown>[] = [];
  let bytes = 0;
  let stoppedBy: Computed["stoppedBy"];
  for (const row of found.rows) {
    if (input.max_items !== undefined && compute.read >= input.max_items) {
      stoppedBy = "items";
      break;
    }
    const own = Object.fromEntries(wanted.map((column) => [column, row[column] ?? null]));
    if (!compute.see(own)) continue;
    bytes += jsonBytes([own]);
    if (bytes > reuse.maxBytes && kept.length > 0) {
      stoppedBy = "bytes";
      break;
    }
    kept.push(own);
  }
  return {
    compute,
    kept,
    positions: [],
    next: undefined,
    ...(stoppedBy ? { stoppedBy } : {}),
    pages: 0,
    calls: 0,
    unit: "row",
    columns: reuse.columns,
    hidden: reuse.hidden,
    file: true,
  };
}

const clock = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/\.\d{3}Z$/, " UTC")
    .replace("T", " ");

/** The summary's first part: which export answered, and how to get a fresh one. */
/** How long ago a kept export finished, in words ("16 seconds"), at least a second. */
export function reusedAgo(finishedAt: number, now = Date.now()): string {
  return durationWords(Math.max(1, Math.round((now - finishedAt) / 1000)) * 1000);
}

function reuseWords(input: MarketoApiCallInput, found: KeptExport, now: number, calls: number): string {
  return (
    `POST ${input.endpoint} run to completion: answered from the same export run ${reusedAgo(found.finishedAt, now)} ago ` +
    `(finished ${clock(found.finishedAt)}: ${plural(found.jobs, "export job")}, ${plural(found.rows.length, "row")}, ` +
    `${plural(found.calls, "API call")} then), ${calls > 0 ? `the only API calls now naming the ids counted (${n(calls)})` : "no API call spent now"}; ` +
    // Said in fewer words: agents repeat an export with another where or count_by, and read this each time.
    `rows created or changed since are not in it. An export answers the same body, or one asking fewer of its fields, for ` +
    `${durationWords(REUSE_MS)}, and is dropped after any write through this tool; for a fresh export now, change the body's filter ` +
    "(e.g. its endAt to the current time)"
  );
}

function maxItemsWords(input: MarketoApiCallInput, computed: Computed, total: number): string {
  const read = computed.compute.read;
  if (input.max_items === undefined) return `all ${plural(read, "row")} were read; max_items was not given`;
  if (computed.stoppedBy === "items") {
    const before = readBeforeWords(input, "row");
    return `max_items ${n(input.max_items)} cut the read: it stopped at ${n(read)} of the export's ${n(total)} rows${before ? ` (${before})` : ""}; leave max_items out to read them all`;
  }
  return `all ${plural(read, "row")} were read; max_items ${n(input.max_items)} did not cut the read`;
}

/** The answer from the kept rows. */
export async function reusedAnswer(
  input: MarketoApiCallInput,
  ctx: ToolContext,
  reuse: Reuse,
  now = Date.now(),
): Promise<ReadAnswer & { summary: string }> {
  const computed = computeOver(input, reuse);
  const names = await nameCounted(computed.compute, reuse.reader);
  if (names) Object.assign(computed, { names, calls: namesCalls(names) });
  const answer = computedAnswer(input, ctx, computed);
  const cut = computed.stoppedBy !== undefined;
  const data = {
    ...answer.data,
    ...(cut ? { complete: false } : {}),
    extra: { reused_export_finished_at: new Date(reuse.found.finishedAt).toISOString() },
  };
  const read = { ...answer, data };
  const parts = [
    reuseWords(input, reuse.found, now, computed.calls),
    ...figureWords(computed.compute.spec, computed),
    ...shownWords(computed, read),
    maxItemsWords(input, computed, reuse.found.rows.length),
  ];
  if (computed.stoppedBy === "bytes") {
    parts.push("the rows kept reached the most one file holds, so the rest were not read: narrow where");
  }
  return { ...read, summary: `${parts.join("; ")}.` };
}
