/**
 * A run of several windows that the call's deadline (or a cancel) cuts keeps what it read whole: the
 * windows' rows, once each, and the jobs still at Marketo (export-reuse.ts `keepPartial`, under the exact
 * request). The same call again sees those rows first, picks up the jobs if Marketo still has them and
 * runs on from the first window not read, so nothing read is thrown away and no window is exported twice
 * (trial 2026-12-03, N47: 106 windows cut at 120 s, then three calls for parts of the period by hand). What
 * the cut's answer says is done as said by test/mcp/export-resume.test.ts.
 */
import { deadlineOf } from "../../deadline.js";
import { DeadlineExceededError } from "../../errors.js";
import { jsonBytes } from "../../json-size.js";
import { n } from "../numbers-in-words.js";
import { durationWords } from "../output-cap.js";
import type { ToolContext } from "../types.js";
import type { WindowedStop } from "./export-job.js";
import { KEEP_MAX_BYTES, keepPartial, type PartialExport, REUSE_MS } from "./export-reuse.js";
import type { ExportRun } from "./export-state.js";

/**
 * Whether `error` cut the run: the call's signal aborted (its deadline, or a cancel), or a connector's own
 * timer for the same deadline, set a moment later from the time then left, fired first; the call's signal
 * is then waited for (it aborts within milliseconds), so the cut is answered as one.
 */
export async function isCut(error: unknown, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return true;
  const at = deadlineOf(signal)?.at;
  if (!signal || !(error instanceof DeadlineExceededError) || at === undefined || at - Date.now() > 1_000) {
    return false;
  }
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, Math.max(0, at - Date.now()) + 50);
    const aborted = () => {
      clearTimeout(timer);
      resolve();
    };
    signal.addEventListener("abort", aborted, { once: true });
  });
  return signal.aborted;
}

/** Marks the windows read whole so far (after a window's file is read, and after a resume). */
export function markRead(run: ExportRun): void {
  const { joined } = run;
  run.mark = {
    windows: joined.jobs.length,
    raw: joined.raw?.length ?? 0,
    rows: joined.rows,
    duplicates: joined.duplicates,
  };
}

/**
 * Keeps what a cut run read whole for the same call again, with the jobs left at Marketo (a cancel
 * cancels the running ones, so only a Completed one is left to pick up then). False when nothing can be
 * kept: no split span, rows past what is collected, or more bytes than the store takes.
 */
export function keepCut(run: ExportRun, key: string, ctx: ToolContext, deadline: boolean): boolean {
  const { joined, mark } = run;
  if (!run.span || run.plan.length < 2 || !joined.raw) return false;
  const open = run.open.filter(
    (job) => (deadline || job.completed) && job.index !== undefined && job.index >= mark.windows,
  );
  if (mark.windows === 0 && open.length === 0) return false;
  const partial: PartialExport = {
    rows: joined.raw.slice(0, mark.raw),
    ...(joined.allColumns ? { columns: joined.allColumns } : {}),
    ...(joined.columns ? { visible: joined.columns } : {}),
    jobs: joined.jobs.slice(0, mark.windows),
    open: open.map((job) => ({ ...job })),
    read: mark.rows,
    duplicates: mark.duplicates,
    calls: (run.resumed?.calls ?? 0) + run.call.calls + (joined.naming?.calls ?? 0),
    cuts: (run.resumed?.cuts ?? 0) + 1,
    keptAt: Date.now(),
  };
  return keepPartial(run.call.marketo, key, partial, ctx.fullResults?.fileMaxBytes ?? KEEP_MAX_BYTES);
}

/**
 * Continues a kept run: its rows are seen again, in window order, by this call's where/count_by/order_by
 * and dedupe, its windows count as read, and its jobs wait to be picked up (export-run.ts `start`).
 */
export function resume(run: ExportRun, partial: PartialExport): void {
  const { joined } = run;
  const { compute, key } = joined;
  if (partial.columns) {
    joined.allColumns = partial.columns;
    compute.knowColumns(partial.columns);
  }
  if (partial.visible) joined.columns = partial.visible;
  const kept: Record<string, unknown>[] = [];
  for (const row of partial.rows) {
    const value = key !== undefined && row[key] ? String(row[key]) : undefined;
    if (value !== undefined) joined.keys?.add(value);
    joined.raw?.push(row);
    // A copy: the answer drops hidden columns from the rows it keeps.
    if (compute.see(row)) kept.push({ ...row });
  }
  joined.kept.push(...kept);
  joined.bytes += kept.length > 0 ? jsonBytes(kept) : 0;
  joined.jobs.push(...partial.jobs);
  joined.rows = partial.read;
  joined.duplicates = partial.duplicates;
  const from = partial.jobs.length;
  run.resumed = { from, calls: partial.calls, cuts: partial.cuts, rows: partial.read };
  run.pickups = new Map(partial.open.map((job) => [job.index as number, job]));
  markRead(run);
  const window = run.plan[from]?.window;
  run.call.ctx.progress({
    progress: 0,
    message:
      `Resuming at window ${from + 1} of ${run.plan.length}${window ? ` (${run.span?.field} from ${window.startAt})` : ""}: ` +
      `${n(from)} window${from === 1 ? "" : "s"} and ${n(partial.read)} rows kept from the earlier call` +
      `${partial.open.length > 0 ? `, ${partial.open.length} job${partial.open.length === 1 ? "" : "s"} to pick up` : ""}`,
  });
}

/**
 * What a cut run of several windows says: the windows read, and either that they are kept and the same call
 * again continues (`kept`), or, when nothing could be kept, the period in parts that each fit (the read part
 * again, then the rest from the first window not read, the same way if it is cut again).
 */
export function windowedStop(run: ExportRun, kept: boolean): WindowedStop | undefined {
  const { span, plan } = run;
  if (!span || plan.length < 2) return undefined;
  const read = run.mark.windows;
  const next = plan[read]?.window;
  const first = plan[0]?.window;
  const last = plan.at(-1)?.window;
  if (!next || !first || !last) return undefined;
  const rows = read > 0 ? ` (${n(run.mark.rows)} rows so far)` : "";
  const running = run.open.map((job) => job.label).join("; ");
  const head = `The export of ${span.field} ${first.startAt} → ${last.endAt} runs as ${plan.length} jobs of at most 31 days and did not finish within the call's {seconds} s deadline: `;
  if (kept) {
    const left = plan.length - read;
    const continues = `call again with the same arguments to continue from ${next.startAt} (about ${left} window${left === 1 ? "" : "s"} left)`;
    const what = `${read} of ${plan.length} windows read${rows} and kept: ${continues}`;
    return {
      message: `${head}${what}.${running ? ` Still at Marketo, for the next call to pick up: ${running}.` : ""}`,
      hint:
        `Call again with the same arguments within ${durationWords(REUSE_MS)} (a write through this tool drops what was kept): ` +
        "each call reads on where the last one stopped, and the one that reads the last window answers for the whole period.",
      kept: `${what}.`,
    };
  }
  return {
    message:
      `${head}${read} of them ${read === 1 ? "was" : "were"} read${rows}, ` +
      `which this call cannot return, nor keep for a next call (more than the kept results' size limit, or nothing read yet).${running ? ` Still at Marketo: ${running}; each file holds its window only.` : ""}`,
    hint:
      read > 0
        ? `Ask for the period in parts, a call each: ${span.field} ${first.startAt} → ${next.startAt} (what was read), ` +
          `then ${next.startAt} → ${last.endAt}, split again the same way if the deadline cuts it.`
        : `Ask for a shorter period, a call each: ${span.field} ${first.startAt} → ${first.endAt} first (one job), then on from ${first.endAt}.`,
  };
}
