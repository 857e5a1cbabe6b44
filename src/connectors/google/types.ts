import type { CheckedPath } from "../endpoint-guard.js";
/**
 * Request options of the GA4 connector, and response types of the Data API v1beta methods it wraps,
 * per the discovery document analyticsdata.v1beta (rev 20241117). Proto3 omits default values, so
 * every field is optional: an empty report has no `rows` and may have no `rowCount` (REAL-API B2).
 */

export type GoogleApi = "data" | "admin";

export type QueryValue = string | number | boolean;

export interface GoogleRequest {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** "v1beta/..." or "/v1beta/...": a path of the API, never a URL; checked once per request unless a CheckedPath already. */
  path: string | CheckedPath;
  query?: Record<string, QueryValue | ReadonlyArray<QueryValue> | undefined>;
  body?: unknown;
  signal?: AbortSignal;
}

export type MetricType =
  | "METRIC_TYPE_UNSPECIFIED"
  | "TYPE_INTEGER"
  | "TYPE_FLOAT"
  | "TYPE_SECONDS"
  | "TYPE_MILLISECONDS"
  | "TYPE_MINUTES"
  | "TYPE_HOURS"
  | "TYPE_STANDARD"
  | "TYPE_CURRENCY"
  | "TYPE_FEET"
  | "TYPE_MILES"
  | "TYPE_METERS"
  | "TYPE_KILOMETERS";

export interface QuotaStatus {
  consumed?: number;
  remaining?: number;
}

export const QUOTA_KINDS = [
  "tokensPerDay",
  "tokensPerHour",
  "concurrentRequests",
  "serverErrorsPerProjectPerHour",
  "potentiallyThresholdedRequestsPerHour",
  "tokensPerProjectPerHour",
] as const;

export type QuotaKind = (typeof QUOTA_KINDS)[number];

export type PropertyQuota = Partial<Record<QuotaKind, QuotaStatus>>;

export interface DimensionHeader {
  name?: string;
}

export interface MetricHeader {
  name?: string;
  type?: MetricType;
}

export interface Row {
  dimensionValues?: { value?: string }[];
  /** Metric values are strings, even integers ("15"). */
  metricValues?: { value?: string }[];
}

export interface ResponseMetaData {
  currencyCode?: string;
  timeZone?: string;
  dataLossFromOtherRow?: boolean;
  emptyReason?: string;
  subjectToThresholding?: boolean;
  samplingMetadatas?: { samplesReadCount?: string; samplingSpaceSize?: string }[];
  schemaRestrictionResponse?: {
    activeMetricRestrictions?: { metricName?: string; restrictedMetricTypes?: string[] }[];
  };
}

export interface RunReportResponse {
  kind?: string;
  dimensionHeaders?: DimensionHeader[];
  metricHeaders?: MetricHeader[];
  rows?: Row[];
  totals?: Row[];
  maximums?: Row[];
  minimums?: Row[];
  /** Total rows regardless of limit and offset; omitted when 0. */
  rowCount?: number;
  metadata?: ResponseMetaData;
  propertyQuota?: PropertyQuota;
}

/** Same as a report, without `metadata` (discovery: RunRealtimeReportResponse). */
export type RunRealtimeReportResponse = Omit<RunReportResponse, "metadata">;

export interface DimensionMetadata {
  apiName?: string;
  uiName?: string;
  description?: string;
  category?: string;
  customDefinition?: boolean;
  deprecatedApiNames?: string[];
}

export interface MetricMetadata extends DimensionMetadata {
  type?: MetricType;
  expression?: string;
  blockedReasons?: string[];
}

export interface Metadata {
  name?: string;
  dimensions?: DimensionMetadata[];
  metrics?: MetricMetadata[];
  comparisons?: { apiName?: string; uiName?: string; description?: string }[];
}

export type Compatibility = "COMPATIBILITY_UNSPECIFIED" | "COMPATIBLE" | "INCOMPATIBLE";

export interface CheckCompatibilityResponse {
  dimensionCompatibilities?: { dimensionMetadata?: DimensionMetadata; compatibility?: Compatibility }[];
  metricCompatibilities?: { metricMetadata?: MetricMetadata; compatibility?: Compatibility }[];
}

/** The last `propertyQuota` seen for a property. */
/** What a report needs of a property (Admin API v1beta Property): its time zone and creation instant. */
export interface PropertyFacts {
  /** IANA zone, the day boundary of its reports. */
  timeZone?: string;
  /** RFC 3339 instant the property was created; it holds no data from before it. */
  createTime?: string;
}

export interface PropertyQuotaSnapshot {
  propertyId: string;
  /** Realtime reports draw on a separate quota (REAL-API B5). */
  kind: "core" | "realtime";
  /** ISO time the snapshot was taken. */
  seenAt: string;
  quotas: PropertyQuota;
}

export interface ListOptions {
  /** Stop after this many pages (default 50); the next page token is returned. */
  maxPages?: number;
  /** Stop once this many items were collected; the next page token is returned. */
  maxItems?: number;
  signal?: AbortSignal;
}
