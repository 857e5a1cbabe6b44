/**
 * The words heading a report's totals row. GA's totals (metricAggregations TOTAL) are over every row of the
 * report, not the rows asked for (https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/RunReportResponse):
 * with a limit below the report's rows they do not add up to the rows shown, so the label says what they
 * cover (trial s7, finding 4). `reportRows` is the report's row count (row_count), when known.
 */
export function totalsLabel(shown: number, reportRows: number | undefined): string {
  if (reportRows === undefined || shown >= reportRows) return "Total";
  return `Total, all ${reportRows.toLocaleString("en-US")} rows`;
}
