/**
 * The sentence a report's summary gets when its rows add up to more than GA's total of the first count
 * metric: the rows overlap, so a row over the total is not its share. GA counts a user (or a session) once in
 * the total and once in every row whose value it had: a user who read sections A and B is in both rows, and a
 * user active on three days is in three date rows ("[GA4] Active users, Total users": the total is the
 * de-duplicated count over the range, https://support.google.com/analytics/answer/12253918). Trial s14, N102:
 * active users by article section summed 37,179 against a total of 27,973, and an agent divided by the sum.
 */
import type { RunReportResponse } from "../../connectors/google/types.js";
import { n } from "../numbers-in-words.js";
import type { UiNames } from "./report-chart.js";
import { type FlatReport, metricNumber } from "./report-flatten.js";

/** Undefined unless the report has one totals row (one period) and its rows sum past it. */
export function overlapNote(
  flat: FlatReport,
  headers: Pick<RunReportResponse, "metricHeaders">,
  uiNames: UiNames,
): string | undefined {
  const metric = headers.metricHeaders?.find((h) => h.type === "TYPE_INTEGER")?.name;
  const [totals, ...more] = flat.totals;
  if (!metric || !totals || more.length > 0) return undefined;
  const total = metricNumber(totals, metric);
  const rows = flat.rows.reduce((sum, row) => sum + metricNumber(row, metric), 0);
  if (rows <= total) return undefined;
  const what = (uiNames[metric] ?? metric).toLowerCase();
  return (
    `The rows' ${what} add up to ${n(rows)}, more than the ${n(total)} in total: each is counted once ` +
    "in every row whose value it had and once in the total, so the rows overlap and are not parts of the total."
  );
}
