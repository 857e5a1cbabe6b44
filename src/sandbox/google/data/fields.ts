/**
 * The summed base counts of a report row and the fields the data set models directly: how each of
 * these metrics is computed from the base counts, and their compatibility scope. The full catalog of
 * the API schema (names, UI names, descriptions) is schema-catalog.ts; it takes these definitions
 * over for the fields listed here.
 */

export type BaseKey =
  | "eventCount"
  | "sessions"
  | "engagedSessions"
  | "totalUsers"
  | "activeUsers"
  | "newUsers"
  | "engagementSeconds"
  | "screenPageViews"
  | "revenueUsd"
  | "transactions"
  | "keyEvents"
  | "itemsPurchased"
  | "itemRevenueUsd"
  | "addToCarts"
  | "checkouts"
  | "itemViewEvents"
  | "scrolledUsers"
  | "purchasers"
  | "firstTimePurchasers"
  | "keyEventSessions"
  | "keyEventUsers";

/**
 * The summed counts, plus the counts of each key event by name when a report asks for a key-event-specific
 * metric (key-event-metrics.ts): three numbers per key event of the property, in the order the property
 * lists them (events, sessions with it, users with it); empty otherwise.
 */
export type Base = Record<BaseKey, number> & { perKeyEvent: number[] };

/**
 * Which key events a report counts one by one (key-event-metrics.ts), by name: their index in the property's
 * list; empty when the report uses no key-event-specific metric (no per-fact array to fill).
 */
export type NamedKeyEvents = ReadonlyMap<string, number>;

/**
 * A literal so every Base shares one hidden class: reports sum ~10^5 of them. With `named` key events,
 * their counts start at 0 (every fact of a report has the same length, report.ts DISTINCT).
 */
export function emptyBase(named?: NamedKeyEvents): Base {
  return {
    perKeyEvent: named && named.size > 0 ? new Array<number>(3 * named.size).fill(0) : [],
    eventCount: 0,
    sessions: 0,
    engagedSessions: 0,
    totalUsers: 0,
    activeUsers: 0,
    newUsers: 0,
    engagementSeconds: 0,
    screenPageViews: 0,
    revenueUsd: 0,
    transactions: 0,
    keyEvents: 0,
    itemsPurchased: 0,
    itemRevenueUsd: 0,
    addToCarts: 0,
    checkouts: 0,
    itemViewEvents: 0,
    scrolledUsers: 0,
    purchasers: 0,
    firstTimePurchasers: 0,
    keyEventSessions: 0,
    keyEventUsers: 0,
  };
}

/** MetricType values of the discovery document (analyticsdata v1beta, MetricMetadata.type). */
export type MetricType =
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

/**
 * Compatibility scope. Item-scoped fields come from purchase line items; event-scoped dimensions
 * describe one event, so they cannot split item metrics. GA4 documents the same families of
 * incompatibility (item-scoped vs event-scoped) in its Dimensions & Metrics Explorer.
 */
export type Scope = "standard" | "event" | "item";

export interface DimensionDef {
  apiName: string;
  uiName: string;
  description: string;
  category: string;
  scope: Scope;
}

export interface MetricDef {
  apiName: string;
  uiName: string;
  description: string;
  category: string;
  type: MetricType;
  scope: Scope;
  /** `fx` converts US dollars into the report currency. */
  compute(base: Base, fx: number): number;
}

export const ratio = (a: number, b: number): number => (b === 0 ? 0 : a / b);
export const money = (usd: number, fx: number): number => Math.round(usd * fx * 100) / 100;

const dim = (
  apiName: string,
  uiName: string,
  category: string,
  description: string,
  scope: Scope = "standard",
) => ({ apiName, uiName, category, description, scope }) satisfies DimensionDef;

export const MODELLED_DIMENSIONS: readonly DimensionDef[] = [
  dim("date", "Date", "Time", "The date of the event, formatted as YYYYMMDD."),
  dim("year", "Year", "Time", "The four-digit year of the event, e.g. 2024."),
  dim("month", "Month", "Time", "The month of the event, a two-digit integer from 01 to 12."),
  dim("day", "Day", "Time", "The day of the month, a two-digit number from 01 to 31."),
  dim("yearMonth", "Year month", "Time", "The combined values of year and month, e.g. 202402."),
  dim("week", "Week", "Time", "The week of the event, 01 to 53; weeks start on Sunday."),
  dim("dayOfWeek", "Day of week", "Time", "The integer day of the week, 0 (Sunday) to 6."),
  dim("dayOfWeekName", "Day of week name", "Time", "The day of the week in English, e.g. Sunday."),
  dim("country", "Country", "Geography", "The country from which the user activity originated."),
  dim("countryId", "Country ID", "Geography", "The ISO 3166-1 alpha-2 code of the country."),
  dim("continent", "Continent", "Geography", "The continent from which the user activity originated."),
  dim("sessionSource", "Session source", "Traffic Source", "The source that initiated a session."),
  dim("sessionMedium", "Session medium", "Traffic Source", "The medium that initiated a session."),
  dim("sessionSourceMedium", "Session source / medium", "Traffic Source", "Session source and medium."),
  dim("sessionCampaignName", "Session campaign", "Traffic Source", "The campaign that initiated a session."),
  dim("sessionDefaultChannelGroup", "Session default channel group", "Traffic Source", "Default channel."),
  dim("deviceCategory", "Device category", "Platform / Device", "desktop, mobile or tablet."),
  dim("platform", "Platform", "Platform / Device", "The platform on which the app or website ran."),
  dim("hostName", "Hostname", "Page / Screen", "The subdomain and domain names of a URL.", "event"),
  dim(
    "pagePath",
    "Page path",
    "Page / Screen",
    "The portion of the URL between hostname and query.",
    "event",
  ),
  dim("pageTitle", "Page title", "Page / Screen", "The web page titles used on your site.", "event"),
  dim(
    "unifiedScreenName",
    "Page title and screen name",
    "Page / Screen",
    "Page title or screen name.",
    "event",
  ),
  dim("eventName", "Event name", "Event", "The name of the event.", "event"),
  dim("isKeyEvent", "Is key event", "Event", "'true' if the event is a key event.", "event"),
  dim("itemName", "Item name", "Ecommerce", "The name of the item.", "item"),
  dim("itemCategory", "Item category", "Ecommerce", "The hierarchical category of the item.", "item"),
];

const metric = (
  apiName: string,
  uiName: string,
  category: string,
  type: MetricType,
  description: string,
  compute: (b: Base, fx: number) => number,
  scope: Scope = "standard",
) => ({ apiName, uiName, category, type, description, compute, scope }) satisfies MetricDef;

export const MODELLED_METRICS: readonly MetricDef[] = [
  metric(
    "activeUsers",
    "Active users",
    "User",
    "TYPE_INTEGER",
    "Distinct engaged users.",
    (b) => b.activeUsers,
  ),
  metric(
    "totalUsers",
    "Total users",
    "User",
    "TYPE_INTEGER",
    "Distinct users who logged an event.",
    (b) => b.totalUsers,
  ),
  metric(
    "newUsers",
    "New users",
    "User",
    "TYPE_INTEGER",
    "Users who interacted for the first time.",
    (b) => b.newUsers,
  ),
  metric(
    "sessions",
    "Sessions",
    "Session",
    "TYPE_INTEGER",
    "Sessions that began on your site.",
    (b) => b.sessions,
  ),
  metric(
    "engagedSessions",
    "Engaged sessions",
    "Session",
    "TYPE_INTEGER",
    "Engaged sessions.",
    (b) => b.engagedSessions,
  ),
  metric("engagementRate", "Engagement rate", "Session", "TYPE_FLOAT", "Engaged sessions / sessions.", (b) =>
    ratio(b.engagedSessions, b.sessions),
  ),
  metric(
    "bounceRate",
    "Bounce rate",
    "Session",
    "TYPE_FLOAT",
    "Sessions that were not engaged / sessions.",
    (b) => (b.sessions === 0 ? 0 : 1 - ratio(b.engagedSessions, b.sessions)),
  ),
  metric(
    "averageSessionDuration",
    "Average session duration",
    "Session",
    "TYPE_SECONDS",
    "Seconds per session.",
    (b) => ratio(b.engagementSeconds, b.sessions),
  ),
  metric("sessionsPerUser", "Sessions per user", "Session", "TYPE_FLOAT", "Sessions / active users.", (b) =>
    ratio(b.sessions, b.activeUsers),
  ),
  metric(
    "userEngagementDuration",
    "User engagement",
    "User",
    "TYPE_SECONDS",
    "Total engagement time.",
    (b) => b.engagementSeconds,
  ),
  metric(
    "screenPageViews",
    "Views",
    "Page / Screen",
    "TYPE_INTEGER",
    "Web pages or screens viewed.",
    (b) => b.screenPageViews,
  ),
  metric(
    "screenPageViewsPerSession",
    "Views per session",
    "Page / Screen",
    "TYPE_FLOAT",
    "Views / sessions.",
    (b) => ratio(b.screenPageViews, b.sessions),
  ),
  metric("eventCount", "Event count", "Event", "TYPE_INTEGER", "The count of events.", (b) => b.eventCount),
  metric("eventsPerSession", "Events per session", "Event", "TYPE_FLOAT", "Events / sessions.", (b) =>
    ratio(b.eventCount, b.sessions),
  ),
  metric("eventCountPerUser", "Event count per user", "Event", "TYPE_FLOAT", "Events / active users.", (b) =>
    ratio(b.eventCount, b.activeUsers),
  ),
  metric("keyEvents", "Key events", "Event", "TYPE_INTEGER", "The count of key events.", (b) => b.keyEvents),
  metric(
    "totalRevenue",
    "Total revenue",
    "Revenue",
    "TYPE_CURRENCY",
    "Purchase, ad and subscription revenue.",
    (b, fx) => money(b.revenueUsd, fx),
  ),
  metric(
    "purchaseRevenue",
    "Purchase revenue",
    "Revenue",
    "TYPE_CURRENCY",
    "Revenue from purchases.",
    (b, fx) => money(b.revenueUsd, fx),
  ),
  metric(
    "transactions",
    "Transactions",
    "Ecommerce",
    "TYPE_INTEGER",
    "Transaction events with revenue.",
    (b) => b.transactions,
  ),
  metric(
    "ecommercePurchases",
    "Ecommerce purchases",
    "Ecommerce",
    "TYPE_INTEGER",
    "Purchases completed.",
    (b) => b.transactions,
  ),
  metric(
    "itemsPurchased",
    "Items purchased",
    "Ecommerce",
    "TYPE_INTEGER",
    "Units in purchase events.",
    (b) => b.itemsPurchased,
    "item",
  ),
  metric(
    "itemRevenue",
    "Item revenue",
    "Ecommerce",
    "TYPE_CURRENCY",
    "Revenue from items only.",
    (b, fx) => money(b.itemRevenueUsd, fx),
    "item",
  ),
];

/** Dimensions that exist only in the Realtime schema: valid there, rejected in core reports. */
export const REALTIME_ONLY_DIMENSIONS: readonly string[] = ["minutesAgo"];
