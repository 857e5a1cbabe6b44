/**
 * The state of one export call's run (export-run.ts), which its summary (export-words.ts) reads: a type of
 * its own so that the two do not import each other.
 */
import type { ExportCall, Job } from "./export-job.js";
import type { Joined } from "./export-join.js";
import type { ExportSpan, Window } from "./export-windows.js";

/** One job of the plan: its create body, and its window when the span was split. */
export interface Planned {
  body: Record<string, unknown>;
  window?: Window;
}

export interface ExportRun {
  call: ExportCall;
  plan: Planned[];
  span: ExportSpan | undefined;
  joined: Joined;
  /** Jobs created and not yet read (cancelled with the call). */
  open: Job[];
  /** Windows not exported: Marketo refused another job (queue full, daily export allowance spent). */
  unexported?: { windows: Window[]; reason: string };
  /** Windows left out because the read had stopped (max_items, the file's size limit). */
  skipped?: number;
  started: number;
}
