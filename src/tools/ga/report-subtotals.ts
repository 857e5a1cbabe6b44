/**
 * A report by two or more dimensions gets GA's own totals by its first one: month × channel gets each month's
 * totals, day × hour each day's. Agents added such rows up by hand (trial s15, N134; trial s16, N137 and N138),
 * which is wrong for users (one user is in several rows) and slow for a model. The step asks GA for the same
 * report by the first dimension alone (one more request, the same dates and filter), so each subtotal is GA's
 * count, as its UI shows it, whatever the metric. Not with a metric filter (GA applies it to the rows of the
 * report it is given, so the coarser report's would be other rows), two or more date ranges, realtime, or more
 * than MAX_GROUPS values.
 */
import type { RunReportResponse } from "../../connectors/google/types.js";
import type { RunReportsFields } from "../../schemas/google-analytics.js";
import { n } from "../numbers-in-words.js";
import { type FlatRow, flattenReport } from "./report-flatten.js";

const MAX_GROUPS = 24;
/**
 * A report by this many dimensions or fewer also gets GA's totals by each of the others (trial s44, N613: a page's
 * readers by channel, by device and new or returning took three reports; one report by the three now says each).
 */
const MAX_CROSSED = 3;
/** Dimensions whose values read in time order (yearMonth, isoYearIsoWeek, date, dayOfWeek, hour…). */
const TIME = /date|week|month|year|day|hour|minute/i;

export interface SubtotalAsk {
  fields: Pick<RunReportsFields, "dimensions" | "realtime">;
  request: Record<string, unknown>;
  ranges: number;
  /** Runs the coarser report as the answer's was run (its shares and ratios added alike). */
  run: (request: Record<string, unknown>) => Promise<RunReportResponse>;
}

/**
 * The request for the totals by the first dimension (`at` 0), or, in a report by two, by the second (`at` 1: a
 * channel's purchases over the first-touch × session-channel rows were added up by hand, trial s24, N297 and
 * N306); undefined when they are not asked of GA.
 */
export function subtotalRequest(ask: Omit<SubtotalAsk, "run">, at = 0): Record<string, unknown> | undefined {
  const { fields, request } = ask;
  const first = fields.dimensions[at];
  if (!first || fields.dimensions.length < 2 || fields.realtime || ask.ranges !== 1) return undefined;
  if (at > 0 && fields.dimensions.length > MAX_CROSSED) return undefined;
  if (request.metricFilter !== undefined || tooManyDays(first, request)) return undefined;
  // GA's totals stay asked for: a share column ("sessions%") of each subtotal is of them (trial s20, N217).
  const { orderBys: _order, offset: _offset, ...rest } = request;
  const order = TIME.test(first) ? { orderBys: [{ dimension: { dimensionName: first } }] } : {};
  return { ...rest, dimensions: [{ name: first }], limit: MAX_GROUPS + 1, ...order };
}

/**
 * Whether a dimension of the range's days (or hours) has more than MAX_GROUPS values, known from the range: its
 * totals would not be stated, so they are not asked (review s28, finding 14: a report by channel × date over 91
 * days cost one more request each time).
 */
function tooManyDays(dimension: string, request: Record<string, unknown>): boolean {
  const perDay = { date: 1, dateHour: 24, dateHourMinute: 1_440 }[dimension];
  // Weeks and months too: at least a value per whole 7 or 31 days (review s30, finding 13: 31 weekly totals).
  const daysEach = { isoYearIsoWeek: 7, yearWeek: 7, yearMonth: 31 }[dimension];
  const [range] = (request.dateRanges ?? []) as { startDate?: string; endDate?: string }[];
  const [start, end] = [
    Date.parse(`${range?.startDate}T00:00:00Z`),
    Date.parse(`${range?.endDate}T00:00:00Z`),
  ];
  if (!Number.isFinite(start) || !Number.isFinite(end)) return false;
  const days = (end - start) / 86_400_000 + 1;
  if (perDay !== undefined) return days * perDay > MAX_GROUPS;
  return daysEach !== undefined && Math.floor(days / daysEach) > MAX_GROUPS;
}

const figure = (value: FlatRow[string] | undefined) =>
  typeof value === "number" ? n(Math.round(value * 100) / 100) : String(value ?? "no value");

/** Whether the report by the first dimension is stated: every one of its 2 to MAX_GROUPS values in hand. */
export function wholeGroups(coarse: RunReportResponse): boolean {
  const rows = coarse.rows?.length ?? 0;
  return rows >= 2 && (coarse.rowCount ?? rows) <= Math.min(rows, MAX_GROUPS);
}

/** GA's report by one dimension alone (its shares added as the answer's), or undefined when not asked. */
export async function subtotalReport(ask: SubtotalAsk, at = 0): Promise<RunReportResponse | undefined> {
  const request = subtotalRequest(ask, at);
  return request ? ask.run(request) : undefined;
}

/**
 * GA's reports by the first dimension, and, in a report by two or three whose first one's totals are stated, by
 * each of the others (trial s24, N297 and N306: a crossed report of two small dimensions; a long series by date
 * keeps its summary short). `soft` turns a refusal GA types into no report.
 */
export async function subtotalsOf(
  ask: SubtotalAsk,
  soft: <T>(promise: Promise<T>) => Promise<T | undefined>,
): Promise<{
  coarse?: RunReportResponse | undefined;
  others: { response: RunReportResponse | undefined; dimension: string }[];
}> {
  const coarse = await soft(subtotalReport(ask));
  const { dimensions } = ask.fields;
  if (!coarse || !wholeGroups(coarse) || dimensions.length > MAX_CROSSED) return { coarse, others: [] };
  const others = dimensions.slice(1).map(async (dimension, i) => ({
    response: await soft(subtotalReport(ask, i + 1)),
    dimension,
  }));
  return { coarse, others: await Promise.all(others) };
}

/** "Totals by yearMonth (GA's own, each over all its rows): 202607 sessions 14,201; 202608 …", or undefined. */
export function subtotalNote(
  coarse: RunReportResponse | undefined,
  first: string | undefined,
  shares: readonly string[] = [],
  filtered = false,
): string[] {
  if (!coarse || !first || !wholeGroups(coarse)) return [];
  const flat = flattenReport(coarse);
  const metrics = Object.keys(flat.rows[0] ?? {}).filter((name) => name !== first);
  const one = metrics.length === 1;
  const groups = flat.rows.map((row) => {
    const values = metrics.map((name) => (one ? figure(row[name]) : `${name} ${figure(row[name])}`));
    return `${row[first]}${one ? "" : ":"} ${values.join(", ")}`;
  });
  const what = one ? `Totals of ${metrics[0]}` : "Totals";
  // The columns report-shares.ts's withGroupShares adds are of these totals (trial s20, N219, N236).
  const inGroup = shares.map((share) => `${share}in_${first}`);
  // Apart from the totals, so a report on several properties says it once (report-properties-answer.ts).
  const said =
    inGroup.length > 0
      ? [
          `Each row's ${inGroup.join(", ")} is its percent of its ${first}'s total${filtered ? " over the rows the filter keeps" : ""}.`,
        ]
      : [];
  return [
    `${what} by ${first} (GA's own, each over all its rows, not a sum of the rows shown): ${groups.join("; ")}.`,
    ...said,
  ];
}
