/**
 * The summary of an export run to completion: the jobs it ran (one, or one per 31-day window), the rows
 * read and the duplicates dropped, the figures where/count_by computed, what is shown (a preview when the
 * file is linked), whether max_items shortened the file, where the rest is when a cap cut the linked file,
 * how long the file is kept, and where Marketo keeps its own copy. Every instruction in it is done by a
 * test (test/mcp/export-span.test.ts, test/mcp/export-one-call.test.ts, test/mcp/export-file-cap.test.ts).
 */
import type { MarketoApiCallInput } from "../../schemas/marketo.js";
import { n, plural } from "../numbers-in-words.js";
import { durationWords, sizeWords } from "../output-cap.js";
import type { ToolContext } from "../types.js";
import type { Computed } from "./compute-answer.js";
import { figureWords, readBeforeWords, shownWords } from "./compute-words.js";
import type { ExportRun } from "./export-state.js";
import type { ReadAnswer } from "./read-calls.js";

const DAY_MS = 86_400_000;

function jobsWords(input: MarketoApiCallInput, run: ExportRun, seconds: number): string {
  const { joined, span } = run;
  const lone = run.plan.length === 1 ? joined.jobs[0]?.job : undefined;
  const size = typeof lone?.status?.fileSize === "number" ? ` (${sizeWords(lone.status.fileSize)})` : "";
  if (lone) {
    return (
      `POST ${input.endpoint} run to completion: export ${lone.id} created, enqueued and Completed after ` +
      `${plural(lone.polls, "status check")} (${seconds} s); ${plural(joined.rows, "row")} read of its file${size}, ` +
      `${plural(run.call.calls + (joined.naming?.calls ?? 0), "call")} in all`
    );
  }
  const first = span?.windows[0];
  const last = span?.windows.at(-1);
  const days = first && last ? Math.round((Date.parse(last.endAt) - Date.parse(first.startAt)) / DAY_MS) : 0;
  const key = span?.key === "id" ? "lead id" : "activity marketoGUID";
  const empty = emptyWindows(run);
  // Marketo's bulk extract takes a createdAt/updatedAt range of at most 31 days and no API call gives the
  // earliest createdAt (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-extract/bulk-lead-extract,
  // "Filters"): a span starting before the first record runs empty jobs, which can only be said, not skipped.
  const held = heldWords(run);
  const emptyWords =
    empty > 0
      ? `; ${plural(empty, "window")} had no rows (Marketo's API offers no call that gives the earliest ${span?.field}, ` +
        `so a range that starts before the first record runs empty jobs: start it later when you know that date${held ? `)${held}` : ")"}`
      : "";
  return (
    `POST ${input.endpoint} run to completion: ${span?.field} ${first?.startAt} → ${last?.endAt} (${plural(days, "day")}) is longer ` +
    `than the 31 days Marketo takes in one export, so it ran as ${plural(run.plan.length, "export job")} of at most 31 days, ` +
    `two at a time (${joined.jobs.length} Completed and read, ${seconds} s in all); ${plural(joined.rows, "row")} read of their files, ` +
    `joined into one with ${plural(joined.duplicates, "duplicate")} dropped by ${key} (a row read twice, at a window's edge ` +
    `or updated between two jobs), ${plural(run.call.calls + (joined.naming?.calls ?? 0), "call")} in all${resumedWords(run)}${emptyWords}`
  );
}

/** A run that continued cut calls: where it resumed, and what the earlier calls read and spent. */
function resumedWords(run: ExportRun): string {
  const { resumed } = run;
  if (!resumed) return "";
  const calls = resumed.cuts === 1 ? "the earlier call" : `the ${n(resumed.cuts)} earlier calls`;
  return (
    ` (this call's); it resumed at window ${n(resumed.from + 1)} of ${n(run.plan.length)}: ${calls} (cut short) read ` +
    `${plural(resumed.from, "window")} and ${plural(resumed.rows, "row")}, kept for it, with ${plural(resumed.calls, "call")}, ` +
    "and the rows and figures here cover the whole period"
  );
}

/**
 * When most windows read held no rows: the first and last that did, so a next call for the same data can
 * ask for that range only (trial 2026-12-03, N47: 2018 → 2026 for leads of the last two years).
 */
function heldWords(run: ExportRun): string {
  const { span } = run;
  const read = run.joined.jobs;
  // Only a run that read every window knows the last one with rows.
  if (!span || read.length < run.plan.length || emptyWindows(run) * 2 <= read.length) return "";
  const held = read.flatMap(({ job, window }, index) =>
    window && Number(job.status?.numberOfRecords ?? 0) > 0 ? [{ window, index }] : [],
  );
  const first = held[0];
  const last = held.at(-1);
  if (!first || !last) return "";
  const count = last.index - first.index + 1;
  return (
    `; only windows ${n(first.index + 1)} to ${n(last.index + 1)} of ${n(run.plan.length)} held rows: ` +
    `${span.field} ${first.window.startAt} → ${last.window.endAt}, ${plural(count, "window")}, the range a next call for ` +
    "the same rows can ask for"
  );
}

/** Windows whose job Completed with no rows. */
export function emptyWindows(run: ExportRun): number {
  return run.joined.jobs.filter(({ job, window }) => window && job.status?.numberOfRecords === 0).length;
}

/**
 * A split span cut by max_items or the file's size limit: the same call from the window where the read
 * stopped gets the rest (that window's rows already given come again).
 */
export function restWords(run: ExportRun): string | undefined {
  const stoppedIn = run.joined.jobs.at(-1)?.window;
  if (run.plan.length < 2 || !run.joined.stoppedBy || !stoppedIn || !run.span) return undefined;
  const end = run.span.windows.at(-1)?.endAt;
  return (
    `the file does not hold the whole span: to get the rest, run the same call with body.filter.${run.span.field} ` +
    `{"startAt":"${stoppedIn.startAt}","endAt":"${end}"} (the rows of ${stoppedIn.startAt} → ${stoppedIn.endAt} already read come again)`
  );
}

/** Whether max_items cut the read, said plainly either way, count_by included (trial s4, T01 and T06). */
function maxItemsWords(input: MarketoApiCallInput, run: ExportRun): string {
  const { joined } = run;
  if (input.max_items === undefined) {
    return `all ${plural(joined.rows, "row")} of the export were read; max_items was not given, so it did not cut the read`;
  }
  if (joined.stoppedBy === "items") {
    const later = run.skipped ? `; ${plural(run.skipped, "later window")} were not exported` : "";
    const what = run.joined.compute.spec.countBy ? "the counts cover" : "the file holds what";
    const before = readBeforeWords(input, "row");
    return `max_items ${n(input.max_items)} cut the read: it stopped after ${n(joined.rows)} rows, before the end of the export, and ${what} the first ${n(joined.rows)} rows read gave${before ? ` (${before})` : ""}${later}; leave max_items out to read them all`;
  }
  return `all ${plural(joined.rows, "row")} of the export were read; max_items ${n(input.max_items)} did not cut the read`;
}

/** What is kept of the export, for how long, and what its size limit did. */
function fileWords(ctx: ToolContext, run: ExportRun, answer: ReadAnswer): string[] {
  const { joined } = run;
  const parts: string[] = [];
  if (answer.full?.file) {
    const ttl = ctx.fullResults?.fileTtlMs;
    parts.push(
      `it is one CSV (the header once, then each of its rows) with the same rows as JSON, kept ${ttl ? durationWords(ttl) : "as long as results are"} for download`,
    );
  }
  if (joined.stoppedBy === "bytes") {
    const later = run.skipped ? ` and ${plural(run.skipped, "later window")} were not exported` : "";
    parts.push(
      `the rows kept reached ${sizeWords(joined.maxBytes)} of JSON, the most one file holds, so the rest of the export was not read${later}: narrow where or the date range`,
    );
  }
  return parts;
}

export function exportSummary(
  input: MarketoApiCallInput,
  ctx: ToolContext,
  run: ExportRun,
  computed: Computed,
  answer: ReadAnswer,
  file: string | undefined,
): string {
  const seconds = Math.max(1, Math.round((Date.now() - run.started) / 1000));
  const spec = computed.compute.spec;
  const parts = [
    jobsWords(input, run, seconds),
    ...figureWords(spec, computed),
    ...shownWords(computed, answer),
  ];
  parts.push(...fileWords(ctx, run, answer));
  parts.push(maxItemsWords(input, run));
  if (run.unexported) {
    const first = run.unexported.windows[0];
    const last = run.unexported.windows.at(-1);
    parts.push(
      `Marketo refused the export of ${run.span?.field} ${first?.startAt} → ${last?.endAt} (${run.unexported.reason.replace(/\.$/, "")}): ` +
        "run the same call with that range once Marketo's export queue or daily allowance frees up",
    );
  }
  // join too: without it the rows read on have no joined, and nothing says so (review s45, 6).
  const where = [spec.where ? "where" : "", spec.join ? "join" : ""].filter(Boolean).join(" and ");
  const same = where ? ` and the same ${where}` : "";
  if (file && answer.data.next_cursor) {
    // The cursor continues after the rows shown here, which a preview makes fewer than the file's (review s23, 8).
    const after = answer.full?.file
      ? ` (it continues after the ${n(answer.counts.shown)} rows shown here, not after the file's last)`
      : "";
    parts.push(`to read on in answers, call GET ${file} with cursor = next_cursor${same}${after}`);
  }
  // A file cut by max_items or its size limit: the link holds fewer rows than Marketo's file, and its
  // _meta names where the rest starts (a joined file has no single file to continue in: fileWords says so).
  if (file && answer.full?.file && answer.full.nextCursor) {
    parts.push(
      `the linked file ends where the read stopped: to read the rows after its last one, call GET ${file} with cursor = ` +
        `the nextCursor in the linked file's _meta${same} (next_cursor continues after the preview instead)`,
    );
  }
  const rest = restWords(run);
  if (rest) parts.push(rest);
  if (file) parts.push(`Marketo keeps the file at GET ${file} for seven days`);
  return `${parts.join("; ")}.`;
}
