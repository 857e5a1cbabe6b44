import type { z } from "zod";
import { SCOPE_ANALYTICS_READONLY } from "../auth/google/config.js";
import type { ConnectorOf } from "../connections/registry.js";
import type { RunReportResponse } from "../connectors/google/types.js";
import { RunReportsFields, RunReportsOutput } from "../schemas/google-analytics.js";
import { withAccount } from "./ga/account-field.js";
import { REPORT_ANSWERS } from "./ga/answers.js";
import { throwIncompatible } from "./ga/compatibility.js";
import {
  propertyTimeZone,
  type ResolvedDates,
  resolveDateRanges,
  statedRanges,
  todayIn,
} from "./ga/date-presets.js";
import { type FieldCatalog, type NameProblem, throwNameProblems } from "./ga/field-catalog.js";
import { checkedCatalog } from "./ga/field-names.js";
import { checkFilterExpression, type FilterExpression } from "./ga/filter-expression.js";
import { parseFilter } from "./ga/filter-parser.js";
import { filterFields, filterNameProblems, type SplitFilters, splitFilter } from "./ga/filter-split.js";
import { funnelAnswer } from "./ga/funnel.js";
import { rangeLabels } from "./ga/period-words.js";
import type { PropertyRef } from "./ga/property-name.js";
import { RUN_REPORTS_ALIASES } from "./ga/report-aliases.js";
import { reportOutput, summarize, summaryTail } from "./ga/report-answer.js";
import { addsUp } from "./ga/report-change.js";
import { changeRequest, changeSort } from "./ga/report-change-request.js";
import { reportChart, type UiNames } from "./ga/report-chart.js";
import type { Comparison } from "./ga/report-compare.js";
import { dataStartNote, propertyStart } from "./ga/report-data-start.js";
import { type FlatReport, quotaSummary } from "./ga/report-flatten.js";
import { reportHints } from "./ga/report-hints.js";
import { limitEachRequest } from "./ga/report-limit-each.js";
import { mergedOrder } from "./ga/report-merged-order.js";
import { perDayRequest } from "./ga/report-per-day-request.js";
import { headlined, periodNote } from "./ga/report-periods.js";
import { type OneReport, resolveProperties, withoutPropertySort } from "./ga/report-properties.js";
import { reportOnProperties } from "./ga/report-properties-answer.js";
import { askedAt, ratioRequest } from "./ga/report-ratios.js";
import { buildReportRequest, checkReportMode, duplicates, parseOrderBy } from "./ga/report-request.js";
import { reportSearchInput, reportSearchReason } from "./ga/report-search-words.js";
import { answerPage, type Derived, sendReport } from "./ga/report-send.js";
import { shareRequest } from "./ga/report-shares.js";
import { mergesRanges } from "./ga/report-two-ranges.js";
import { valueNotes } from "./ga/report-value-notes.js";
import { GA_SERVICE_WORDS } from "./ga/service-words.js";
import type { SchemaContext, ToolContext, ToolStep } from "./types.js";

const DOC_URL = "https://developers.google.com/analytics/devguides/reporting/data/v1/basics";
const SCOPES = [SCOPE_ANALYTICS_READONLY] as const;
/** The 28 days before GA's "Last 28 days" (which ends yesterday). */
const BEFORE_28 = { start_date: "56daysAgo", end_date: "29daysAgo" };

const input = (context: SchemaContext) => withAccount(context, RunReportsFields);

export const googleAnalyticsRunReports: ToolStep<ReturnType<typeof input>, typeof RunReportsOutput> = {
  id: "google_analytics_run_reports",
  title: "Run Reports",
  service: "google_analytics",
  serviceWords: GA_SERVICE_WORDS,
  category: "Analytics",
  keywords: [
    "analytics",
    "google analytics",
    "ga4",
    "report",
    "reports",
    "reporting",
    "data api",
    "traffic",
    "sessions",
    "users",
    "page views",
    "conversions",
    "key events",
    "metrics",
    "dimensions",
    "realtime",
    // The words a marketer searches the console's bar with (trial C02, C03, C05).
    "compare",
    "comparison",
    "previous period",
    "funnel",
    "top pages",
    "csv",
    "download",
    // A funnel's drop-off, and a report by landing page or device (trial s13, finding 1).
    "drop off",
    "dropoff",
    "abandonment",
    "landing page",
    "mobile",
  ],
  description:
    "Runs a Google Analytics 4 report (runReport; realtime; or a funnel): metrics by dimensions, " +
    "on one property or several in one table. Answers state ranges as real dates; two ranges: " +
    "each row has both values and the change.",
  docUrl: DOC_URL,
  connection: "google",
  scopes: SCOPES,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  input,
  aliases: RUN_REPORTS_ALIASES,
  output: RunReportsOutput,
  // The property and the Google account come from the form's pickers. Periods as a person picks them: a preset,
  // and days GA resolves in the property's time zone, which the form shows as that property's dates in its date
  // boxes (console range-edit.ts; trial s9, finding 6: 28daysAgo and yesterday filled text boxes).
  examples: () => [
    {
      title: "Sessions by channel, last 28 days vs the 28 before",
      input: {
        metrics: ["sessions"],
        dimensions: ["sessionDefaultChannelGroup"],
        date_ranges: ["last28days", { ...BEFORE_28, name: "the 28 days before" }],
        order_by: "-sessions",
      },
    },
    {
      title: "Active users per day, last 28 days",
      input: {
        metrics: ["activeUsers"],
        dimensions: ["date"],
        date_ranges: ["last28days"],
        order_by: "date",
      },
    },
  ],
  answers: REPORT_ANSWERS,
  searchReason: reportSearchReason,
  searchInput: reportSearchInput,

  async handler(asked, ctx) {
    const now = new Date();
    // "sessions%" and "totalRevenue/sessions" columns: GA is asked for the metrics, and the shares and ratios
    // are added to its answer (report-shares.ts, report-ratios.ts).
    // "sessions%change" columns (report-change.ts) are added over the whole report, sorted here.
    // limit "10 per date": each group's first rows, of the whole report sorted here (report-limit-each.ts).
    const { fields: counted, each } = limitEachRequest(withoutPropertySort(asked));
    const { fields: unchanged, change } = changeRequest(counted);
    const { fields: plain, shares } = shareRequest(unchanged);
    const { fields: daily, perDay } = perDayRequest(plain);
    const { fields, ratios, sort } = ratioRequest(daily, [...perDay, ...(change?.columns ?? [])]);
    const sorted = change ? changeSort(fields, change, sort) : (sort ?? each?.sort);
    const derived = {
      shares,
      ratios,
      perDay,
      ...(change ? { change } : {}),
      ...(sorted ? { sort: sorted } : {}),
      ...(each ? { each: { ...each, sort: sorted ?? each.sort } } : {}),
    };
    const shape = {
      ...checkRequestShape(fields, now, [...ratios, ...perDay, ...shares]),
      metricAt: askedAt(asked.metrics),
    };
    const ga = await ctx.connection("google", fields.account);
    const properties = await resolveProperties(ga, fields.property, ctx.signal);
    const run = (property: PropertyRef, on: ToolContext) =>
      reportOn({ ga, property, fields, ctx: on, now, shape, derived });
    // The joined rows are sorted by order_by as asked ("-sessions%", "-a/b"): its columns are in every answer.
    const joined = asked.order_by === undefined ? fields : { ...fields, order_by: asked.order_by };
    if (properties.length > 1) return reportOnProperties(joined, properties, ctx, run);
    return (await run(properties[0] as PropertyRef, ctx)).result;
  },
};

/** The report on one property: its answer, and the parts several properties' answer says of each. */
async function reportOn(o: {
  ga: Google;
  property: PropertyRef;
  fields: Fields;
  ctx: ToolContext;
  now: Date;
  shape: ReturnType<typeof checkRequestShape> & { metricAt: (name: string) => number };
  derived: Derived;
}): Promise<OneReport> {
  const { ga, property, fields, ctx, now } = o;
  const { expression, orderBys } = o.shape;
  let dates = o.shape.dates;
  const propertyId = property.id;
  const start = dates ? await propertyStart(ga, propertyId, ctx.signal) : undefined;
  let timeZone: string | undefined;
  if (dates?.calendar) {
    timeZone = start?.timeZone;
    if (timeZone) dates = resolveDateRanges(fields.date_ranges, now, timeZone);
  }
  if (fields.funnel) return funnelReport(o, fields.funnel, { dates, timeZone, firstDay: start?.firstDay });
  const { catalog, uiNames, filters, request, used } = await checkedRequest(ga, propertyId, fields, {
    ...{ expression, orderBys, dates, ctx },
    metricAt: o.shape.metricAt,
  });
  ctx.progress({ progress: 2, total: 3, message: "Running the report" });
  const sending = { ...ctx, derived: o.derived, now, firstDay: start?.firstDay };
  const report = await sendReport(ga, propertyId, fields, dates, request, sending);
  const { sent, response, flat, bare } = report;
  const quota = reportQuota(ga, propertyId, fields, response);
  const zone = response.metadata?.timeZone ?? timeZone;
  const stated = dates ? statedRanges(dates.dateRanges, now, zone) : undefined;
  const keepBytes = ctx.fullResults?.maxBytes;
  const shown = answerPage({ fields, flat, response, request, stated, keepBytes, days: report.days });
  const hints = reportHints({
    ...{ fields, used, catalog, flat: shown.flat, dates, response, quota, bare, sent },
    each: o.derived.each !== undefined,
  });
  if (stated && !zone) hints.push("The dates are stated in UTC: GA did not say the property's time zone.");
  const today = todayIn(now, zone);
  const early =
    stated && start?.firstDay ? dataStartNote(stated, start.firstDay, !!shown.merged, today) : undefined;
  hints.push(...(early ? [early] : []), ...shown.page.hints, ...report.hints);
  const data = reportOutput({
    ...{ property, quota, response, request: sent, hints, stated },
    page: shown.page,
    flat: shown.flat,
    comparison: shown.merged,
  });
  const lengths =
    shown.merged && stated
      ? periodNote(stated, shown.merged.order, rangeLabels(stated), today, start?.firstDay)
      : undefined;
  const first = fields.metrics?.[0];
  const merged = headlined(shown.merged, {
    // Not like for like either way: ranges of different lengths, or reaching before the data (review s29, 1).
    ...{ note: lengths ?? early, stated: stated ?? [], today },
    addsUp: typeof first === "string" && addsUp(first),
  });
  const asked = { stated, today, filters, zone, utcToday: todayIn(now, "UTC") };
  const notes = [lengths, early, ...valueNotes(flat, response, uiNames, propertyId, asked), ...report.added];
  const result = {
    data,
    summary: summarize(data, fields, stated ? { stated, zone } : undefined, merged, notes),
    ...(shown.page.full ? { full: shown.page.full } : {}),
    // Every row GA returned, not only the answer's (charted: the whole report, or GA's page as its subtitle says).
    chart: reportChart(
      { ...data, rows: flat.rows },
      uiNames,
      charted(fields, flat, shown),
      metricTypes(response),
    ),
    ...(fields.chart ? { chartImage: true } : {}),
  };
  const said = notes.filter((note): note is string => typeof note === "string");
  return { result, tail: summaryTail(data, merged, notes), pageHints: shown.page.hints, notes: said };
}

/** The quota a report's answer states: GA's own in the response, else the connector's last known. */
function reportQuota(ga: Google, propertyId: string, fields: Fields, response: RunReportResponse) {
  return quotaSummary(
    response.propertyQuota ?? ga.quota(propertyId, fields.realtime ? "realtime" : "core")?.quotas,
  );
}

/** A funnel's report, in the property's zone (funnel.ts). */
async function funnelReport(
  o: { ga: Google; property: PropertyRef; ctx: ToolContext; now: Date },
  funnel: NonNullable<Fields["funnel"]>,
  at: { dates: ResolvedDates | undefined; timeZone: string | undefined; firstDay: string | undefined },
): Promise<OneReport> {
  const { ga, property, ctx, now } = o;
  const zone = at.timeZone ?? (await propertyTimeZone(ga, property.id, ctx.signal));
  const asked = { ga, property, funnel, dates: at.dates, zone, now, firstDay: at.firstDay };
  const result = await funnelAnswer({ ...asked, signal: ctx.signal });
  return { result, tail: "", pageHints: [] };
}

/** The report's request, once its names are in the property's catalog and GA says they can be combined. */
async function checkedRequest(
  ga: Google,
  propertyId: string,
  fields: Fields,
  o: Pick<ReturnType<typeof checkRequestShape>, "expression" | "orderBys" | "dates"> & {
    ctx: ToolContext;
    metricAt: (name: string) => number;
  },
) {
  const { expression, ctx } = o;
  ctx.progress({ progress: 0, total: 3, message: "Checking field names against the property's metadata" });
  const { catalog, uiNames } = await checkFieldNames(ga, propertyId, fields, expression, {
    metricAt: o.metricAt,
    signal: ctx.signal,
  });
  const filters: SplitFilters = expression ? splitFilter(expression, catalog) : {};
  const request = buildReportRequest({
    input: fields,
    dateRanges: o.dates?.dateRanges,
    filters,
    orderBys: o.orderBys,
  });

  const used = new Set([
    ...fields.metrics,
    ...fields.dimensions,
    ...(expression ? filterFields(expression) : []),
  ]);
  if (!fields.realtime && used.size > 1) {
    ctx.progress({ progress: 1, total: 3, message: "Checking that the fields can be combined" });
    await checkCombination(ga, propertyId, request, used, catalog, ctx.signal);
  }

  return { catalog, uiNames, filters, request, used };
}

/** The rows the chart draws: a page of GA's report, or (two ranges merged) the whole report. */
const charted = (fields: Fields, flat: FlatReport, shown: { merged?: Comparison }) =>
  shown.merged ? undefined : { first: fields.realtime ? 0 : fields.offset, of: flat.rowCount };

/** GA's type of each metric of the answer ("TYPE_SECONDS"), by name. */
const metricTypes = (response: RunReportResponse) =>
  Object.fromEntries((response.metricHeaders ?? []).map((header) => [header.name ?? "", header.type]));

/** The fields once limit is a number (limitEachRequest). */
type Fields = Omit<z.output<ReturnType<typeof input>>, "limit"> & { limit: number };
type Google = ConnectorOf<"google">;
type ReportRequest = ReturnType<typeof buildReportRequest>;

/**
 * The checks that need no call: the report mode, the dates, the filter, the sort and repeated names.
 * `computed`: the columns worked out here (ratios, means a day), which two ranges' merged rows sort by too.
 */
function checkRequestShape(fields: Fields, now: Date, computed: readonly string[]) {
  checkReportMode(fields);
  // Validated before anything is sent; calendar presets are resolved again later in the property's zone.
  const dates: ResolvedDates | undefined = fields.realtime
    ? undefined
    : resolveDateRanges(fields.date_ranges, now);
  const expression: FilterExpression | undefined =
    fields.filter === undefined
      ? undefined
      : typeof fields.filter === "string"
        ? parseFilter(fields.filter)
        : checkFilterExpression(fields.filter);
  // Two ranges' merged rows are sorted by the step, over the whole report (report-merged-order.ts): their
  // sort is checked here, before anything is sent, and GA is asked for no order.
  const merged = mergesRanges(fields, dates?.dateRanges);
  if (merged)
    mergedOrder(fields.order_by, { ...fields, metrics: [...fields.metrics, ...computed] }, undefined);
  // Several ranges' rows carry GA's dateRange column (three or four: not merged), which sorts as any other.
  const shown = (dates?.dateRanges.length ?? 0) > 1 ? [...fields.dimensions, "dateRange"] : fields.dimensions;
  const orderBys = merged ? [] : parseOrderBy(fields.order_by, fields.metrics, shown);
  const repeated = duplicates([...fields.metrics, ...fields.dimensions]);
  if (repeated.length > 0) {
    const where = (name: string) => (fields.metrics.includes(name) ? "metrics" : "dimensions");
    throwNameProblems(repeated.map((name) => ({ field: where(name), message: `"${name}" is listed twice` })));
  }
  return { dates, expression, orderBys };
}

/**
 * The property's field catalog, once every requested name (filter included) is known to be in it, and the
 * names Google Analytics shows for them (the chart's words).
 */
async function checkFieldNames(
  ga: Google,
  propertyId: string,
  fields: Fields,
  expression: FilterExpression | undefined,
  { metricAt, signal }: { metricAt: (name: string) => number; signal: AbortSignal | undefined },
): Promise<{ catalog: FieldCatalog; uiNames: UiNames }> {
  const problems = (catalog: FieldCatalog): NameProblem[] => [
    // Named at its place in the caller's list ("sessions%" and "a/b" are asked for as their metrics).
    ...fields.metrics.flatMap((name) => catalog.problem(name, "metric", `metrics[${metricAt(name)}]`) ?? []),
    ...fields.dimensions.flatMap((name, i) => catalog.problem(name, "dimension", `dimensions[${i}]`) ?? []),
    ...(expression ? filterNameProblems(expression, catalog) : []),
  ];
  // Realtime reports have their own schema: their requested names are not in the core metadata.
  const catalog = await checkedCatalog(ga, propertyId, signal, problems, fields.realtime ? fields : {});
  return { catalog, uiNames: catalog.uiNames() };
}

/** Asks GA whether the fields can be combined, before the report spends quota. */
async function checkCombination(
  ga: Google,
  propertyId: string,
  request: ReportRequest,
  used: Set<string>,
  catalog: FieldCatalog,
  signal: AbortSignal | undefined,
): Promise<void> {
  const { dimensions, metrics, dimensionFilter, metricFilter } = request;
  const body = {
    dimensions,
    metrics,
    dimensionFilter,
    metricFilter,
    compatibilityFilter: "INCOMPATIBLE",
  };
  // GA answers with current API names; a field asked for by a deprecated alias must still match.
  const canonical = new Set([...used].map((name) => catalog.get(name)?.apiName ?? name));
  throwIncompatible(await ga.checkCompatibility(propertyId, body, signal), canonical);
}
