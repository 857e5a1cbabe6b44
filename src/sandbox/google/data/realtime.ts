/**
 * runRealtimeReport: the last 30 minutes (standard properties: startMinutesAgo ≤ 29), a separate
 * field schema (https://developers.google.com/analytics/devguides/reporting/data/v1/realtime-api-schema)
 * and a separate token quota. Each absolute minute's traffic is a pure function of
 * (seed, property, minute), so a report is stable within a minute and moves as the clock does.
 */
import { COUNTRIES, DEVICE_WEIGHTS, DEVICES, PAGES, profileOf } from "./catalog-values.js";
import type { ReportScope } from "./core-report.js";
import type { Fact } from "./facts.js";
import { type Base, emptyBase, type MetricDef } from "./fields.js";
import { createRng } from "./prng.js";
import { aggregate, aggregateRows, type EngineQuery, headers, type Range, toApiRow } from "./report.js";
import {
  DATE_RANGE,
  parseAggregations,
  parseDimensions,
  parseFilters,
  parseInt64,
  parseMetrics,
  parseOrderBys,
  parsePaging,
  rangeName,
  type Schema,
} from "./request.js";
import { invalidArgument, isObject, REALTIME_SCHEMA_URL, RpcError, rejectUnknownKeys } from "./rpc.js";
import { METRIC_BY_NAME } from "./schema-catalog.js";

export const REALTIME_DIMENSIONS: readonly string[] = [
  "country",
  "countryId",
  "deviceCategory",
  "eventName",
  "unifiedScreenName",
  "minutesAgo",
  "platform",
];
export const REALTIME_METRICS: readonly string[] = [
  "activeUsers",
  "eventCount",
  "screenPageViews",
  "keyEvents",
];
const MAX_MINUTES_AGO = 29;
const MAX_MINUTE_RANGES = 2;

export const REALTIME_SCHEMA: Schema = {
  kindOf: (name) =>
    REALTIME_DIMENSIONS.includes(name) ? "dimension" : REALTIME_METRICS.includes(name) ? "metric" : undefined,
  metric: (name): MetricDef => {
    const def = METRIC_BY_NAME.get(name);
    if (!def || !REALTIME_METRICS.includes(name))
      throw new RpcError("INTERNAL", `No realtime metric ${name}.`);
    return def;
  },
  unknownField: (name, kind) =>
    invalidArgument(
      `Field ${name} is not a valid ${kind} for realtime reports. For a list of valid dimensions and metrics, see ${REALTIME_SCHEMA_URL}`,
    ),
};

interface RealtimeHit {
  minutesAgo: number;
  country: number;
  device: number;
  page: number;
  eventName: string;
  users: number;
  events: number;
}

class RealtimeFact implements Fact {
  readonly at: number;
  readonly base: Base;

  constructor(
    private readonly hit: RealtimeHit,
    keyEvents: ReadonlySet<string>,
  ) {
    this.at = hit.minutesAgo;
    this.base = emptyBase();
    this.base.activeUsers = hit.users;
    this.base.eventCount = hit.events;
    this.base.screenPageViews = hit.eventName === "page_view" ? hit.events : 0;
    this.base.keyEvents = keyEvents.has(hit.eventName) ? hit.events : 0;
  }

  dimension(name: string): string {
    const h = this.hit;
    switch (name) {
      case "country":
        return COUNTRIES[h.country]?.name ?? "(not set)";
      case "countryId":
        return COUNTRIES[h.country]?.id ?? "(not set)";
      case "deviceCategory":
        return DEVICES[h.device] ?? "(not set)";
      case "eventName":
        return h.eventName;
      case "unifiedScreenName":
        return PAGES[h.page]?.title ?? "(not set)";
      case "minutesAgo":
        // Two digits, as the real API prints it ("00".."29").
        return String(h.minutesAgo).padStart(2, "0");
      default:
        return "web";
    }
  }
}

function hitsOfMinute(seed: number, propertyId: string, minute: number, minutesAgo: number): RealtimeHit[] {
  const profile = profileOf(propertyId);
  if (profile.dailySessions === 0) return [];
  const rng = createRng(seed, propertyId, "realtime", minute);
  const names = [
    "page_view",
    "user_engagement",
    "session_start",
    "scroll",
    ...profile.events.map((e) => e.name),
  ];
  const weights = names.map((_, i) => (i === 0 ? 10 : i < 4 ? 4 : 1));
  const expected = (profile.dailySessions / 1440) * 3;
  const count = Math.max(1, Math.round(expected * (0.5 + rng.next())));
  return Array.from({ length: Math.min(count, 25) }, () => ({
    minutesAgo,
    country: rng.weighted(COUNTRIES.map((c) => c.weight)),
    device: rng.weighted(DEVICE_WEIGHTS),
    page: rng.weighted(PAGES.map((p) => p.weight)),
    eventName: names[rng.weighted(weights)] ?? "page_view",
    users: rng.int(1, 2),
    events: rng.int(1, 4),
  }));
}

function parseMinuteRanges(raw: unknown): Range[] {
  const items = raw === undefined || raw === null ? [] : raw;
  if (!Array.isArray(items)) throw invalidArgument("minuteRanges must be a list.");
  if (items.length > MAX_MINUTE_RANGES) {
    throw invalidArgument(
      `Requests are limited to ${MAX_MINUTE_RANGES} minuteRanges; this request has ${items.length}.`,
    );
  }
  if (items.length === 0) return [{ name: "date_range_0", from: 0, to: MAX_MINUTES_AGO }];
  return items.map((item, i) => {
    const at = `minuteRanges[${i}]`;
    if (!isObject(item)) throw invalidArgument(`${at} must be an object.`);
    rejectUnknownKeys(item, ["startMinutesAgo", "endMinutesAgo", "name"], at);
    const start = parseInt64(item.startMinutesAgo, `${at}.startMinutesAgo`) ?? MAX_MINUTES_AGO;
    const end = parseInt64(item.endMinutesAgo, `${at}.endMinutesAgo`) ?? 0;
    if (start < 0 || end < 0 || start > MAX_MINUTES_AGO || end > MAX_MINUTES_AGO) {
      throw invalidArgument(
        `${at}: standard properties can request minutes 0 to ${MAX_MINUTES_AGO} ago; got ${start}..${end}.`,
      );
    }
    if (start < end) throw invalidArgument(`${at}: startMinutesAgo cannot be after endMinutesAgo.`);
    return { name: rangeName(item.name, i, at), from: end, to: start };
  });
}

const REALTIME_KEYS = [
  "dimensions",
  "metrics",
  "dimensionFilter",
  "metricFilter",
  "limit",
  "metricAggregations",
  "orderBys",
  "returnPropertyQuota",
  "minuteRanges",
];

export function runRealtimeReport(
  raw: unknown,
  scope: ReportScope,
): { body: Record<string, unknown>; cost: { days: number; dimensions: number; rows: number } } {
  if (!isObject(raw))
    throw invalidArgument("The request body must be a RunRealtimeReportRequest JSON object.");
  rejectUnknownKeys(raw, REALTIME_KEYS);
  const ranges = parseMinuteRanges(raw.minuteRanges);
  let dimensions = parseDimensions(raw.dimensions, REALTIME_SCHEMA);
  if (ranges.length > 1) dimensions = [...dimensions, DATE_RANGE];
  const metrics = parseMetrics(raw.metrics, REALTIME_SCHEMA);
  const filters = parseFilters(raw, REALTIME_SCHEMA);
  const { limit } = parsePaging(raw);
  const aggregations = parseAggregations(raw.metricAggregations);
  const nowMinute = Math.floor(scope.now / 60_000);
  const keyEvents = new Set(scope.keyEventNames);
  const facts: Fact[] = [];
  for (let ago = 0; ago <= MAX_MINUTES_AGO; ago++) {
    for (const hit of hitsOfMinute(scope.dataset.seed, scope.property.id, nowMinute - ago, ago)) {
      facts.push(new RealtimeFact(hit, keyEvents));
    }
  }
  const query: EngineQuery = {
    facts,
    ranges,
    dimensions,
    metrics,
    schema: REALTIME_SCHEMA,
    fx: 1,
    orderBys: parseOrderBys(raw.orderBys, dimensions, metrics),
    keepEmptyRows: false,
    ...filters,
  };
  const rows = aggregate(query);
  const body: Record<string, unknown> = { ...headers(query) };
  if (rows.length > 0) {
    body.rows = rows.slice(0, limit).map((r) => toApiRow(r.dims, r.values, query));
    if (aggregations.has("TOTAL")) body.totals = aggregateRows(rows, query, "TOTAL");
    if (aggregations.has("MAXIMUM")) body.maximums = aggregateRows(rows, query, "MAXIMUM");
    if (aggregations.has("MINIMUM")) body.minimums = aggregateRows(rows, query, "MINIMUM");
    body.rowCount = rows.length;
  }
  body.kind = "analyticsData#runRealtimeReport";
  return { body, cost: { days: 0, dimensions: dimensions.length, rows: rows.length } };
}
