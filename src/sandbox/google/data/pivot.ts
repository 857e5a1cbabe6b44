/**
 * runPivotReport (basic): every pivot lists some of the request's dimensions (or "dateRange"); each
 * pivot's distinct value combinations become its header, ordered by its orderBys and cut by its
 * offset/limit; rows are the data cells whose combination is selected in every pivot. A pivot's
 * metricAggregations produce `aggregates` rows where the other pivots' columns read RESERVED_*.
 * Not emulated: pivot-type orderBys (rejected with 400 like every unsupported field).
 */
import {
  checkCompatible,
  coreSchema,
  loadFacts,
  parseCoreCommon,
  type ReportResult,
  type ReportScope,
  spanDays,
} from "./core-report.js";
import { emptyBase } from "./fields.js";
import {
  aggregate,
  comparator,
  computeValues,
  type EngineQuery,
  type EngineRow,
  headers,
  mergedBase,
  metricNamesNeeded,
  toApiRow,
} from "./report.js";
import {
  type Aggregation,
  DATE_RANGE,
  MAX_LIMIT,
  type OrderBy,
  parseAggregations,
  parseDimensions,
  parseInt64,
  parseOrderBys,
} from "./request.js";
import { invalidArgument, isObject, rejectUnknownKeys } from "./rpc.js";

interface PivotSpec {
  fieldNames: string[];
  offset: number;
  limit: number;
  orderBys: OrderBy[];
  aggregations: Set<Aggregation>;
}

const RESERVED: Record<Aggregation, string> = {
  TOTAL: "RESERVED_TOTAL",
  MINIMUM: "RESERVED_MIN",
  MAXIMUM: "RESERVED_MAX",
};

const PIVOT_REPORT_KEYS = [
  "property",
  "dimensions",
  "metrics",
  "dateRanges",
  "pivots",
  "dimensionFilter",
  "metricFilter",
  "currencyCode",
  "cohortSpec",
  "keepEmptyRows",
  "returnPropertyQuota",
  "comparisons",
];

function parsePivots(
  raw: unknown,
  dimensions: readonly string[],
  query: Pick<EngineQuery, "metrics">,
): PivotSpec[] {
  if (!Array.isArray(raw) || raw.length === 0)
    throw invalidArgument("pivots is required: give at least one pivot.");
  const used = new Set<string>();
  const pivots = raw.map((item, i): PivotSpec => {
    const at = `pivots[${i}]`;
    if (!isObject(item)) throw invalidArgument(`${at} must be an object.`);
    rejectUnknownKeys(item, ["fieldNames", "orderBys", "offset", "limit", "metricAggregations"], at);
    const names = item.fieldNames;
    if (!Array.isArray(names) || names.length === 0 || names.some((n) => typeof n !== "string")) {
      throw invalidArgument(`${at}.fieldNames must be a non-empty list of dimension names.`);
    }
    for (const name of names as string[]) {
      if (name !== DATE_RANGE && !dimensions.includes(name)) {
        throw invalidArgument(`${at}.fieldNames: ${name} must be one of the request's dimensions.`);
      }
      if (used.has(name)) throw invalidArgument(`${at}.fieldNames: ${name} is used in more than one pivot.`);
      used.add(name);
    }
    const limit = parseInt64(item.limit, `${at}.limit`);
    if (limit === undefined || limit <= 0)
      throw invalidArgument(`${at}.limit is required and must be positive.`);
    const offset = parseInt64(item.offset, `${at}.offset`) ?? 0;
    if (offset < 0) throw invalidArgument(`${at}.offset must not be negative.`);
    return {
      fieldNames: names as string[],
      offset,
      limit,
      orderBys: parseOrderBys(item.orderBys, names as string[], query.metrics, `${at}.orderBys`),
      aggregations: parseAggregations(item.metricAggregations, `${at}.metricAggregations`),
    };
  });
  const product = pivots.reduce((p, pivot) => p * pivot.limit, 1);
  if (product > MAX_LIMIT) {
    throw invalidArgument(
      `The product of the pivots' limits must not exceed ${MAX_LIMIT}; it is ${product}.`,
    );
  }
  const unused = dimensions.find((d) => !used.has(d));
  if (unused)
    throw invalidArgument(`Dimension ${unused} is requested but not used in any pivot's fieldNames.`);
  return pivots;
}

interface Combo {
  key: string;
  dims: string[];
  rows: EngineRow[];
  values: Record<string, number>;
}

/** The distinct value combinations of one pivot's fields, ordered; all of them (for rowCount). */
function combosOf(
  rows: readonly EngineRow[],
  positions: readonly number[],
  pivot: PivotSpec,
  query: EngineQuery,
) {
  const groups = new Map<string, Combo>();
  for (const row of rows) {
    const dims = positions.map((p) => row.dims[p] ?? "");
    const key = dims.join("\u0000");
    let combo = groups.get(key);
    if (!combo) {
      combo = { key, dims, rows: [], values: {} };
      groups.set(key, combo);
    }
    combo.rows.push(row);
  }
  const needed = metricNamesNeeded(query);
  for (const combo of groups.values()) {
    combo.values = computeValues(mergedBase(combo.rows), needed, query.schema, query.fx);
  }
  const order = comparator({
    metrics: query.metrics,
    orderBys: pivot.orderBys,
    dimensions: pivot.fieldNames,
  });
  return [...groups.values()].sort((a, b) =>
    order(
      { ...a, range: "", base: emptyBase(), units: new Map() },
      { ...b, range: "", base: emptyBase(), units: new Map() },
    ),
  );
}

/** One pivot's combinations: all of them (for rowCount), the chosen page, and each chosen one's rank. */
interface Selection {
  pivot: PivotSpec;
  /** The pivot's columns among the report's dimensions. */
  positions: number[];
  all: Combo[];
  chosen: Combo[];
  rank: Map<string, number>;
}

function selectCombos(rows: EngineRow[], pivots: PivotSpec[], query: EngineQuery): Selection[] {
  let offset = 0;
  return pivots.map((pivot) => {
    const positions = pivot.fieldNames.map((_, i) => offset + i);
    offset += pivot.fieldNames.length;
    const all = combosOf(rows, positions, pivot, query);
    const chosen = all.slice(pivot.offset, pivot.offset + pivot.limit);
    return { pivot, positions, all, chosen, rank: new Map(chosen.map((c, i) => [c.key, i])) };
  });
}

/** The metricAggregations rows: the other pivots' columns read RESERVED_TOTAL / _MINIMUM / _MAXIMUM. */
function aggregateRows(selections: Selection[], fields: string[], query: EngineQuery) {
  return selections.flatMap((s) =>
    [...s.pivot.aggregations].flatMap((kind) =>
      s.chosen.map((combo) => {
        const dims = fields.map((_, i) => {
          const at = s.positions.indexOf(i);
          return at >= 0 ? (combo.dims[at] ?? "") : RESERVED[kind];
        });
        if (kind === "TOTAL") return toApiRow(dims, combo.values, query);
        const values: Record<string, number> = {};
        for (const m of query.metrics) {
          const list = combo.rows.map((r) => r.values[m.name] ?? 0);
          values[m.name] = list.reduce((x, y) => (kind === "MINIMUM" ? Math.min(x, y) : Math.max(x, y)));
        }
        return toApiRow(dims, values, query);
      }),
    ),
  );
}

export function runPivotReport(raw: unknown, scope: ReportScope): ReportResult {
  if (!isObject(raw)) throw invalidArgument("The request body must be a RunPivotReportRequest JSON object.");
  rejectUnknownKeys(raw, PIVOT_REPORT_KEYS);
  const common = parseCoreCommon(raw, scope);
  const schema = coreSchema(scope.custom);
  const dimensions = parseDimensions(raw.dimensions, schema);
  if (common.metrics.length === 0)
    throw invalidArgument("metrics is required: a pivot report needs at least one metric.");
  const pivots = parsePivots(raw.pivots, dimensions, common);
  const fields = pivots.flatMap((p) => p.fieldNames);
  const metricNames = common.metrics.map((m) => m.name);
  checkCompatible([...fields, ...(common.dimensionFilter?.fields ?? [])], metricNames, scope.custom);
  // Without a dateRange column, "event data from each date range is used in the report": one group.
  const ranges = fields.includes(DATE_RANGE) ? common.ranges : common.ranges.map((r) => ({ ...r, name: "" }));
  const query: EngineQuery = {
    facts: loadFacts(scope, common.ranges, [
      ...fields,
      ...metricNames,
      ...(common.dimensionFilter?.fields ?? []),
    ]),
    ranges,
    dimensions: fields,
    metrics: common.metrics,
    schema,
    fx: common.currency.fx,
    orderBys: [],
    keepEmptyRows: common.keepEmptyRows,
    ...(common.dimensionFilter ? { dimensionFilter: common.dimensionFilter } : {}),
    ...(common.metricFilter ? { metricFilter: common.metricFilter } : {}),
  };
  const rows = aggregate(query);
  const selections = selectCombos(rows, pivots, query);
  const rankOf = (row: EngineRow, s: (typeof selections)[number]) =>
    s.rank.get(s.positions.map((p) => row.dims[p] ?? "").join("\u0000"));
  const cells = rows
    .filter((row) => selections.every((s) => rankOf(row, s) !== undefined))
    .sort((a, b) => {
      for (const s of selections) {
        const diff = (rankOf(a, s) ?? 0) - (rankOf(b, s) ?? 0);
        if (diff !== 0) return diff;
      }
      return 0;
    });
  const aggregates = aggregateRows(selections, fields, query);
  const body: Record<string, unknown> = {
    pivotHeaders: selections.map((s) => {
      const header: Record<string, unknown> = {};
      if (s.chosen.length > 0) {
        header.pivotDimensionHeaders = s.chosen.map((c) => ({
          dimensionValues: c.dims.map((value) => ({ value })),
        }));
        header.rowCount = s.all.length;
      }
      return header;
    }),
    ...headers(query),
  };
  if (cells.length > 0) body.rows = cells.map((r) => toApiRow(r.dims, r.values, query));
  if (aggregates.length > 0) body.aggregates = aggregates;
  body.metadata = { currencyCode: common.currency.code, timeZone: scope.property.timeZone };
  body.kind = "analyticsData#runPivotReport";
  return { body, cost: { days: spanDays(common.ranges), dimensions: fields.length, rows: cells.length } };
}
