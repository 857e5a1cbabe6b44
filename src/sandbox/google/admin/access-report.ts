/**
 * Data access reports (properties/{p}:runAccessReport and accounts/{a}:runAccessReport): who read
 * reporting data, computed from the Data API reads this sandbox served (the Data API side records
 * each report read). Fields from the Data Access Schema
 * (https://developers.google.com/analytics/devguides/config/admin/v1/access-api-schema): the
 * dimensions below and the metric accessCount; request and response shapes from analyticsadmin
 * v1beta's RunAccessReportRequest / RunAccessReportResponse, the property's quota with
 * `returnEntityQuota` (access-quota.ts). Filters and orderBys are refused with a 400 that says so; rows
 * are ordered by accessCount, largest first.
 */
import { invalidArgument, parseJsonObject } from "../http.js";
import type { WorldAccess, WorldProperty } from "../model.js";
import { chargeAccessReport } from "./access-quota.js";
import { type AdminRequest, authorize, requireAccountRole, requireProperty } from "./context.js";
import { rejectUnknownFields } from "./validate.js";

const SCHEMA_URL = "https://developers.google.com/analytics/devguides/config/admin/v1/access-api-schema";
const DAY_MS = 86_400_000;
const MAX_RANGES = 2;
const DEFAULT_LIMIT = 10_000;

type Dimension = (a: WorldAccess, property: WorldProperty | undefined) => string;

const pad = (n: number): string => String(n).padStart(2, "0");

const DIMENSIONS: Record<string, Dimension> = {
  accessDateHour: (a) => {
    const d = new Date(a.at);
    return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}`;
  },
  accessMechanism: () => "Google Analytics API",
  accessedPropertyId: (a) => a.propertyId,
  accessedPropertyName: (_, p) => p?.displayName ?? "",
  accessorAppName: () => "Google Analytics Data API",
  costDataReturned: () => "false",
  revenueDataReturned: (a) => (a.realtime ? "false" : "true"),
  userEmail: (a) => a.email,
  epochTimeMicros: (a) => String(a.at * 1000),
};
const METRICS = ["accessCount"];

function names(raw: unknown, key: string, field: string, known: readonly string[]): string[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw invalidArgument(`${key} must be a list.`);
  return raw.map((item, i) => {
    const name =
      typeof item === "object" && item !== null ? (item as Record<string, unknown>)[field] : undefined;
    if (typeof name !== "string" || !known.includes(name)) {
      throw invalidArgument(
        `${key}[${i}].${field} '${String(name)}' is not a valid ${key.slice(0, -1)} of the Data Access Schema (${SCHEMA_URL}). This sandbox serves ${known.join(", ")}.`,
      );
    }
    return name;
  });
}

/** YYYY-MM-DD, NdaysAgo, yesterday or today, as UTC days. */
function day(value: unknown, today: number, at: string): number {
  if (value === "today") return today;
  if (value === "yesterday") return today - 1;
  const ago = typeof value === "string" ? /^(\d+)daysAgo$/.exec(value) : null;
  if (ago) return today - Number(ago[1]);
  const ms =
    typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : NaN;
  if (Number.isNaN(ms)) throw invalidArgument(`${at} must be YYYY-MM-DD, NdaysAgo, yesterday or today.`);
  return Math.floor(ms / DAY_MS);
}

function ranges(raw: unknown, now: number): { from: number; to: number }[] {
  const today = Math.floor(now / DAY_MS);
  if (raw === undefined) return [{ from: today - 28, to: today }];
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_RANGES)
    throw invalidArgument(`dateRanges must hold 1 to ${MAX_RANGES} ranges.`);
  return raw.map((r, i) => {
    const range = (r ?? {}) as Record<string, unknown>;
    const from = day(range.startDate, today, `dateRanges[${i}].startDate`);
    const to = day(range.endDate, today, `dateRanges[${i}].endDate`);
    if (from > to) throw invalidArgument(`dateRanges[${i}]: startDate cannot be after endDate.`);
    return { from, to };
  });
}

function paging(json: Record<string, unknown>): { offset: number; limit: number } {
  const offset = Number(json.offset ?? 0);
  const limit = Number(json.limit ?? DEFAULT_LIMIT);
  if (!Number.isInteger(offset) || offset < 0)
    throw invalidArgument("offset must be a non-negative integer.");
  if (!Number.isInteger(limit) || limit < 1 || limit > 100_000)
    throw invalidArgument("limit must be an integer from 1 to 100,000.");
  return { offset, limit };
}

function report(
  r: AdminRequest,
  accesses: WorldAccess[],
  single: WorldProperty | undefined,
): Record<string, unknown> {
  const json = parseJsonObject(r.body);
  const quota = entityQuota(r, json, single);
  rejectUnknownFields(
    json,
    [
      "dimensions",
      "metrics",
      "dateRanges",
      "dimensionFilter",
      "metricFilter",
      "offset",
      "limit",
      "timeZone",
      "orderBys",
      "returnEntityQuota",
      "includeAllUsers",
      "expandGroups",
    ],
    "",
  );
  for (const key of ["dimensionFilter", "metricFilter", "orderBys"]) {
    if (json[key] !== undefined)
      throw invalidArgument(`${key} is not supported by this sandbox emulator; remove it from the request.`);
  }
  const dims = names(json.dimensions, "dimensions", "dimensionName", Object.keys(DIMENSIONS));
  const metrics = names(json.metrics, "metrics", "metricName", METRICS);
  const windows = ranges(json.dateRanges, r.ctx.now());
  const { offset, limit } = paging(json);
  const groups = new Map<string, { values: string[]; count: number }>();
  for (const a of accesses) {
    const d = Math.floor(a.at / DAY_MS);
    if (!windows.some((w) => d >= w.from && d <= w.to)) continue;
    const property = single ?? r.ctx.world.property(a.propertyId);
    const values = dims.map((name) => DIMENSIONS[name]?.(a, property) ?? "");
    const key = values.join("\u0000");
    const group = groups.get(key) ?? { values, count: 0 };
    group.count++;
    groups.set(key, group);
  }
  const rows = [...groups.values()].sort((a, b) => b.count - a.count);
  const body: Record<string, unknown> = {};
  if (dims.length > 0) body.dimensionHeaders = dims.map((dimensionName) => ({ dimensionName }));
  if (metrics.length > 0) body.metricHeaders = metrics.map((metricName) => ({ metricName }));
  const page = rows.slice(offset, offset + limit);
  if (page.length > 0) {
    body.rows = page.map((row) => ({
      ...(dims.length > 0 ? { dimensionValues: row.values.map((value) => ({ value })) } : {}),
      ...(metrics.length > 0 ? { metricValues: metrics.map(() => ({ value: String(row.count) })) } : {}),
    }));
  }
  if (rows.length > 0) body.rowCount = rows.length;
  if (quota) body.quota = quota;
  return body;
}

/**
 * `returnEntityQuota`: the property's AccessQuota in the answer (access-quota.ts); an account-level
 * request must leave it false (RunAccessReportRequest.returnEntityQuota), else 400 INVALID_ARGUMENT.
 */
function entityQuota(
  r: AdminRequest,
  json: Record<string, unknown>,
  single: WorldProperty | undefined,
): Record<string, unknown> | undefined {
  const wanted = json.returnEntityQuota;
  if (wanted === undefined || wanted === null || wanted === false) return undefined;
  if (wanted !== true)
    throw invalidArgument(`Invalid value at 'return_entity_quota' (TYPE_BOOL), ${JSON.stringify(wanted)}`);
  if (!single)
    throw invalidArgument(
      "returnEntityQuota must be false for an account-level access report: ask properties/{property}:runAccessReport for a property's quota.",
    );
  return chargeAccessReport(r.ctx.world, single.id, r.ctx.now());
}

export function runPropertyAccessReport(r: AdminRequest): Record<string, unknown> {
  const caller = authorize(r, "RunAccessReport", false);
  // The sandbox shows access records to administrators only: they list other users' activity. (Assumed,
  // not confirmed from a published source here; the discovery document names no role.)
  const property = requireProperty(r.ctx, caller, r.params.property ?? "", "administrator");
  return report(
    r,
    r.ctx.world.accesses.filter((a) => a.propertyId === property.id),
    property,
  );
}

export function runAccountAccessReport(r: AdminRequest): Record<string, unknown> {
  const caller = authorize(r, "RunAccessReport", false);
  const account = requireAccountRole(r.ctx, caller, r.params.account ?? "", "administrator");
  const ids = new Set(r.ctx.world.propertiesOf(account.id).map((p) => p.id));
  return report(
    r,
    r.ctx.world.accesses.filter((a) => ids.has(a.propertyId)),
    undefined,
  );
}
