import { z } from "zod";
import { cursorInput, QueryScalar } from "./common.js";

/**
 * Inputs and outputs of the four GA4 tool steps. The `account` field is added by each step (an enum of
 * the workspace's connected accounts, see src/tools/ga/account-field.ts); these objects hold the rest.
 */

/** A flattened report cell: metrics are numbers, dimensions strings; null when GA sent no value. */
export const RowValue = z.union([z.string(), z.number(), z.null()]);

export const DATE_PRESETS = [
  "today",
  "yesterday",
  "last7days",
  "last14days",
  "last28days",
  "last30days",
  "last90days",
  "last365days",
  "thisWeek",
  "lastWeek",
  "thisMonth",
  "lastMonth",
  "thisQuarter",
  "lastQuarter",
  "thisYear",
  "lastYear",
] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

// Values the Data API accepts in startDate/endDate (REAL-API B2), evaluated in the property's time zone.
const DATE_VALUE = /^(\d{4}-\d{2}-\d{2}|\d{1,4}daysAgo|yesterday|today)$/;
// Range names may not start with date_range_ or RESERVED_ (discovery: DateRange.name, MinuteRange.name).
const Trimmed = z.string().trim();
const RangeName = z
  .string()
  .regex(/^(?!date_range_|RESERVED_)[A-Za-z0-9_\- ]{1,64}$/, "not date_range_/RESERVED_…");
const DateValue = z.string().regex(DATE_VALUE, "use YYYY-MM-DD, NdaysAgo, yesterday or today");
const FieldName = Trimmed.regex(/^[A-Za-z][A-Za-z0-9_:.]{0,199}$/, "an API name such as sessions");
const NumberIn = (min: number, max: number) => z.int().min(min).max(max);

// Union messages name every accepted form; the error adds what was received (src/tools/input/errors.ts).
export const DateRangeInput = z.union(
  [
    z.enum(DATE_PRESETS),
    z.strictObject({
      start_date: DateValue.describe(
        "First day: YYYY-MM-DD, NdaysAgo (e.g. 30daysAgo), yesterday or today.",
      ).meta({
        title: "Start date",
        examples: ["2026-01-01", "28daysAgo"],
      }),
      end_date: DateValue.describe("Last day, inclusive: YYYY-MM-DD, NdaysAgo, yesterday or today.").meta({
        title: "End date",
        examples: ["yesterday"],
      }),
      name: RangeName.optional()
        .describe("Optional label; rows then carry it in a dateRange column.")
        .meta({ title: "Label", examples: ["last 28 days"] }),
    }),
  ],
  {
    error: `expected a preset (${DATE_PRESETS.join(", ")}) or {start_date, end_date, name?}`,
  },
);

/** DimensionOrderBy.orderType (REAL-API B2): how dimension values compare. */
export const ORDER_TYPES = ["ALPHANUMERIC", "CASE_INSENSITIVE_ALPHANUMERIC", "NUMERIC"] as const;

const OrderByItem = z.union(
  [
    Trimmed.regex(/^-?[A-Za-z][A-Za-z0-9_:.]{0,199}$/, 'a field name, "-" first for descending'),
    z.strictObject({
      field: FieldName.describe("A metric or dimension of this report.").meta({
        title: "Field",
        examples: ["sessions"],
      }),
      desc: z
        .boolean()
        .default(false)
        .describe("Descending when true.")
        .meta({ title: "Descending", examples: [true] }),
      order_type: z
        .enum(ORDER_TYPES)
        .optional()
        .describe("Dimensions only. Default ALPHANUMERIC.")
        .meta({ title: "Order type", examples: ["NUMERIC"] }),
    }),
  ],
  { error: 'expected a field name ("-sessions" for descending) or {field, desc?, order_type?}' },
);

const PropertyField = Trimmed.min(1)
  .max(500)
  .describe(
    'GA4 property: its ID ("123456789", "properties/123456789", a GA page URL with #/p123456789/) or its ' +
      "display name (any case). Not a G- measurement ID.",
  )
  .meta({ title: "Property", examples: ["123456789"] });

/** A filter in the simple syntax, as `filter` takes it (and each of dimensionFilter / metricFilter). */
export const FilterText = Trimmed.min(1).max(2000);

export const RunReportsFields = z.strictObject({
  property: PropertyField,
  metrics: z
    .array(FieldName.meta({ title: "Metric" }))
    .max(10)
    .default([])
    .describe("1–10 metric API names, e.g. sessions, activeUsers, keyEvents.")
    .meta({ title: "Metrics", examples: [["sessions", "activeUsers"]] }),
  dimensions: z
    .array(FieldName.meta({ title: "Dimension" }))
    .max(9)
    .default([])
    .describe("0–9 dimension API names, e.g. date, country, pagePath.")
    .meta({ title: "Dimensions", examples: [["date", "country"]] }),
  date_ranges: z
    .array(DateRangeInput)
    .min(1)
    .max(4)
    .optional()
    .describe(
      "1–4 periods, each a preset or {start_date, end_date, name?}. Default: the last 7 days ending yesterday. " +
        '"lastNdays" presets end yesterday; calendar presets (thisMonth, lastWeek...) are resolved in the property\'s ' +
        "time zone (UTC when it cannot be read, with a warning).",
    )
    .meta({ title: "Date ranges", examples: [["last28days"]] }),
  filter: z
    .union([FilterText, z.record(z.string(), z.unknown())], {
      error: 'expected a filter expression such as country == "France", or a GA FilterExpression object',
    })
    .optional()
    .describe(
      'Rows to keep: an expression such as country == "France" and sessions > 10, pagePath contains "/blog", ' +
        'country in ("France","Germany"), not eventName == "page_view", with and / or / not and parentheses ' +
        "(operators: == != < <= > >= contains begins_with ends_with matches (full regex) =~ (partial regex) " +
        "in (…) between N and M, is empty, is not empty); or a raw GA FilterExpression object. Dimension and " +
        "metric conditions are split into dimensionFilter and metricFilter for you.",
    )
    .meta({ title: "Filter", examples: ['country == "France" and sessions > 10'] }),
  order_by: z
    .union([Trimmed.min(1).max(500), z.array(OrderByItem).min(1).max(10)], {
      error:
        'expected "-sessions,date" (a list of field names, "-" for descending) or [{field, desc?, order_type?}]',
    })
    .optional()
    .describe(
      'Sort: "-sessions", "date", "-sessions,date" or [{field, desc, order_type}]; fields must be in the report.',
    )
    .meta({ title: "Sort by", examples: ["-sessions,date"] }),
  limit: NumberIn(1, 10_000)
    .default(100)
    .describe("Rows to return (1–10,000). Default 100.")
    .meta({ title: "Most rows", examples: [100] }),
  offset: NumberIn(0, 10_000_000)
    .default(0)
    .describe("Rows to skip, to page with limit. Not with realtime.")
    .meta({ title: "Rows to skip", examples: [100] }),
  realtime: z
    .boolean()
    .default(false)
    .describe("Report on the last 30 minutes (runRealtimeReport), not dates.")
    .meta({ title: "Realtime (last 30 minutes)", examples: [true] }),
  chart: z
    .boolean()
    .default(false)
    .describe(
      "Also return the report as a PNG chart: a line over time with a date dimension, bars otherwise.",
    )
    .meta({ title: "Chart image", examples: [true] }),
  minute_ranges: z
    .array(
      z.strictObject({
        start_minutes_ago: NumberIn(0, 59)
          .describe("Inclusive start in minutes ago (≤29 on standard properties).")
          .meta({ title: "From (minutes ago)", examples: [29] }),
        end_minutes_ago: NumberIn(0, 59)
          .default(0)
          .describe("Inclusive end in minutes ago. Default 0.")
          .meta({ title: "To (minutes ago)", examples: [0] }),
        name: RangeName.optional()
          .describe("Optional label of the range.")
          .meta({ title: "Label", examples: ["last half hour"] }),
      }),
    )
    .min(1)
    .max(2)
    .optional()
    .describe("With realtime: 1–2 minute ranges. Default: the last 30 minutes.")
    .meta({ title: "Minute ranges", examples: [[{ start_minutes_ago: 29 }]] }),
  funnel: z
    .strictObject({
      steps: z
        .array(Trimmed.min(1))
        .min(2)
        .max(10)
        .meta({ title: "Steps (events, in order)", examples: [["session_start", "purchase"]] }),
      open: z
        .boolean()
        .optional()
        .meta({ title: "Open funnel", examples: [true] }),
      breakdown: Trimmed.min(1)
        .optional()
        .meta({ title: "Breakdown dimension", examples: ["deviceCategory"] }),
      next_action: z
        .enum(["eventName", "pagePath"])
        .optional()
        .meta({ title: "Next action", examples: ["eventName"] }),
    })
    .optional()
    .describe(
      "Funnel instead of metrics (runFunnelReport): 2–10 events in order; open: entry at any step; " +
        "breakdown: a dimension; next_action: what users did next.",
    )
    .meta({ title: "Funnel", examples: [{ steps: ["session_start", "add_to_cart", "purchase"] }] }),
});
export type RunReportsFields = z.output<typeof RunReportsFields>;

const QuotaCount = z.object({ consumed: z.int().optional(), remaining: z.int().optional() });
const FlatRows = z.array(z.record(z.string(), RowValue));

export const RunReportsOutput = z.object({
  property: z.string().describe("properties/<id>."),
  property_name: z.string().optional(),
  rows: FlatRows.describe("One object per row: metrics are numbers, dimensions strings (date: YYYYMMDD)."),
  row_count: z.int().describe("Rows matching in all, whatever limit and offset."),
  next_offset: z.int().optional().describe("Set when more rows remain: pass it as offset."),
  totals: FlatRows.describe("Metric totals, one per date range (none without dimensions)."),
  quota: z
    .object({
      tokens_per_hour: QuotaCount.optional(),
      tokens_per_day: QuotaCount.optional(),
    })
    .optional()
    .describe("Property tokens left (realtime has its own quota)."),
  metadata: z
    .object({
      currency_code: z.string().optional(),
      time_zone: z.string().optional(),
    })
    .optional()
    .describe("Absent for realtime reports."),
  date_ranges: z
    .array(z.record(z.string(), z.string()))
    .optional()
    .describe("{name?, start_date, end_date} each, in metadata.time_zone."),
  comparison: z
    .record(z.string(), z.string())
    .optional()
    .describe("Two ranges: {from, to}; rows hold <metric>[<range>] and <metric>_change(_pct)."),
  request: z
    .record(z.string(), z.unknown())
    .describe("The request sent to GA (reusable with google_analytics_api_call)."),
  hints: z.array(z.string()).describe("Freshness, sampling, thresholding, paging, names."),
});
export type RunReportsOutput = z.output<typeof RunReportsOutput>;

export const CreateKeyEventsFields = z.strictObject({
  property: PropertyField,
  event_name: Trimmed.regex(
    /^[A-Za-z][A-Za-z0-9_]{0,39}$/,
    "a letter, then letters, digits or underscores; at most 40 characters",
  )
    .describe("Name of an event the property already collects, e.g. sign_up (case-sensitive).")
    .meta({ title: "Event name", examples: ["sign_up"] }),
  counting_method: z
    .enum(["ONCE_PER_EVENT", "ONCE_PER_SESSION"])
    .default("ONCE_PER_EVENT")
    .describe("Count every occurrence (ONCE_PER_EVENT, default) or one per session (ONCE_PER_SESSION).")
    .meta({ title: "Counting method", examples: ["ONCE_PER_SESSION"] }),
  skip_collection_check: z
    .boolean()
    .default(false)
    .describe(
      "Skip checking that the event was collected in the last 30 days (true only for an event about to ship).",
    )
    .meta({ title: "Skip the collection check", examples: [true] }),
});
export type CreateKeyEventsFields = z.output<typeof CreateKeyEventsFields>;

export const KeyEventOutput = z.object({
  name: z.string().describe("properties/<id>/keyEvents/<id>."),
  event_name: z.string(),
  counting_method: z.string().describe("ONCE_PER_EVENT or ONCE_PER_SESSION."),
  create_time: z.string().optional().describe("RFC 3339."),
  custom: z.boolean().optional().describe("False for key events GA creates itself (e.g. purchase)."),
  deletable: z.boolean().optional(),
});

export const CreateKeyEventsOutput = z.object({
  key_event: KeyEventOutput.describe("The key event (created now, or the one that already existed)."),
  already_existed: z.boolean().describe("True when the event already was a key event; nothing was created."),
  collected_events_last_30_days: z
    .int()
    .nullable()
    .describe("Events collected in the last 30 days; null: unchecked."),
  warnings: z.array(z.string()).describe("Differences from an existing key event, and notes."),
});
export type CreateKeyEventsOutput = z.output<typeof CreateKeyEventsOutput>;

/** Property.industryCategory values (REAL-API B3). */
export const INDUSTRY_CATEGORIES = (
  "AUTOMOTIVE BUSINESS_AND_INDUSTRIAL_MARKETS FINANCE HEALTHCARE TECHNOLOGY TRAVEL OTHER ARTS_AND_ENTERTAINMENT " +
  "BEAUTY_AND_FITNESS BOOKS_AND_LITERATURE FOOD_AND_DRINK GAMES HOBBIES_AND_LEISURE HOME_AND_GARDEN " +
  "INTERNET_AND_TELECOM LAW_AND_GOVERNMENT NEWS ONLINE_COMMUNITIES PEOPLE_AND_SOCIETY PETS_AND_ANIMALS REAL_ESTATE " +
  "REFERENCE SCIENCE SPORTS JOBS_AND_EDUCATION SHOPPING"
).split(" ") as [string, ...string[]];

// ICU's lists of IANA zones and ISO 4217 codes. "UTC"/"Etc/UTC" are missing from some ICU builds, and Node 20's
// list holds ICU's canonical names ("Asia/Calcutta"), not current IANA ones ("Asia/Kolkata", "Europe/Kyiv"):
// an Area/Location name that Intl resolves is accepted too.
const TIME_ZONES = new Set([...Intl.supportedValuesOf("timeZone"), "UTC", "Etc/UTC"]);
function isTimeZone(zone: string): boolean {
  if (TIME_ZONES.has(zone)) return true;
  if (!/^[A-Z][A-Za-z_]+(\/[A-Za-z0-9_+-]+){1,2}$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
const CURRENCIES = new Set(Intl.supportedValuesOf("currency"));

export const CreatePropertiesFields = z.strictObject({
  analytics_account: Trimmed.regex(
    /^(accounts\/)?\d{1,20}$/,
    'an account ID such as "123456" or "accounts/123456"',
  )
    .optional()
    .describe("Analytics account for the property (accounts/123 or 123); needed when several are visible.")
    .meta({ title: "Analytics account", examples: ["accounts/123456"] }),
  display_name: Trimmed.min(1)
    .max(100)
    .describe("Property name shown in Google Analytics (1–100 chars).")
    .meta({ title: "Property name", examples: ["Example shop"] }),
  time_zone: Trimmed.refine(
    isTimeZone,
    "not an IANA time zone; use e.g. Europe/Paris, America/New_York or UTC",
  )
    .describe("Reporting time zone, an IANA name such as Europe/Paris or America/Los_Angeles.")
    .meta({ title: "Time zone", examples: ["Europe/Paris"] }),
  currency_code: Trimmed.toUpperCase()
    .refine((code) => CURRENCIES.has(code), "not an ISO 4217 currency code; use e.g. USD, EUR, JPY")
    .default("USD")
    .describe("ISO 4217 currency of revenue metrics, e.g. USD (default), EUR, GBP.")
    .meta({ title: "Currency", examples: ["EUR"] }),
  industry_category: z
    .enum(INDUSTRY_CATEGORIES)
    .optional()
    .describe("Industry of the business (optional).")
    .meta({ title: "Industry", examples: ["TECHNOLOGY"] }),
});
export type CreatePropertiesFields = z.output<typeof CreatePropertiesFields>;

export const CreatePropertiesOutput = z.object({
  property: z
    .object({
      name: z.string().describe("properties/<id>."),
      property_id: z.string().describe("The numeric property ID, for the other steps."),
      display_name: z.string(),
      time_zone: z.string(),
      currency_code: z.string().optional(),
      industry_category: z.string().optional(),
      create_time: z.string().optional().describe("RFC 3339."),
      parent: z.string().describe("accounts/<id>."),
    })
    .describe("The new property."),
  next_steps: z.array(z.string()).describe("What to do so the property collects data."),
});
export type CreatePropertiesOutput = z.output<typeof CreatePropertiesOutput>;

export const GoogleApiCallFields = z.strictObject({
  method: z
    .enum(["GET", "POST", "PATCH", "DELETE"])
    .describe("GET reads, POST creates or runs, PATCH updates, DELETE.")
    .meta({ title: "Method", examples: ["GET"] }),
  endpoint: Trimmed.min(1)
    .max(2048)
    .describe(
      "Path relative to the API, e.g. v1beta/properties/123:runReport, v1beta/accountSummaries or " +
        "v1beta/properties/123/dataStreams. Only the path: no host, no query string.",
    )
    .meta({ title: "Endpoint", examples: ["v1beta/accountSummaries"] }),
  api: z
    .enum(["data", "admin"])
    .optional()
    .describe("data (reports, metadata) or admin. Default: from the path.")
    .meta({ title: "API", examples: ["admin"] }),
  query_parameters: z
    .record(z.string().min(1).max(100), z.union([QueryScalar, z.array(QueryScalar).max(100)]))
    .optional()
    .describe('Query parameters, e.g. {"filter":"parent:accounts/123"} or {"updateMask":"display_name"}.')
    .meta({ title: "Query parameters", examples: [{ pageSize: 50 }] }),
  body: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('JSON body for POST and PATCH, e.g. {"dateRanges":[…],"metrics":[{"name":"sessions"}]}.')
    .meta({ title: "Body (JSON)", examples: [{ metrics: [{ name: "sessions" }] }] }),
  cursor: cursorInput(
    "next_cursor of an earlier, capped answer: give the same request to continue with the first item not shown.",
  ).meta({ title: "Continue from (cursor)" }),
});
export type GoogleApiCallFields = z.output<typeof GoogleApiCallFields>;

export const GoogleApiCallOutput = z.object({
  api: z.enum(["data", "admin"]).describe("The API that answered."),
  body: z
    .union([z.record(z.string(), z.unknown()), z.string()])
    .describe("Google's JSON response; its largest list capped by size (JSON text when nothing else fits)."),
  next_cursor: z
    .string()
    .optional()
    .describe("Set when the cap cut a list: pass back as cursor to continue."),
  warnings: z.array(z.string()).describe("Output caps and notes about the call."),
});
export type GoogleApiCallOutput = z.output<typeof GoogleApiCallOutput>;
