/**
 * The order of a two-range report's merged rows. GA sorts its own rows, one per combination and range, so
 * a combination's two rows can be far apart in GA's order, and GA leaves the order of ties open; the
 * merged rows are therefore sorted here, over the whole report, with a total order: the order_by keys,
 * then every dimension value (a combination is unique), so that each page of the same request holds the
 * same rows and pages never overlap nor miss one.
 *
 * What a key means on a merged row: a dimension sorts by its value, as GA sorts it (DimensionOrderBy's
 * orderType: https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/OrderBy#OrderType);
 * a metric by its value in the later range (the one changes go to); `<metric>[<period>]`,
 * `<metric>_change` and `<metric>_change_pct`, the columns the answer prints, by those columns (trial s9,
 * N42: "-newUsers[2026]" was refused). Without order_by, the first metric of the later range, largest
 * first. A missing value (null) comes last either way.
 */
import { ValidationError } from "../../errors.js";
import type { RunReportsFields } from "../../schemas/google-analytics.js";
import type { FlatRow } from "./report-flatten.js";
import { sortWords } from "./report-request.js";

export type OrderType = "ALPHANUMERIC" | "CASE_INSENSITIVE_ALPHANUMERIC" | "NUMERIC";

/** One key of the merged rows' order: a column of the merged row. */
export interface MergedOrder {
  column: string;
  desc: boolean;
  /** Set for a dimension: how its values compare. */
  orderType?: OrderType;
}

interface Item {
  name: string;
  desc: boolean;
  orderType: OrderType | undefined;
}

/** A list's items split at commas outside brackets: a period's label in `newUsers[1, 2]` may hold one. */
function items(orderBy: RunReportsFields["order_by"]): Item[] {
  if (orderBy === undefined) return [];
  const list =
    typeof orderBy === "string" ? orderBy.split(/,(?![^[\]]*\])/).map((part) => part.trim()) : orderBy;
  return list.map((item) =>
    typeof item === "string"
      ? sortWords(item)
      : { name: item.field, desc: item.desc, orderType: item.order_type as OrderType | undefined },
  );
}

/** The periods' labels as the merged columns name them, and which is the later one (changes go to it). */
export interface MergedPeriods {
  labels: readonly string[];
  later: string;
}

/** The names order_by takes on the merged rows: each column's, `<metric>` for its later-range value. */
function acceptedNames(names: Names, periods: MergedPeriods | undefined): string[] {
  const perPeriod = (metric: string) =>
    periods ? periods.labels.map((label) => `${metric}[${label}]`) : [`${metric}[<period>]`];
  return [
    ...names.metrics.flatMap((m) => [m, ...perPeriod(m), `${m}_change`, `${m}_change_pct`]),
    ...names.dimensions,
  ];
}

/** The merged column a metric's key sorts by, or undefined when the key names none of the metrics'. */
function metricColumn(name: string, names: Names, periods: MergedPeriods | undefined): string | undefined {
  const [, metric, label] = /^(.*)\[(.*)\]$/.exec(name) ?? [];
  if (metric !== undefined && names.metrics.includes(metric)) {
    // Before the dates are stated (the check before sending) any period passes; after, only the report's.
    return periods === undefined || periods.labels.includes(label ?? "") ? name : undefined;
  }
  const own = names.metrics.find((m) => [m, `${m}_change`, `${m}_change_pct`].includes(name));
  if (own === undefined) return undefined;
  return name === own ? `${own}[${periods?.later ?? ""}]` : name;
}

type Names = { metrics: readonly string[]; dimensions: readonly string[] };

/**
 * The merged rows' order for the request's order_by, refused with the names it takes when a field is not
 * one of the merged report's columns. `periods` are the ranges' labels (a metric alone sorts by its value
 * in the later one); without them (before the dates are stated) a `<metric>[<period>]` passes on its metric.
 */
export function mergedOrder(
  orderBy: RunReportsFields["order_by"],
  names: Names,
  periods: MergedPeriods | undefined,
): MergedOrder[] {
  const keys = items(orderBy).map((item, index): MergedOrder => {
    const field = `order_by[${index}]`;
    if (names.dimensions.includes(item.name)) {
      return { column: item.name, desc: item.desc, orderType: item.orderType ?? "ALPHANUMERIC" };
    }
    const column = metricColumn(item.name, names, periods);
    if (column === undefined) {
      throw new ValidationError(field, `"${item.name}" is not a column of this two-range report.`, {
        hint: `Sort by one of ${acceptedNames(names, periods).join(", ")} (a metric alone sorts by its value in the later range).`,
      });
    }
    if (item.orderType) {
      throw new ValidationError(
        `${field}.order_type`,
        `"${item.name}" is a number; order_type applies to dimensions.`,
        {
          hint: "Remove order_type: metrics and their changes always sort as numbers.",
        },
      );
    }
    return { column, desc: item.desc };
  });
  const first = names.metrics[0];
  if (keys.length === 0 && first) return [{ column: `${first}[${periods?.later ?? ""}]`, desc: true }];
  return keys;
}

const codePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A dimension's values compared as GA's orderType says (its enum descriptions in the discovery document). */
function compareDimension(a: string, b: string, orderType: OrderType): number {
  if (orderType === "CASE_INSENSITIVE_ALPHANUMERIC") return codePoint(a.toLowerCase(), b.toLowerCase());
  if (orderType === "NUMERIC") {
    // "Non-numeric dimension values all have equal ordering value below all numeric values."
    const x = a.trim() === "" ? Number.NaN : Number(a);
    const y = b.trim() === "" ? Number.NaN : Number(b);
    if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : -1) : 1;
    return x - y;
  }
  return codePoint(a, b);
}

function compareKey(a: FlatRow, b: FlatRow, key: MergedOrder): number {
  const x = a[key.column] ?? null;
  const y = b[key.column] ?? null;
  // Missing values last, whichever the direction: they are not the smallest nor the largest.
  if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
  const diff = key.orderType
    ? compareDimension(String(x), String(y), key.orderType)
    : typeof x === "number" && typeof y === "number"
      ? x - y
      : codePoint(String(x), String(y));
  return key.desc ? -diff : diff;
}

/** The merged rows in `order`, ties broken by every dimension value: the same rows give the same order. */
export function sortMerged(
  rows: readonly FlatRow[],
  order: readonly MergedOrder[],
  dimensions: readonly string[],
): FlatRow[] {
  const ties = dimensions.map((column): MergedOrder => ({ column, desc: false, orderType: "ALPHANUMERIC" }));
  const keys = [...order, ...ties];
  return [...rows].sort((a, b) => {
    for (const key of keys) {
      const diff = compareKey(a, b, key);
      if (diff !== 0) return diff;
    }
    return 0;
  });
}
