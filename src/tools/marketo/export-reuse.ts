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
 */
import { jsonBytes } from "../../json-size.js";
import { isPlainObject } from "../input/schema-walk.js";

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

const kept = new WeakMap<object, Map<string, KeptExport>>();

/** The create body without `fields`, in a stable key order: two bodies that differ only in fields share it. */
export function exportKey(endpoint: string, body: Record<string, unknown>): string {
  const sorted = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sorted);
    if (!isPlainObject(value)) return value;
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((name) => [name, sorted(value[name])]),
    );
  };
  const { fields: _fields, ...rest } = body;
  return JSON.stringify([endpoint, sorted(rest), Array.isArray(body.fields) ? "fields" : "default"]);
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
  const exports = kept.get(owner) ?? new Map<string, KeptExport>();
  exports.delete(key);
  exports.set(key, { ...run, bytes });
  while (exports.size > KEPT_EXPORTS) exports.delete(exports.keys().next().value as string);
  kept.set(owner, exports);
  // Let the rows go when they may no longer answer, not at the next lookup: a workspace that exports once
  // and never asks again would otherwise hold up to KEEP_MAX_BYTES for as long as its connector lives.
  setTimeout(() => {
    if (exports.get(key)?.finishedAt === run.finishedAt) exports.delete(key);
  }, REUSE_MS).unref();
}

/** The kept export that answers `key` with `fields` (all of them when undefined), if one finished recently. */
export function keptExport(
  owner: object,
  key: string,
  fields: readonly string[] | undefined,
  now = Date.now(),
): KeptExport | undefined {
  const exports = kept.get(owner);
  const found = exports?.get(key);
  if (!exports || !found) return undefined;
  if (now - found.finishedAt > REUSE_MS) {
    exports.delete(key);
    return undefined;
  }
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
