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

/** How far the run had read whole: the windows, and the rows and duplicates they gave (a cut keeps up to it). */
export interface ReadMark {
  windows: number;
  /** Rows in `joined.raw`, rows read (duplicates included) and duplicates dropped. */
  raw: number;
  rows: number;
  duplicates: number;
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
  mark: ReadMark;
  /** Set when the run continues one an earlier call cut (export-resume.ts). */
  resumed?: { from: number; calls: number; cuts: number; rows: number };
  /** Jobs an earlier call started and did not read, by plan index. */
  pickups?: Map<number, Job>;
}
