/**
 * Run Reports' exchange with GA for one property: the report as sent (whole when two ranges are merged or a
 * column worked out here is sorted here), its means a day, ratios, shares (of the total and of the first
 * dimension's totals) and subtotals added, what a metric filter left out, and the page of rows the answer shows.
 */
import type { ConnectorOf } from "../../connections/registry.js";
import type { RunReportResponse } from "../../connectors/google/types.js";
import { isMartechError } from "../../errors.js";
import { type DateRange, type StatedRange, statedRanges, todayIn } from "./date-presets.js";
import type { CountedDays } from "./report-calendar.js";
import { changedReport } from "./report-change.js";
import { type ChangeAsk, checkChangeFilter } from "./report-change-request.js";
import type { Comparison, Withheld } from "./report-compare.js";
import { checkDayFilter } from "./report-day-filter.js";
import { unfilteredTotal } from "./report-empty.js";
import { type FlatReport, flattenReport } from "./report-flatten.js";
import { type CountedFields, type EachAsk, eachPage } from "./report-limit-each.js";
import { barePart, metricFilterNote, unfilteredReport } from "./report-metric-filter.js";
import { pageReport, type ReportPage } from "./report-paging.js";
import { absentMean, countedDays, type DaySpan, withPerDay } from "./report-per-day.js";
import { checkPerDayFilter, perDayBase } from "./report-per-day-request.js";
import { pageHere, type RatioRequest, ratioParts, wholeForSort, withRatios } from "./report-ratios.js";
import type { buildReportRequest } from "./report-request.js";
import { withGroupShares, withShares } from "./report-shares.js";
import { subtotalNote, subtotalsOf } from "./report-subtotals.js";
import { checkWholeReport, mergedPage, mergesRanges, wholeReportRequest } from "./report-two-ranges.js";

/** The fields with limit a number (report-limit-each.ts turns "10 per date" into its parts). */
type Fields = CountedFields;
type Google = ConnectorOf<"google">;
type ReportRequest = ReturnType<typeof buildReportRequest>;
type Body = Record<string, unknown>;
/** The columns the step adds to GA's answer (report-shares.ts, report-ratios.ts, report-per-day.ts, report-change.ts). */
export type Derived = {
  shares: readonly string[];
  perDay: readonly string[];
  change?: ChangeAsk;
  each?: EachAsk;
} & Omit<RatioRequest<Fields>, "fields">;

/**
 * The report as sent to GA and its rows: with two date ranges merged here, the whole report (every GA row,
 * paged over combinations afterwards), else the page asked for; when empty under a filter, the total without.
 */
export async function sendReport(
  ga: Google,
  propertyId: string,
  fields: Fields,
  dates: { dateRanges: DateRange[] } | undefined,
  request: Record<string, unknown>,
  o: { signal?: AbortSignal | undefined; derived: Derived; now: Date; firstDay?: string | undefined },
) {
  const { signal, derived, now } = o;
  const merging = mergesRanges(fields, dates?.dateRanges);
  const { sort } = derived;
  const sent = wholeForSort(merging ? wholeReportRequest(request) : request, sort);
  checkPerDayFilter(sent, derived.perDay);
  checkChangeFilter(sent, derived.change);
  checkDayFilter(sent.dimensionFilter, derived.perDay);
  const answer: RunReportResponse = fields.realtime
    ? await ga.runRealtimeReport(propertyId, sent, signal)
    : await ga.runReport(propertyId, sent, signal);
  // Every further request of this report: the quota stated is the one GA gave last (review s23, finding 4).
  let quota = answer.propertyQuota;
  const ask = async (body: Record<string, unknown>) => {
    const next = await ga.runReport(propertyId, body, signal);
    quota = next.propertyQuota ?? quota;
    return next;
  };
  const more = async (body: Record<string, unknown>) => withRatios(await ask(body), derived.ratios);
  // A metric filter: the same report without it, for what it left out and the shares' total (one request).
  const unfiltered = await unfilteredReport(sent, derived.shares, more);
  const without = unfiltered && "response" in unfiltered ? unfiltered.response : undefined;
  // Means a day ("sessions/day"), from the same report by date, before a sort here reads them.
  const zone = answer.metadata?.timeZone;
  const stated = dates ? statedRanges(dates.dateRanges, now, zone) : [];
  const span: DaySpan = { firstDay: o.firstDay, today: todayIn(now, zone) };
  const daily = await withPerDay({ response: answer, perDay: derived.perDay, sent, stated, span, ask });
  // GA's own totals by the first dimension: the summary states them, and share columns get a share of them.
  const first = fields.dimensions[0];
  const byOne = {
    ...{ fields, request, ranges: dates?.dateRanges.length ?? 0 },
    run: async (body: Body) => withShares(await more(body), derived.shares),
  };
  const none = (answer.rowCount ?? answer.rows?.length ?? 0) === 0;
  const { coarse, others } = none ? { others: [] } : await subtotalsOf(byOne, softly);
  // Changes ("sessions%change") and a sort here read the whole report; the page is cut after both.
  const { whole, notes: changed } = changedReport(
    withRatios(daily.response, derived.ratios),
    derived.change,
    {
      ...{ range: stated[0], span, dimensionFilter: sent.dimensionFilter },
      sort,
      perGroup: derived.each !== undefined,
    },
  );
  const { page, each } = shownPage(whole, derived, fields, sent.metricFilter !== undefined);
  const shares = withShares(page, derived.shares, without?.totals);
  const shared = withGroupShares(shares, derived.shares, coarse, first);
  const flat = flattenReport(shared);
  if (merging) checkWholeReport(flat);
  // An extra figure GA refuses leaves the report GA answered whole: it is not said, and nothing fails.
  const bare =
    flat.rowCount === 0
      ? (barePart(sent, without) ??
        (await softly(
          unfilteredTotal({ runReport: (_, body) => ask(body as Body) }, propertyId, sent, signal),
        )))
      : undefined;
  // Under a dimension filter the totals are of the rows it keeps, as the shares are (review s25, finding 6).
  const kept = request.dimensionFilter !== undefined;
  const subtotal = [
    ...subtotalNote(coarse, first, derived.shares, kept),
    ...others.flatMap((other) => subtotalNote(other.response, other.dimension, [], kept)),
  ];
  // What the metric filter kept is the whole report's rows, not those limit per kept of them (review s43, 3).
  const before = each ? { ...flat, rowCount: whole.rows?.length ?? 0 } : flat;
  const filtered = metricFilterNote({ sent, flat: before, unfiltered, shares: derived.shares });
  const response = quota ? { ...shared, propertyQuota: quota } : shared;
  const added = [...subtotal, daily.note, ...changed, filtered, each?.note];
  // The days each range can have data on, with or without means a day: a range with none has no figures.
  const days = daily.days ?? countedDays(stated, span, sent.dimensionFilter);
  return { sent, response, flat, bare, added, hints: daily.hints, days };
}

/**
 * The rows the answer pages over: limit per's, each group's first rows of the whole report sorted here
 * (report-limit-each.ts); the page asked for of a report sorted here; else GA's page as it came.
 */
function shownPage(whole: RunReportResponse, derived: Derived, fields: Fields, metricFiltered: boolean) {
  const each = derived.each ? eachPage(whole, derived.each, fields.offset, metricFiltered) : undefined;
  const sorted = derived.sort ? { offset: fields.offset, limit: fields.limit } : undefined;
  return { page: each?.response ?? pageHere(whole, sorted), each };
}

/** A promise's value, or undefined when it fails with an error the step typed (GA's refusal, the deadline). */
async function softly<T>(promise: Promise<T>): Promise<T | undefined> {
  try {
    return await promise;
  } catch (error) {
    if (isMartechError(error)) return undefined;
    throw error;
  }
}

/**
 * A range running to today: its mean a day counts today, which GA is still collecting, as a whole day, so its
 * change from the other range is not worked out (review s30, finding 5: −6.9 % that was +11.5 % over whole days).
 */
function runningMeans(metrics: readonly string[], days: CountedDays | undefined): Withheld | undefined {
  const means = metrics.filter((metric) => perDayBase(metric) !== undefined);
  const running = days?.ranges.find((range) => days.today && range.counted?.end_date === days.today);
  if (means.length === 0 || !running) return undefined;
  return {
    metrics: means,
    why: `${running.label} runs to today (${days?.today}), which GA is still collecting, and its mean a day counts today as a whole day; compare the whole days of each`,
  };
}

const headerNames = (headers: { name?: string }[] | undefined) =>
  (headers ?? []).flatMap((h) => h.name ?? []);

/**
 * The rows the answer shows: GA's page as it came, or, with two date ranges, the page of the merged rows
 * of the whole report (report-two-ranges.ts).
 */
export function answerPage(o: {
  fields: Fields;
  flat: FlatReport;
  response: RunReportResponse;
  request: ReportRequest;
  stated: StatedRange[] | undefined;
  keepBytes: number | undefined;
  days?: CountedDays | undefined;
}): { page: ReportPage; flat: FlatReport; merged?: Comparison } {
  const { fields, flat, response } = o;
  // GA names the columns in its headers; an answer without them (a fake's, or one with no rows from a
  // server that leaves them out) has the request's columns, so its order_by is checked against those.
  const dimensions = headerNames(response.dimensionHeaders);
  const metrics = headerNames(response.metricHeaders);
  const names = {
    dimensions: dimensions.length > 0 ? dimensions : fields.dimensions,
    metrics: metrics.length > 0 ? metrics : fields.metrics,
  };
  const merged =
    o.stated && mergesRanges(fields, o.stated)
      ? mergedPage({
          ...{ flat, fields, names, stated: o.stated, keepBytes: o.keepBytes },
          metricFilter: o.request.metricFilter !== undefined,
          // A ratio of a range without the row is 0 / 0, and a mean a day over no day is none: no value.
          absentFor: (metric, range, row) =>
            ratioParts(metric) || (o.days && !o.days.ranges[range]?.counted)
              ? null
              : absentMean(o.days)(metric, range, row),
          withheld: runningMeans(names.metrics, o.days),
        })
      : undefined;
  if (merged) return { page: merged.page, flat: merged.flat, merged: merged.comparison };
  const page = pageReport(flat, {
    first: fields.realtime ? 0 : fields.offset,
    columns: [...names.dimensions, ...names.metrics],
    keepBytes: o.keepBytes,
    realtime: fields.realtime,
  });
  return { page, flat };
}
