/**
 * The words a marketer searches the step bar with for a report (newcomer trial s7, finding 5: "sales by
 * country", "revenue", "purchases" found no step). Each field is named as GA4's UI and API name it
 * (the Data API schema, https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema:
 * purchaseRevenue "Purchase revenue", ecommercePurchases "Ecommerce purchases", country "Country", ...),
 * with a few everyday words for it: "sales" and "revenue" are Purchase revenue, which the schema defines as
 * "the sum of revenue from purchases minus refunded transaction revenue", and "purchases" and "orders" are
 * Ecommerce purchases, "the number of times users completed a purchase" (same page).
 * Words another service's steps answer too ("campaign", "event", "page", "source")
 * are left out unless GA4's own name says them ("session campaign", "page path").
 */

interface ReportField {
  /** GA4's API name, as the report's input names it. */
  api: string;
  /** GA4's UI name, as the reason says it. */
  name: string;
  kind: "metric" | "dimension";
  /** Phrases that find it, in lower case (the API name and the UI name count too). */
  words: readonly string[];
}

/** By API name. */
const NAMED: Readonly<Record<string, Omit<ReportField, "api">>> = {
  purchaseRevenue: { name: "Purchase revenue", kind: "metric", words: ["sales", "revenue"] },
  totalRevenue: { name: "Total revenue", kind: "metric", words: [] },
  ecommercePurchases: { name: "Ecommerce purchases", kind: "metric", words: ["purchases", "orders"] },
  transactions: { name: "Transactions", kind: "metric", words: [] },
  itemsPurchased: { name: "Items purchased", kind: "metric", words: ["units sold"] },
  sessions: { name: "Sessions", kind: "metric", words: ["visits"] },
  activeUsers: { name: "Active users", kind: "metric", words: ["visitors"] },
  totalUsers: { name: "Total users", kind: "metric", words: [] },
  newUsers: { name: "New users", kind: "metric", words: [] },
  screenPageViews: { name: "Views", kind: "metric", words: ["page views", "pageviews"] },
  engagementRate: { name: "Engagement rate", kind: "metric", words: [] },
  bounceRate: { name: "Bounce rate", kind: "metric", words: ["bounces"] },
  keyEvents: { name: "Key events", kind: "metric", words: ["conversions"] },
  country: { name: "Country", kind: "dimension", words: [] },
  region: { name: "Region", kind: "dimension", words: [] },
  city: { name: "City", kind: "dimension", words: [] },
  language: { name: "Language", kind: "dimension", words: [] },
  deviceCategory: {
    name: "Device category",
    kind: "dimension",
    words: ["device", "mobile", "desktop", "tablet"],
  },
  browser: { name: "Browser", kind: "dimension", words: [] },
  pagePath: { name: "Page path", kind: "dimension", words: [] },
  landingPage: { name: "Landing page", kind: "dimension", words: [] },
  sessionSource: { name: "Session source", kind: "dimension", words: ["traffic source"] },
  sessionMedium: { name: "Session medium", kind: "dimension", words: [] },
  sessionDefaultChannelGroup: {
    name: "Session default channel group",
    kind: "dimension",
    words: ["channel"],
  },
  sessionCampaignName: { name: "Session campaign", kind: "dimension", words: [] },
  itemName: { name: "Item name", kind: "dimension", words: ["product"] },
  date: { name: "Date", kind: "dimension", words: ["day", "daily"] },
  week: { name: "Week", kind: "dimension", words: ["weekly"] },
  month: { name: "Month", kind: "dimension", words: ["monthly"] },
};

const FIELDS: Readonly<Record<string, ReportField>> = Object.fromEntries(
  Object.entries(NAMED).map(([api, field]) => [api, { api, ...field }]),
);

/** A word without its plural ending, so "countries" is "country" and "visits" "visit". */
function singular(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

const wordsOf = (text: string) => (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).map(singular);

/** Every phrase that finds a field, longest first, so "purchase revenue" is one field and not two. */
const PHRASES = Object.entries(FIELDS)
  .flatMap(([api, field]) =>
    [api, field.name, ...field.words].map((phrase) => ({ words: wordsOf(phrase), field })),
  )
  .sort((a, b) => b.words.length - a.words.length);

/** The fields a query names, in the query's order, each once. */
function fieldsNamed(query: string): ReportField[] {
  const asked: (string | undefined)[] = wordsOf(query);
  const found: { at: number; field: ReportField }[] = [];
  for (const phrase of PHRASES) {
    for (let at = 0; at + phrase.words.length <= asked.length; at++) {
      if (!phrase.words.every((word, i) => asked[at + i] === word)) continue;
      found.push({ at, field: phrase.field });
      asked.fill(undefined, at, at + phrase.words.length);
    }
  }
  const typing = typedPhrase(asked);
  if (typing) found.push(typing);
  const inOrder = found.sort((a, b) => a.at - b.at).map(({ field }) => field);
  return [...new Set(inOrder)];
}

/**
 * The field a query's end begins while the person is still typing it ("landi", "landing p" for Landing page;
 * trial s13, finding 1): its last words begin a phrase, the last one in part (3 letters at least when alone);
 * the shortest such phrase, so "sess" is Sessions. A whole last word ("traffic") is not read as begun.
 */
function typedPhrase(asked: readonly (string | undefined)[]): { at: number; field: ReportField } | undefined {
  for (let at = asked.length - 1; at >= 0 && asked[at] !== undefined; at--) {
    const typed = asked.slice(at) as string[];
    const last = typed.length - 1;
    if (typed.length === 1 && (typed[0] ?? "").length < 3) continue;
    const begins = (phrase: { words: string[] }) =>
      phrase.words.length >= typed.length &&
      phrase.words[last] !== typed[last] &&
      typed.every((word, i) => (i === last ? phrase.words[i]?.startsWith(word) : phrase.words[i] === word));
    const length = (phrase: { words: string[] }) => phrase.words.join(" ").length;
    const [begun] = PHRASES.filter(begins).sort((a, b) => length(a) - length(b));
    if (begun) return { at, field: begun.field };
  }
  return undefined;
}

/**
 * Why Run Reports answers a query that names GA4 measures or breakdowns in a marketer's words:
 * "Purchase revenue by Country" for "sales by country"; nothing for a query that names none.
 */
export function reportSearchReason(query: string): string | undefined {
  const fields = fieldsNamed(query);
  if (fields.length === 0) return undefined;
  const metrics = fields.filter((field) => field.kind === "metric").map((field) => field.name);
  const dimensions = fields.filter((field) => field.kind === "dimension").map((field) => field.name);
  if (dimensions.length === 0) return metrics.join(", ");
  return `${metrics.length > 0 ? metrics.join(", ") : "A measure"} by ${dimensions.join(", ")}`;
}

/**
 * The report the reason reads as, as Run Reports' input: its metrics and dimensions by API name, for the console
 * to fill the form with (trial s9, finding 1: a click on "Purchase revenue by Country" opened an empty form).
 * Only what the query named: "A measure by Country" leaves the metric to the person.
 */
export function reportSearchInput(query: string): Record<string, unknown> | undefined {
  const fields = fieldsNamed(query);
  if (fields.length === 0) return undefined;
  const of = (kind: ReportField["kind"]) =>
    fields.filter((field) => field.kind === kind).map(({ api }) => api);
  const [metrics, dimensions] = [of("metric"), of("dimension")];
  return { ...(metrics.length > 0 ? { metrics } : {}), ...(dimensions.length > 0 ? { dimensions } : {}) };
}
