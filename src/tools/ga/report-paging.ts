import { capItems, MAX_RESULT_BYTES } from "../output-cap.js";
import type { FullResult } from "../types.js";
import type { FlatReport, FlatRow } from "./report-flatten.js";

/** Room left in the answer for totals, quota, the request and the hints beside the rows. */
const ROOM_FOR_THE_REST = 5_000;

export interface ReportPage {
  rows: FlatRow[];
  /** Where the next rows start, when rows remain after those shown (an exact offset). */
  nextOffset: number | undefined;
  hints: string[];
  full?: FullResult;
}

/**
 * The rows an answer shows and where the next ones start. The Data API pages with offset and limit
 * (https://developers.google.com/analytics/devguides/reporting/data/v1/basics#pagination), so an
 * offset is an exact resume position, whether the limit or the output cap ended the answer. Rows GA
 * returned beyond the cap are kept whole for an adapter that keeps whole results.
 */
export function pageReport(
  flat: FlatReport,
  o: { first: number; columns: readonly string[]; keep: boolean },
): ReportPage {
  const capped = capItems(flat.rows, MAX_RESULT_BYTES - ROOM_FOR_THE_REST, true);
  const shownTo = o.first + capped.items.length;
  const more = capped.items.length > 0 && shownTo < flat.rowCount;
  const hints: string[] = [];
  const kept = o.keep && capped.dropped > 0;
  if (more) {
    const why = capped.dropped > 0 ? ` (output capped at ${MAX_RESULT_BYTES / 1000} KB)` : "";
    hints.push(
      `Showing rows ${o.first + 1}–${shownTo} of ${flat.rowCount}${why}: call again with offset ${shownTo} (next_offset) for more.`,
    );
  }
  if (kept) {
    const last = o.first + flat.rows.length;
    hints.push(
      `All ${flat.rows.length} rows GA returned (rows ${o.first + 1}–${last}) are in the full result linked with this answer` +
        (last < flat.rowCount ? `; after them, continue with offset ${last}.` : "."),
    );
  }
  return {
    rows: capped.items,
    nextOffset: more ? shownTo : undefined,
    hints,
    ...(kept ? { full: { kind: "rows", items: flat.rows, columns: o.columns } } : {}),
  };
}
