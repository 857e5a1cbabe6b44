import { LOW_TOKENS } from "../../connectors/google/quota.js";
import type {
  PropertyQuota,
  ResponseMetaData,
  Row,
  RunReportResponse,
} from "../../connectors/google/types.js";

export type FlatRow = Record<string, string | number | null>;

/**
 * Metric values arrive as strings ("15", "3.25"), whatever their type (TYPE_INTEGER, TYPE_FLOAT,
 * TYPE_CURRENCY, TYPE_SECONDS…): every one becomes a JS number. A value that is not numeric is kept as
 * GA sent it rather than turned into NaN.
 */
function metricValue(value: string | undefined): string | number | null {
  if (value === undefined) return null;
  const number = Number(value);
  return value.trim() !== "" && Number.isFinite(number) ? number : value;
}

function flattenRow(
  row: Row,
  dimensions: readonly string[],
  metrics: readonly string[],
  dropReserved: boolean,
): FlatRow {
  const flat: FlatRow = {};
  dimensions.forEach((name, index) => {
    const value = row.dimensionValues?.[index]?.value;
    // Aggregate rows carry RESERVED_TOTAL/MIN/MAX in their dimension cells (REAL-API B2): not data.
    if (dropReserved && value?.startsWith("RESERVED_")) return;
    flat[name] = value ?? null;
  });
  metrics.forEach((name, index) => {
    flat[name] = metricValue(row.metricValues?.[index]?.value);
  });
  return flat;
}

/** A metric's value in a flat row as a number to add: 0 when it is missing or not a finite number. */
export function metricNumber(row: FlatRow, name: string): number {
  const value = row[name];
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

export interface FlatReport {
  rows: FlatRow[];
  totals: FlatRow[];
  /** Total matching rows; GA omits rowCount (and rows) when the report is empty. */
  rowCount: number;
}

/** Rows as flat objects keyed by header name; dimension values stay the strings GA returns (date: YYYYMMDD). */
export function flattenReport(response: RunReportResponse): FlatReport {
  const dimensions = (response.dimensionHeaders ?? []).map(
    (header, index) => header.name ?? `dimension_${index}`,
  );
  const metrics = (response.metricHeaders ?? []).map((header, index) => header.name ?? `metric_${index}`);
  const rows = (response.rows ?? []).map((row) => flattenRow(row, dimensions, metrics, false));
  const totals = (response.totals ?? []).map((row) => flattenRow(row, dimensions, metrics, true));
  return { rows, totals, rowCount: response.rowCount ?? rows.length };
}

export interface QuotaSummary {
  tokens_per_hour?: { consumed?: number; remaining?: number };
  tokens_per_day?: { consumed?: number; remaining?: number };
}

export function quotaSummary(quota: PropertyQuota | undefined): QuotaSummary | undefined {
  if (!quota?.tokensPerHour && !quota?.tokensPerDay) return undefined;
  return {
    ...(quota.tokensPerHour ? { tokens_per_hour: { ...quota.tokensPerHour } } : {}),
    ...(quota.tokensPerDay ? { tokens_per_day: { ...quota.tokensPerDay } } : {}),
  };
}

/** Plain-language notes on what GA's response metadata and quota say about the numbers. */
export function responseHints(
  metadata: ResponseMetaData | undefined,
  quota: QuotaSummary | undefined,
): string[] {
  const hints: string[] = [];
  if (metadata?.emptyReason) hints.push(`GA says the report is empty because: ${metadata.emptyReason}`);
  for (const [index, sample] of (metadata?.samplingMetadatas ?? []).entries()) {
    const read = Number(sample.samplesReadCount ?? 0);
    const space = Number(sample.samplingSpaceSize ?? 0);
    const share = space > 0 ? ` (${((read / space) * 100).toFixed(1)}%)` : "";
    hints.push(
      `Date range ${index} is sampled: GA read ${read} of ${space} events${share}, so values are estimates. ` +
        "Shorten the date range to reduce sampling.",
    );
  }
  if (metadata?.subjectToThresholding) {
    hints.push(
      "Thresholding applied: GA withholds rows with few users to protect privacy, so rows may not add up to totals.",
    );
  }
  if (metadata?.dataLossFromOtherRow) {
    hints.push(
      'Some values were grouped into "(other)" because of high cardinality; narrow the dates or filter.',
    );
  }
  for (const restriction of metadata?.schemaRestrictionResponse?.activeMetricRestrictions ?? []) {
    const kinds = (restriction.restrictedMetricTypes ?? []).join(", ");
    hints.push(
      `Metric ${restriction.metricName ?? "?"} is restricted for this account (${kinds}): values are withheld.`,
    );
  }
  for (const [name, status] of Object.entries(quota ?? {})) {
    if (status?.remaining !== undefined && status.remaining < LOW_TOKENS) {
      const period = name === "tokens_per_hour" ? "this hour" : "today";
      hints.push(
        `Only ${status.remaining} quota tokens are left ${period} for this property: batch or slow down.`,
      );
    }
  }
  return hints;
}
