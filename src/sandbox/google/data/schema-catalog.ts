/**
 * The full core-reporting catalog: every dimension and metric of Google's API schema page
 * (https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema, kept in
 * api-schema.json with its source and retrieval date), with
 * - the 2024 rename of conversions to key events applied (Data API changelog, March 2024:
 *   https://developers.google.com/analytics/devguides/reporting/data/v1/changelog), the old names kept
 *   as deprecatedApiNames as GET metadata lists them;
 * - a category and, for metrics, a MetricType: the page has neither column, so both follow from the
 *   name by the rules below, which give the categories getMetadata uses (Time, Geography, Traffic
 *   source, Platform / Device, Page / Screen, Ecommerce, ...);
 * - a compatibility scope (item, event or standard) and a way to compute each value: fields.ts for the
 *   fields the data set models, metric-formulas.ts and generators.ts for the rest.
 */
import schema from "./api-schema.json" with { type: "json" };
import {
  type DimensionDef,
  type MetricDef,
  type MetricType,
  MODELLED_DIMENSIONS,
  MODELLED_METRICS,
  type Scope,
} from "./fields.js";
import { FORMULAS, formulaOf } from "./metric-formulas.js";

export interface CatalogDimension extends DimensionDef {
  deprecatedApiNames?: string[];
}

export interface CatalogMetric extends MetricDef {
  deprecatedApiNames?: string[];
}

/**
 * Changelog 2024-03: "conversions" became "key events" in names (old name → new name); the rows of the
 * 2023-2024 transcription still carry the old names.
 */
const RENAMED: Readonly<Record<string, string>> = {
  conversions: "keyEvents",
  isConversionEvent: "isKeyEvent",
  sessionConversionRate: "sessionKeyEventRate",
  userConversionRate: "userKeyEventRate",
  advertiserAdCostPerConversion: "advertiserAdCostPerKeyEvent",
};

/**
 * Fields the page's current edition lists under a new name (current name → the name it replaced): the
 * 2024 renames of the purchaser rates. The old names stay usable, listed as deprecatedApiNames.
 */
const PREVIOUS: Readonly<Record<string, string>> = {
  purchaserRate: "purchaserConversionRate",
  firstTimePurchaserRate: "firstTimePurchaserConversionRate",
};

/** First matching rule wins; the name is tested as written in the schema. */
const DIMENSION_CATEGORIES: readonly [RegExp, string][] = [
  [/^cohort/, "Cohort"],
  [/^(date|day|hour|minute|month|week|year|iso|nth)/, "Time"],
  [/^(city|continent|country|region)/, "Geography"],
  [/^(language|userAge|userGender|brandingInterest)/, "Demographics"],
  [
    /^(browser|device|mobile|operatingSystem|platform|screenResolution|appVersion|stream)/,
    "Platform / Device",
  ],
  [/^(page|landingPage|fullPageUrl|hostName|unified|content)/, "Page / Screen"],
  [
    /^(session|firstUser|source|medium|campaign|defaultChannel|primaryChannel|googleAds|manual|cm360|dv360|sa360)/,
    "Traffic source",
  ],
  [/^(item|transactionId|orderCoupon|shippingTier|currencyCode)/, "Ecommerce"],
  [/^(link|outbound|file)/, "Link"],
  [/^(video|visible)/, "Video"],
  [/^(achievementId|character|groupId|level|virtualCurrency)/, "Gaming"],
  [/^ad(Format|Source|Unit)/, "Publisher"],
  [/^(audience|newVsReturning|signedIn|firstSessionDate)/, "User"],
  [/^(event|isConversion|isKeyEvent|method|percentScrolled|searchTerm)/, "Event"],
];

const METRIC_CATEGORIES: readonly [RegExp, string][] = [
  [/^cohort/, "Cohort"],
  [/^(sessions|engaged|engagementRate|bounceRate|averageSessionDuration|sessionConversion)/, "Session"],
  [/^(event|conversions|userConversion)/, "Event"],
  [/^screenPageViews/, "Page / Screen"],
  [/^(totalRevenue|purchaseRevenue|grossPurchaseRevenue|average)/, "Revenue"],
  [/^(advertiser|returnOnAdSpend|organicGoogle)/, "Advertising"],
  [/^(publisher|totalAdRevenue|adUnit)/, "Publisher"],
  [
    /^(item|addToCarts|checkouts|ecommerce|promotion|purchase|transactions|firstTime|totalPurchasers|cartToView|shipping|tax|refund|grossItem)/,
    "Ecommerce",
  ],
];

function categoryOf(name: string, rules: readonly [RegExp, string][], fallback: string): string {
  return rules.find(([pattern]) => pattern.test(name))?.[1] ?? fallback;
}

/** TYPE_CURRENCY for money, TYPE_SECONDS / TYPE_MILLISECONDS for durations, TYPE_FLOAT for rates and averages. */
function typeOf(name: string): MetricType {
  if (name === "adUnitExposure") return "TYPE_MILLISECONDS";
  if (/Duration$/.test(name)) return "TYPE_SECONDS";
  if (/(Revenue|Cost|Amount|CostPer\w+)$|^average.*Revenue|^averageRevenuePerUser$/.test(name))
    return "TYPE_CURRENCY";
  if (/(Rate|Per[A-Z]\w*|OnAdSpend|AveragePosition|^eventValue)$|^(dau|wau)Per/.test(name))
    return "TYPE_FLOAT";
  return "TYPE_INTEGER";
}

/** Item-scoped fields come from purchase line items; event-scoped dimensions describe one event. */
function dimensionScope(name: string, category: string): Scope {
  if (category === "Ecommerce" && name.startsWith("item")) return "item";
  if (
    ["Page / Screen", "Event", "Link", "Video", "Gaming"].includes(category) &&
    !name.startsWith("landingPage")
  )
    return "event";
  if (["transactionId", "orderCoupon", "shippingTier", "currencyCode"].includes(name)) return "event";
  return "standard";
}

function metricScope(name: string): Scope {
  return /^(items[A-Z]|itemRevenue|grossItemRevenue|itemRefundAmount|itemDiscountAmount)/.test(name)
    ? "item"
    : "standard";
}

type Row = [string, string, string];
const rows = (list: unknown): Row[] => list as Row[];

function buildDimensions(): CatalogDimension[] {
  const modelled = new Map(MODELLED_DIMENSIONS.map((d) => [d.apiName, d]));
  return rows(schema.dimensions).map(([written, uiName, description]) => {
    const apiName = RENAMED[written] ?? written;
    const category = categoryOf(written, DIMENSION_CATEGORIES, "General");
    const def: CatalogDimension = {
      apiName,
      uiName: modelled.get(apiName)?.uiName ?? uiName,
      description,
      category,
      scope: modelled.get(apiName)?.scope ?? dimensionScope(apiName, category),
    };
    if (apiName !== written) def.deprecatedApiNames = [written];
    return def;
  });
}

function buildMetrics(): CatalogMetric[] {
  const modelled = new Map(MODELLED_METRICS.map((m) => [m.apiName, m]));
  return rows(schema.metrics).map(([written, uiName, description]) => {
    const apiName = RENAMED[written] ?? written;
    const known = modelled.get(apiName);
    const def: CatalogMetric = {
      apiName,
      uiName: known?.uiName ?? uiName,
      description,
      category: categoryOf(written, METRIC_CATEGORIES, "User"),
      type: known?.type ?? typeOf(written),
      scope: known?.scope ?? metricScope(apiName),
      compute: known?.compute ?? formulaOf(apiName),
    };
    const previous = apiName !== written ? written : PREVIOUS[apiName];
    if (previous) def.deprecatedApiNames = [previous];
    return def;
  });
}

export const DIMENSIONS: readonly CatalogDimension[] = buildDimensions();
export const METRICS: readonly CatalogMetric[] = buildMetrics();
export const DIMENSION_BY_NAME: ReadonlyMap<string, CatalogDimension> = new Map(
  DIMENSIONS.map((d) => [d.apiName, d]),
);
export const METRIC_BY_NAME: ReadonlyMap<string, CatalogMetric> = new Map(METRICS.map((m) => [m.apiName, m]));

/**
 * A metric by one of its deprecatedApiNames (`conversions` for `keyEvents`): GA's metadata lists them as
 * "still usable but deprecated names for this metric"
 * (https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/Metadata#metricmetadata),
 * so a report that uses one is answered as with the current name.
 */
export const METRIC_BY_DEPRECATED_NAME: ReadonlyMap<string, CatalogMetric> = new Map(
  METRICS.flatMap((m) => (m.deprecatedApiNames ?? []).map((old) => [old, m] as const)),
);

/** Cohort fields need a cohortSpec, which this sandbox does not emulate. */
export function isCohortField(name: string): boolean {
  return name.startsWith("cohort");
}

/** Names with a formula of their own (the rest of the page's metrics are 0 here). */
export const COMPUTED_METRICS: readonly string[] = [
  ...MODELLED_METRICS.map((m) => m.apiName),
  ...Object.keys(FORMULAS),
];
