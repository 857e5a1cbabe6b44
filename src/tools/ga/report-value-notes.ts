import type { RunReportResponse } from "../../connectors/google/types.js";
import type { StatedRange } from "./date-presets.js";
import type { SplitFilters } from "./filter-split.js";
import { adCostNote, searchConsoleNote } from "./report-ad-cost.js";
import type { UiNames } from "./report-chart.js";
import type { FlatReport } from "./report-flatten.js";
import { noRowsNotes } from "./report-no-rows.js";
import { notSetNote } from "./report-not-set.js";
import { overlapNote } from "./report-overlap.js";
import { zoneDayNote } from "./report-periods.js";
import { weekNote } from "./report-weeks.js";
import { zeroItemsNote } from "./report-zero-items.js";
import { zeroParametersNote } from "./report-zero-parameters.js";

/**
 * What a report's values themselves call for in its summary: a dimension mostly "(not set)", rows that overlap, ad metrics all 0,
 * ISO weeks by their days, days or listed values without a row (GA leaves out rows that would read 0).
 * `today`: the property's day, after which a range's days have no rows for want of time, not of data.
 */
export function valueNotes(
  flat: FlatReport,
  response: RunReportResponse,
  uiNames: UiNames,
  property: string,
  asked: {
    stated: readonly StatedRange[] | undefined;
    today: string;
    filters: SplitFilters;
    zone?: string | undefined;
    utcToday?: string;
  },
): (string | undefined)[] {
  return [
    notSetNote(flat, response, uiNames),
    overlapNote(flat, response, uiNames),
    adCostNote(flat, response, uiNames, property),
    searchConsoleNote(flat, response),
    zeroItemsNote(flat, response),
    zeroParametersNote(flat, response),
    asked.stated ? zoneDayNote(asked.today, asked.utcToday, asked.zone) : undefined,
    weekNote(flat, response, asked.stated),
    ...noRowsNotes(flat, response, uiNames, asked),
  ];
}
