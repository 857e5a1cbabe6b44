/**
 * The answer of an export run to completion (export-run.ts): a lone job's file, or the joined file of a
 * split span, through where/count_by/order_by; its summary (export-words.ts) and the jobs it ran. A run that
 * read every row is kept for later calls (export-reuse.ts).
 */
import type { MarketoApiCallInput } from "../../schemas/marketo.js";
import type { ToolContext } from "../types.js";
import { type Computed, computedAnswer } from "./compute-answer.js";
import { KEEP_MAX_BYTES, keepExport } from "./export-reuse.js";
import type { ExportRun } from "./export-state.js";
import { emptyWindows, exportSummary } from "./export-words.js";
import type { IdNames } from "./id-names.js";
import type { ReadAnswer } from "./read-calls.js";

/** A run that read every row is kept for later calls (export-reuse.ts); one cut short is not. */
export function keepWhole(run: ExportRun, key: string, ctx: ToolContext): void {
  const { joined } = run;
  if (joined.stopped || run.unexported || !joined.raw) return;
  const rows = joined.raw;
  joined.raw = undefined;
  keepExport(
    run.call.marketo,
    key,
    {
      columns: joined.allColumns ?? [],
      visible: joined.columns ?? [],
      rows,
      finishedAt: Date.now(),
      jobs: joined.jobs.length,
      // A run continued from cut calls cost theirs too.
      calls: (run.resumed?.calls ?? 0) + run.call.calls + (joined.naming?.calls ?? 0),
    },
    ctx.fullResults?.fileMaxBytes ?? KEEP_MAX_BYTES,
  );
}

export function answerOf(
  input: MarketoApiCallInput,
  ctx: ToolContext,
  run: ExportRun,
  names?: readonly IdNames[],
): ReadAnswer & { summary: string } {
  const { joined } = run;
  const lone = run.plan.length === 1 ? joined.jobs[0]?.job : undefined;
  const file = lone ? `${run.call.base}/${lone.id}/file.json` : undefined;
  // A lone job's cursors continue in its file; a joined file has no single one to continue in.
  const asFile: MarketoApiCallInput = file
    ? {
        ...input,
        method: "GET",
        endpoint: file,
        query_parameters: undefined,
        body: undefined,
        run_to_completion: false,
      }
    : input;
  const computed: Computed = {
    compute: joined.compute,
    kept: joined.kept,
    positions: lone ? joined.positions : [],
    next: lone ? joined.next : undefined,
    ...(joined.stoppedBy ? { stoppedBy: joined.stoppedBy } : {}),
    pages: joined.chunks,
    calls: run.call.calls + (joined.naming?.calls ?? 0),
    unit: "row",
    ...(joined.columns ? { columns: joined.columns } : {}),
    hidden: joined.hidden,
    file: true,
    ...(names ? { names } : {}),
    limit: {
      bytes: joined.maxBytes,
      setting: ctx.fullResults?.fileMaxBytes
        ? "MARTECH_STEPS_EXPORT_MAX_BYTES"
        : "MARTECH_STEPS_RESULT_MAX_BYTES",
    },
  };
  const answer = computedAnswer(asFile, ctx, computed);
  // A joined file cut by a cap has no cursor to continue in: it is incomplete all the same (restWords says how).
  const cut = !lone && joined.stoppedBy !== undefined;
  const data = { ...answer.data, ...(cut ? { complete: false } : {}), extra: extraOf(run, file) };
  if (run.unexported) data.warnings.push(`Not exported: ${run.unexported.reason}`);
  const read = { ...answer, data };
  return { ...read, summary: exportSummary(input, ctx, run, computed, read, file) };
}

function extraOf(run: ExportRun, file: string | undefined): Record<string, unknown> {
  const first = run.joined.jobs[0];
  if (file && first) {
    const { job, window } = first;
    return {
      exportId: job.id,
      status: "Completed",
      numberOfRecords: job.status?.numberOfRecords,
      fileSize: job.status?.fileSize,
      ...(window ? { startAt: window.startAt, endAt: window.endAt } : {}),
      file_endpoint: file,
    };
  }
  // A joined run's jobs by window and rows alone: their export ids and file sizes were 60 % of a line an agent
  // reads (37 jobs: 4,000 characters; trial s32 N458), and the joined file is what the answer links.
  const jobs = run.joined.jobs.map(({ job, window }) => ({
    numberOfRecords: job.status?.numberOfRecords,
    ...(window ? { startAt: window.startAt, endAt: window.endAt } : {}),
  }));
  return {
    jobs: emptyRunsJoined(jobs),
    ...(run.span
      ? { split_by: run.span.field, deduplicated_by: run.span.key, duplicates_dropped: run.joined.duplicates }
      : {}),
    ...(run.span ? { empty_windows: emptyWindows(run) } : {}),
    ...(run.unexported ? { not_exported: run.unexported.windows } : {}),
  };
}

type JobEntry = {
  numberOfRecords?: unknown;
  startAt?: string | undefined;
  endAt?: string | undefined;
  [key: string]: unknown;
};

/**
 * Consecutive windows with no rows as one entry ("jobs": how many, and the span they cover): a span from
 * 2015 listed 105 empty jobs one by one before its first row (trial s15, N127), the longest part of the answer.
 */
function emptyRunsJoined(jobs: readonly JobEntry[]): JobEntry[] {
  const out: JobEntry[] = [];
  let run: JobEntry[] = [];
  const flush = () => {
    const [first, last] = [run[0], run.at(-1)];
    if (run.length > 1 && first && last) {
      out.push({
        numberOfRecords: 0,
        jobs: run.length,
        startAt: first.startAt,
        endAt: last.endAt,
      });
    } else out.push(...run);
    run = [];
  };
  for (const job of jobs) {
    if (job.numberOfRecords === 0 && job.startAt !== undefined) run.push(job);
    else {
      flush();
      out.push(job);
    }
  }
  flush();
  return out;
}
