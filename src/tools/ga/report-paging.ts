import { jsonBytes } from "../../json-size.js";
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
 * offset is an exact resume position, whether the limit or the output cap ended the answer. Realtime
 * reports take no offset (runRealtimeReport has none:
 * https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/properties/runRealtimeReport),
 * so they are given none. Rows GA returned beyond the cap are kept, up to `keepBytes`, for an adapter
 * that keeps whole results.
 */
export function pageReport(
  flat: FlatReport,
  o: {
    first: number;
    columns: readonly string[];
    keepBytes: number | undefined;
    realtime: boolean;
    /** What `flat.rows` are, in the words of the kept result's note. Default: "rows GA returned". */
    source?: string;
  },
): ReportPage {
  const capped = capItems(flat.rows, MAX_RESULT_BYTES - ROOM_FOR_THE_REST, true);
  const shownTo = o.first + capped.items.length;
  const more = capped.items.length > 0 && shownTo < flat.rowCount;
  const hints: string[] = [];
  const kept = o.keepBytes !== undefined && capped.dropped > 0;
  const why = capped.dropped > 0 ? ` (output capped at ${MAX_RESULT_BYTES / 1000} KB)` : "";
  if (more && !o.realtime) {
    hints.push(
      `Showing rows ${o.first + 1}–${shownTo} of ${flat.rowCount}${why}: call again with offset ${shownTo} (next_offset) for more.`,
    );
  } else if (more) {
    hints.push(
      `Showing rows 1–${shownTo} of ${flat.rowCount}${why}: realtime reports cannot be paged with offset; ` +
        `${kept ? "the rows GA returned are in the full result linked with this answer, or " : ""}` +
        "narrow the report (a filter, fewer dimensions) or sort it with order_by to see the rows that matter first.",
    );
  }
  if (!kept) return { rows: capped.items, nextOffset: more && !o.realtime ? shownTo : undefined, hints };
  // The kept rows stay within the setting for kept results, like every step's (MARTECH_STEPS_RESULT_MAX_BYTES),
  // but never hold fewer than the answer shows: a "full result" short of the answer would be no full result.
  const whole = capItems(flat.rows, Math.max(o.keepBytes ?? 0, jsonBytes(capped.items)), true).items;
  const last = o.first + whole.length;
  hints.push(
    `${whole.length === flat.rows.length ? "All" : "The first"} ${whole.length} of the ${flat.rows.length} ${o.source ?? "rows GA returned"} ` +
      `(rows ${o.first + 1}–${last}) are in the full result linked with this answer` +
      (last < flat.rowCount && !o.realtime ? `; after them, continue with offset ${last}.` : "."),
  );
  return {
    rows: capped.items,
    nextOffset: more && !o.realtime ? shownTo : undefined,
    hints,
    full: { kind: "rows", items: whole, columns: o.columns, shown: capped.items.length },
  };
}
