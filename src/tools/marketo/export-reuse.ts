/**
 * An export run to completion is kept for a while, so the next whole-database question does not cost a
 * fresh export (agent trial s4, T01/T05/T06/T09/T19: 37–106 jobs, 45–116 s and 166–477 API calls each).
 * A later run_to_completion call answers from the kept rows when it asks for the same export type and the
 * same create body apart from `fields`, its fields (and the fields where/count_by/order_by read) among the
 * kept ones, within REUSE_MS of the kept run's end.
 *
 * Scope: the rows are kept per connector object, and a workspace builds its own connector and rebuilds it
 * when its Marketo credentials change (connections/marketo/handle.ts), so one workspace's (or credential's)
 * rows are never served to another; whole results are kept per workspace too (keep-result.ts). Any write
 * through the step (a POST or DELETE that is not an export run) drops what its connector kept: the rows
 * may no longer be what Marketo holds.
 *
 * A run of several windows cut by the call's deadline or a cancel keeps what it read the same way
 * (`keepPartial`: same lifetime, same byte limit, same store), under the exact request, so the same call
 * again continues from the first window not read (export-resume.ts) instead of starting over (trial
 * 2026-12-03, N47: 106 windows, cut at 120 s, three more calls by hand).
 */
import { jsonBytes } from "../../json-size.js";
import { isPlainObject } from "../input/schema-walk.js";
import type { Job } from "./export-job.js";
import type { Window } from "./export-windows.js";

/** How long a finished export answers again: 15 minutes. */
export const REUSE_MS = 15 * 60_000;
/** The most JSON bytes of rows kept of one export without an adapter's file limit (its default, 32 MB). */
export const KEEP_MAX_BYTES = 32_000_000;
/** Rows collected while an export runs, past which it is not kept (count_by reads have no byte limit). */
export const KEEP_MAX_ROWS = 500_000;
/** Exports kept per connector: the latest ones. */
const KEPT_EXPORTS = 4;

export interface KeptExport {
  /** The columns of the rows (every field exported, hidden ones included). */
  columns: string[];
  /** The columns its caller asked for, in the file's order. */
  visible: string[];
  rows: Record<string, unknown>[];
  /** When the run finished (ms), its jobs and the API calls it spent. */
  finishedAt: number;
  jobs: number;
  calls: number;
  bytes: number;
}

/** What a windowed run cut short had read whole, for the same call again to continue (export-resume.ts). */
export interface PartialExport {
  /** Every row of the windows read whole, once (duplicates dropped), with every column. */
  rows: Record<string, unknown>[];
  columns?: string[];
  visible?: string[];
  /** The windows read whole, in plan order, with their Completed jobs. */
  jobs: { job: Job; window?: Window }[];
  /** Jobs started at Marketo and not read (each with its plan index), for the next call to pick up. */
  open: Job[];
  /** Rows read, duplicates included, and the duplicates dropped. */
  read: number;
  duplicates: number;
  /** API calls the cut calls spent, and how many calls they were. */
  calls: number;
  cuts: number;
  keptAt: number;
}

type Entry = { whole: KeptExport } | { partial: PartialExport };

const kept = new WeakMap<object, Map<string, Entry>>();

const sorted = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(sorted);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((name) => [name, sorted(value[name])]),
  );
};

/** The create body without `fields`, in a stable key order: two bodies that differ only in fields share it. */
export function exportKey(endpoint: string, body: Record<string, unknown>): string {
  const { fields: _fields, ...rest } = body;
  return JSON.stringify([endpoint, sorted(rest), Array.isArray(body.fields) ? "fields" : "default"]);
}

/**
 * The key of a cut run: the whole create body, fields included, and max_items (it bounds the rows read), so
 * only the identical request continues it. where/count_by/order_by are not in it: they are computed again
 * over every kept row, and a field they read that `fields` leave out is in the body already.
 */
export function partialKey(endpoint: string, body: Record<string, unknown>, maxItems?: number): string {
  return JSON.stringify(["partial", endpoint, sorted(body), maxItems ?? null]);
}

/** Puts `entry` under `key`, the latest KEPT_EXPORTS of `owner` only, dropped REUSE_MS later. */
function put(owner: object, key: string, entry: Entry): void {
  const exports = kept.get(owner) ?? new Map<string, Entry>();
  exports.delete(key);
  exports.set(key, entry);
  while (exports.size > KEPT_EXPORTS) exports.delete(exports.keys().next().value as string);
  kept.set(owner, exports);
  // Let the rows go when they may no longer answer, not at the next lookup: a workspace that exports once
  // and never asks again would otherwise hold up to KEEP_MAX_BYTES for as long as its connector lives.
  setTimeout(() => {
    if (exports.get(key) === entry) exports.delete(key);
  }, REUSE_MS).unref();
}

/** The entry under `key` while it is younger than REUSE_MS. */
function get(owner: object, key: string, now: number): Entry | undefined {
  const exports = kept.get(owner);
  const found = exports?.get(key);
  if (!exports || !found) return undefined;
  const at = "whole" in found ? found.whole.finishedAt : found.partial.keptAt;
  if (now - at > REUSE_MS) {
    exports.delete(key);
    return undefined;
  }
  return found;
}

/**
 * Keeps a finished run's rows when they fit `maxBytes`; renamed columns (columnHeaderNames) are not kept,
 * since fields would not name them.
 */
export function keepExport(
  owner: object,
  key: string,
  run: Omit<KeptExport, "bytes">,
  maxBytes: number,
): void {
  if (key.includes('"columnHeaderNames"')) return;
  const bytes = jsonBytes(run.rows);
  if (bytes > maxBytes) return;
  put(owner, key, { whole: { ...run, bytes } });
}

/** Keeps a cut run's rows when they fit `maxBytes`; false when they do not (nothing is kept then). */
export function keepPartial(owner: object, key: string, run: PartialExport, maxBytes: number): boolean {
  if (jsonBytes(run.rows) > maxBytes) return false;
  put(owner, key, { partial: run });
  return true;
}

/** The cut run kept under `key`, taken out of the store (the call that continues it keeps it again if cut). */
export function takePartial(owner: object, key: string, now = Date.now()): PartialExport | undefined {
  const found = get(owner, key, now);
  if (!found || !("partial" in found)) return undefined;
  kept.get(owner)?.delete(key);
  return found.partial;
}

/** The kept export that answers `key` with `fields` (all of them when undefined), if one finished recently. */
export function keptExport(
  owner: object,
  key: string,
  fields: readonly string[] | undefined,
  now = Date.now(),
): KeptExport | undefined {
  const entry = get(owner, key, now);
  if (!entry || !("whole" in entry)) return undefined;
  const found = entry.whole;
  const columns = new Set(found.columns);
  return (fields ?? []).every((field) => columns.has(field)) ? found : undefined;
}

/**
 * The columns a call asking for `fields` gets from a kept export: the kept caller's columns it names, in
 * the file's order (an activity file's activityType, named by the step, comes with activityTypeId).
 */
export function reusedColumns(found: KeptExport, fields: readonly string[] | undefined): string[] {
  if (!fields) return found.visible;
  const asked = new Set(fields);
  return found.visible.filter(
    (column) => asked.has(column) || (column === "activityType" && asked.has("activityTypeId")),
  );
}

/** Drops every export kept for `owner` (a write may have changed what they hold). */
export function forgetExports(owner: object): void {
  kept.delete(owner);
}
