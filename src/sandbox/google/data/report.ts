/**
 * The report engine shared by core, pivot and realtime reports: select facts per date (or minute)
 * range, apply the dimension filter, group by the requested dimensions, sum base counts, compute the
 * metrics, apply the metric filter (after aggregation, like SQL HAVING), drop all-zero rows unless
 * keepEmptyRows, order, and compute TOTAL / MINIMUM / MAXIMUM rows.
 */
import type { Fact } from "./facts.js";
import { type Base, type BaseKey, emptyBase, type MetricType } from "./fields.js";
import type { CompiledFilter } from "./filters.js";
import { type Aggregation, DATE_RANGE, type MetricRequest, type OrderBy, type Schema } from "./request.js";

/** Facts whose `at` lies in [from, to] (days for core reports, minutes ago for realtime). */
export interface Range {
  name: string;
  from: number;
  to: number;
}

export interface EngineQuery {
  facts: readonly Fact[];
  ranges: readonly Range[];
  dimensions: readonly string[];
  metrics: readonly MetricRequest[];
  schema: Schema;
  fx: number;
  dimensionFilter?: CompiledFilter;
  metricFilter?: CompiledFilter;
  orderBys: readonly OrderBy[];
  keepEmptyRows: boolean;
}

export interface EngineRow {
  dims: string[];
  range: string;
  base: Base;
  values: Record<string, number>;
  /** Per slice of people (Fact.unit), the largest of each of its DISTINCT counts among the row's facts. */
  units: Map<object, Float64Array>;
}

export interface ApiRow {
  dimensionValues?: { value: string }[];
  metricValues?: { value: string }[];
}

/** proto3 JSON leaves out empty repeated fields (a report without metrics has no metricHeaders). */
function nonEmpty<K extends string, T>(key: K, list: T[]): Partial<Record<K, T[]>> {
  return (list.length > 0 ? { [key]: list } : {}) as Partial<Record<K, T[]>>;
}

/**
 * Counts of sessions and people. The events of one slice happened in the same sessions to the same people,
 * so a row (or a total) that groups several of them counts each slice's sessions and users once, at the
 * largest of its facts, and adds those up over slices: GA's users are distinct users, never a sum of
 * per-event or per-row counts (a total of totalUsers over eventName rows is the property's users, not the
 * rows' sum: https://support.google.com/analytics/answer/12253918 "Users" and
 * https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/RunReportResponse
 * `totals`, "Totals of metrics ... aggregated" over the report's data, not its rows).
 */
export const DISTINCT: readonly BaseKey[] = [
  "sessions",
  "engagedSessions",
  "totalUsers",
  "activeUsers",
  "newUsers",
  "keyEventSessions",
  "keyEventUsers",
  "purchasers",
  "firstTimePurchasers",
  "scrolledUsers",
];
const IS_DISTINCT = new Set<BaseKey>(DISTINCT);
const ADDITIVE = (Object.keys(emptyBase()) as (BaseKey | "perKeyEvent")[]).filter(
  (key): key is BaseKey => key !== "perKeyEvent" && !IS_DISTINCT.has(key),
);

/**
 * The per-key-event counts (fields.ts Base.perKeyEvent, three per key event): the events add up, the
 * sessions and users with the event are DISTINCT, kept per slice after the DISTINCT keys.
 */
const isPerKeyCount = (j: number) => j % 3 === 0;

function addPerKeyCounts(target: number[], source: readonly number[]): void {
  for (let j = 0; j < source.length; j += 3) target[j] = (target[j] ?? 0) + (source[j] ?? 0);
}

/** A base's DISTINCT counts in order: the DISTINCT keys, then its per-key-event counts. */
function distinctOf(base: Base): (i: number) => number {
  return (i) =>
    i < DISTINCT.length ? base[DISTINCT[i] as BaseKey] : (base.perKeyEvent[i - DISTINCT.length] ?? 0);
}

/** Adds a fact into a row: additive counts summed, DISTINCT ones kept per slice at their largest. */
function addFact(row: EngineRow, fact: Fact): void {
  for (const key of ADDITIVE) row.base[key] += fact.base[key];
  const perKey = fact.base.perKeyEvent;
  if (perKey.length > 0) addPerKeyCounts(row.base.perKeyEvent, perKey);
  keepLargest(row.units, fact.unit ?? fact, DISTINCT.length + perKey.length, distinctOf(fact.base));
}

function keepLargest(
  units: Map<object, Float64Array>,
  unit: object,
  length: number,
  value: (i: number) => number,
): void {
  let kept = units.get(unit);
  if (!kept) {
    kept = new Float64Array(length);
    units.set(unit, kept);
  }
  for (let i = 0; i < kept.length; i++) kept[i] = Math.max(kept[i] ?? 0, value(i));
}

/** A row's DISTINCT counts: each slice once, added up over slices. */
function settle(base: Base, units: ReadonlyMap<object, Float64Array>): void {
  DISTINCT.forEach((key, i) => {
    let sum = 0;
    for (const kept of units.values()) sum += kept[i] ?? 0;
    base[key] = sum;
  });
  let perKeyLength = 0;
  for (const kept of units.values()) perKeyLength = Math.max(perKeyLength, kept.length - DISTINCT.length);
  for (let j = 0; j < perKeyLength; j++) {
    if (isPerKeyCount(j)) continue;
    let sum = 0;
    for (const kept of units.values()) sum += kept[DISTINCT.length + j] ?? 0;
    base.perKeyEvent[j] = sum;
  }
}

/** The base of several rows together (a total, a pivot's column): additive counts summed, people once. */
export function mergedBase(rows: readonly EngineRow[]): Base {
  const base = emptyBase();
  const units = new Map<object, Float64Array>();
  for (const row of rows) {
    for (const key of ADDITIVE) base[key] += row.base[key];
    addPerKeyCounts(base.perKeyEvent, row.base.perKeyEvent);
    for (const [unit, kept] of row.units) keepLargest(units, unit, kept.length, (i) => kept[i] ?? 0);
  }
  settle(base, units);
  return base;
}

export function computeValues(
  base: Base,
  names: Iterable<string>,
  schema: Schema,
  fx: number,
): Record<string, number> {
  const values: Record<string, number> = {};
  for (const name of names) values[name] = schema.metric(name).compute(base, fx);
  return values;
}

export function metricNamesNeeded(query: Pick<EngineQuery, "metrics" | "metricFilter">): Set<string> {
  return new Set([...query.metrics.map((m) => m.name), ...(query.metricFilter?.fields ?? [])]);
}

/** Grouped, filtered and ordered rows (no paging). */
export function aggregate(query: EngineQuery): EngineRow[] {
  const groups = new Map<string, EngineRow>();
  for (const range of query.ranges) {
    for (const fact of query.facts) {
      if (fact.at < range.from || fact.at > range.to) continue;
      if (query.dimensionFilter && !query.dimensionFilter.test((f) => fact.dimension(f))) continue;
      let key = range.name;
      for (const d of query.dimensions) key += `\u0000${d === DATE_RANGE ? range.name : fact.dimension(d)}`;
      let row = groups.get(key);
      if (!row) {
        const dims = query.dimensions.map((d) => (d === DATE_RANGE ? range.name : fact.dimension(d)));
        row = { dims, range: range.name, base: emptyBase(), values: {}, units: new Map() };
        groups.set(key, row);
      }
      addFact(row, fact);
    }
  }
  const needed = metricNamesNeeded(query);
  const rows: EngineRow[] = [];
  for (const row of groups.values()) {
    settle(row.base, row.units);
    row.values = computeValues(row.base, needed, query.schema, query.fx);
    if (query.metricFilter && !query.metricFilter.test((f) => row.values[f] ?? 0)) continue;
    const allZero = query.metrics.length > 0 && query.metrics.every((m) => row.values[m.name] === 0);
    if (allZero && !query.keepEmptyRows) continue;
    rows.push(row);
  }
  return rows.sort(comparator(query));
}

const codePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Dimension ordering per DimensionOrderBy.orderType (discovery document enum descriptions). */
export function compareDimension(a: string, b: string, orderType: string): number {
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

/**
 * Explicit orderBys first; without any, the first metric descending. Ties are broken by the
 * dimension values so that the same request always returns the same order.
 */
export function comparator(
  query: Pick<EngineQuery, "metrics" | "orderBys" | "dimensions">,
): (a: EngineRow, b: EngineRow) => number {
  const first = query.metrics[0];
  const orders: OrderBy[] =
    query.orderBys.length > 0 || !first
      ? [...query.orderBys]
      : [{ kind: "metric", name: first.name, desc: true }];
  const dimIndex = (name: string): number => query.dimensions.indexOf(name);
  return (a, b) => {
    for (const order of orders) {
      const diff =
        order.kind === "metric"
          ? (a.values[order.name] ?? 0) - (b.values[order.name] ?? 0)
          : compareDimension(
              a.dims[dimIndex(order.name)] ?? "",
              b.dims[dimIndex(order.name)] ?? "",
              order.orderType,
            );
      if (diff !== 0) return order.desc ? -diff : diff;
    }
    for (let i = 0; i < a.dims.length; i++) {
      const diff = codePoint(a.dims[i] ?? "", b.dims[i] ?? "");
      if (diff !== 0) return diff;
    }
    return 0;
  };
}

/** Every metric value is a string on the wire; integers print without a fraction. */
export function formatMetric(value: number, type: MetricType): string {
  if (type === "TYPE_INTEGER") return String(Math.round(value));
  if (type === "TYPE_CURRENCY") return String(Math.round(value * 100) / 100);
  return String(value);
}

export function toApiRow(
  dims: readonly string[],
  values: Record<string, number>,
  query: EngineQuery,
): ApiRow {
  const metricValues = query.metrics
    .filter((m) => !m.invisible)
    .map((m) => ({ value: formatMetric(values[m.name] ?? 0, query.schema.metric(m.name).type) }));
  return {
    ...nonEmpty(
      "dimensionValues",
      dims.map((value) => ({ value })),
    ),
    ...nonEmpty("metricValues", metricValues),
  };
}

const RESERVED: Record<Aggregation, string> = {
  TOTAL: "RESERVED_TOTAL",
  MINIMUM: "RESERVED_MIN",
  MAXIMUM: "RESERVED_MAX",
};

/**
 * One aggregate row per date range (aggregates "will be aggregated based on the date ranges"): the
 * dateRange column keeps the range name, every other dimension reads RESERVED_TOTAL/MIN/MAX.
 */
export function aggregateRows(rows: readonly EngineRow[], query: EngineQuery, kind: Aggregation): ApiRow[] {
  const out: ApiRow[] = [];
  for (const range of query.ranges) {
    const inRange = rows.filter((r) => r.range === range.name);
    if (inRange.length === 0) continue;
    let values: Record<string, number>;
    if (kind === "TOTAL") {
      values = computeValues(mergedBase(inRange), metricNamesNeeded(query), query.schema, query.fx);
    } else {
      values = {};
      for (const m of query.metrics) {
        // A loop, not Math.min(...rows): a 250,000-row spread would overflow the call stack.
        let pick = inRange[0]?.values[m.name] ?? 0;
        for (const row of inRange) {
          const v = row.values[m.name] ?? 0;
          if (kind === "MINIMUM" ? v < pick : v > pick) pick = v;
        }
        values[m.name] = pick;
      }
    }
    const dims = query.dimensions.map((d) => (d === DATE_RANGE ? range.name : RESERVED[kind]));
    out.push(toApiRow(dims, values, query));
  }
  return out;
}

export function headers(query: EngineQuery): {
  dimensionHeaders?: { name: string }[];
  metricHeaders?: { name: string; type: MetricType }[];
} {
  const metricHeaders = query.metrics
    .filter((m) => !m.invisible)
    .map((m) => ({ name: m.name, type: query.schema.metric(m.name).type }));
  return {
    ...nonEmpty(
      "dimensionHeaders",
      query.dimensions.map((name) => ({ name })),
    ),
    ...nonEmpty("metricHeaders", metricHeaders),
  };
}
