import type { RunReportResponse } from "../../connectors/google/types.js";
import type { StatedRange } from "./date-presets.js";
import { adCostNote } from "./report-ad-cost.js";
import type { UiNames } from "./report-chart.js";
import type { FlatReport } from "./report-flatten.js";
import { notSetNote } from "./report-not-set.js";
import { weekNote } from "./report-weeks.js";

/**
 * What a report's values themselves call for in its summary: a dimension mostly "(not set)", ad metrics all 0,
 * ISO weeks by their days.
 */
export function valueNotes(
  flat: FlatReport,
  response: RunReportResponse,
  uiNames: UiNames,
  property: string,
  stated: readonly StatedRange[] | undefined,
): (string | undefined)[] {
  return [
    notSetNote(flat, response, uiNames),
    adCostNote(flat, response, uiNames, property),
    weekNote(flat, response, stated),
  ];
}
