import { z } from "zod";

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
// Range names may not start with date_range_ or RESERVED_ (discovery: DateRange.name, MinuteRange.name); any
// other text is a name to Google. [ and ] are this step's own limit: a merged report's columns are
// "sessions[<name>]". A person's label such as "25 Nov – 1 Dec" was refused as "not date_range_/RESERVED_…"
// (console review s8, finding 2).
export const Trimmed = z.string().trim();
const RangeName = z
  .string()
  .regex(
    /^(?!date_range_|RESERVED_)[^[\]\n\r\t\v\f]{1,64}$/,
    "a label of 1 to 64 characters, without [ or ], not beginning with date_range_ or RESERVED_",
  );
const DateValue = z.string().regex(DATE_VALUE, "use YYYY-MM-DD, NdaysAgo, yesterday or today");
// Spaces, "/" and "-" too: a name as GA's screens show it ("Customer tier", "Session source / medium") reaches the
// metadata check, which offers its API name, where this pattern refused it unnamed (trial s45, N626).
const FieldName = Trimmed.regex(/^[A-Za-z][A-Za-z0-9_:. /-]{0,199}$/, "an API name such as sessions");
/** A metric; "sessions%" for each row's share of its total, "a/b" for a ratio (src/tools/ga/report-shares.ts, report-ratios.ts). */
const MetricName = Trimmed.regex(
  /^[A-Za-z][A-Za-z0-9_:. ]{0,199}(%|(\/[A-Za-z][A-Za-z0-9_:. ]{0,199})?(%change)?)$/,
  "an API name such as sessions, sessions% for its share (by 2+ dimensions it adds sessions%in_<first dimension>), totalRevenue/sessions for a ratio, sessions/day for its mean a day or sessions%change for its change from the previous period",
);
const NumberIn = (min: number, max: number) => z.int().min(min).max(max);

// Union messages name every accepted form; the error adds what was received (src/tools/input/errors.ts).
export const DateRangeInput = z
  .union(
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
  )
  .meta({ title: "Period" });

/** DimensionOrderBy.orderType (REAL-API B2): how dimension values compare. */
export const ORDER_TYPES = ["ALPHANUMERIC", "CASE_INSENSITIVE_ALPHANUMERIC", "NUMERIC"] as const;

/** A sort key: a field's API name, or a two-range report's column of one period, newUsers[2026]. */
/** A column to sort by: GA's, or one the step adds ("sessions%", "a/b", "sessions%change": review s26, 14). */
// Spaces too: a metric named as GA's screens show it is sorted by that name, and the metadata check offers its API
// name for both (review s56, F11: order_by's pattern refused it alone, with no offer).
const SORT_NAME = /^[A-Za-z][A-Za-z0-9_:.%/ ]{0,199}(\[[^[\]]{1,64}\])?$/;
const SortName = Trimmed.regex(
  SORT_NAME,
  "an API name such as sessions, a column such as sessions% or sessions[2026]",
);

const OrderByItem = z.union(
  [
    Trimmed.regex(
      new RegExp(`^-?${SORT_NAME.source.slice(1)}`),
      'a field name or column, "-" first for descending',
    ),
    z.strictObject({
      field: SortName.describe("A metric or dimension.").meta({
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
        .describe("Dimensions only.")
        .meta({ title: "Order type", examples: ["NUMERIC"] }),
    }),
  ],
  { error: 'expected a field name ("-sessions" for descending) or {field, desc?, order_type?}' },
);

const PROPERTY_WORDS =
  'GA4 property: ID ("123456789", a GA page URL with #/p123456789/) or display ' +
  "name (any case). Not a G- measurement ID.";
export const PropertyField = Trimmed.min(1)
  .max(500)
  .describe(PROPERTY_WORDS)
  .meta({ title: "Property", examples: ["123456789"] });

/** A filter in the simple syntax, as `filter` takes it (and each of dimensionFilter / metricFilter). */
export const FilterText = Trimmed.min(1).max(2000);

export const RunReportsFields = z.strictObject({
  // Several properties' names (report-properties.ts) may run longer than one's.
  property: Trimmed.min(1)
    .max(5000)
    .describe(`${PROPERTY_WORDS} Several: comma-separated, or all.`)
    .meta({ title: "Property", examples: ["123456789"] }),
  metrics: z
    .array(MetricName.meta({ title: "Metric" }))
    .max(10)
    .default([])
    .describe(
      '1–10 metric API names, e.g. sessions; "sessions%": share of the total (by 2+ dimensions, a sessions%in_<first> column too: of its first dimension\'s value); "totalRevenue/sessions": a ' +
        'ratio; "sessions/day": mean a day (by dayOfWeekName: weekend vs weekdays too); "sessions%change": ' +
        "change from the previous date, week or month.",
    )
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
      "1–4 periods, each a preset or dates; default last7days. lastNdays presets end " +
        "yesterday; calendar presets are in the property's time zone.",
    )
    .meta({ title: "Date ranges", examples: [["last28days"]] }),
  filter: z
    .union([FilterText, z.record(z.string(), z.unknown())], {
      error: 'expected a filter expression such as country == "France", or a GA FilterExpression object',
    })
    .optional()
    .describe(
      'Rows to keep, e.g. country == "France" and sessions > 10; also != < <= > >= contains begins_with ' +
        'ends_with, matches / =~ (RE2 regex: whole value / any part), in ("a","b"), between N and M, is ' +
        "empty; and / or / not; text ignores case; or a GA " +
        "FilterExpression object.",
    )
    // The console's Filter box shows the first example as its placeholder, whole at 400 px (issue 28): a
    // short one here, the longer one in the description.
    .meta({ title: "Filter", examples: ['country == "France"'] }),
  order_by: z
    .union([Trimmed.min(1).max(500), z.array(OrderByItem).min(1).max(10)], {
      error:
        'expected "-sessions,date" (a list of field names, "-" for descending) or [{field, desc?, order_type?}]',
    })
    .optional()
    .describe('Sort: "-sessions", "-sessions,date" or [{field, desc, order_type}].')
    .meta({ title: "Sort by", examples: ["-sessions,date"] }),
  // "n per dimension": the first rows of each value, which agents took by hand (trial s34; report-limit-each.ts).
  // Text first: the console types a union led by text in a text box (console/src/form-ui.ts), "10" or "10 per date".
  limit: z
    .union([Trimmed.min(1).max(500), NumberIn(1, 10_000)])
    .default(100)
    .describe('Rows (≤10,000); "10 per date": of each.')
    .meta({ title: "Most rows", examples: [100, "10 per date"] }),
  offset: NumberIn(0, 10_000_000)
    .default(0)
    .describe("Rows to skip (not realtime).")
    .meta({ title: "Rows to skip", examples: [100] }),
  realtime: z
    .boolean()
    .default(false)
    .describe("The last 30 minutes (runRealtimeReport), not dates.")
    .meta({ title: "Realtime (last 30 minutes)", examples: [true] }),
  chart: z
    .boolean()
    .default(false)
    .describe("Also return a PNG chart: a line over dates, else bars.")
    // Says what it adds (trial s7, finding 8: "Chart image" unticked, a chart was drawn anyway).
    .meta({ title: "Also send the chart as a PNG image", examples: [true] }),
  minute_ranges: z
    .array(
      z.strictObject({
        start_minutes_ago: NumberIn(0, 59)
          .describe("Inclusive start, minutes ago (≤29 on standard properties).")
          .meta({ title: "From (minutes ago)", examples: [29] }),
        end_minutes_ago: NumberIn(0, 59)
          .default(0)
          .describe("Inclusive end, minutes ago.")
          .meta({ title: "To (minutes ago)", examples: [0] }),
        name: RangeName.optional()
          .describe("Label.")
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
      "Funnel instead of metrics: 2–10 events in order; open: entry at any step; " +
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
    .describe(
      "Two ranges: {from, to, paired?, no_row_change?}; rows hold <metric>[<range>] and <metric>_change(_pct); paired dates as <dim>[<range>].",
    ),
  properties: z
    .array(z.record(z.string(), z.unknown()))
    .optional()
    .describe("Several properties: each one's row_count, next_offset, time_zone, quota, dates, or error."),
  request: z
    .record(z.string(), z.unknown())
    .describe("The request sent to GA (reusable with google_analytics_api_call)."),
  hints: z.array(z.string()).describe("Freshness, sampling, thresholding, paging, names."),
});
export type RunReportsOutput = z.output<typeof RunReportsOutput>;
