/**
 * "sessions%change": each row's percent change from the previous date, week, month or year of the same other
 * dimension values. Agents worked out month-over-month changes across one report's rows by hand (trial s22,
 * N257). GA4's Data API has no such column (its comparisons are between date ranges:
 * https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/DateRange), so the whole
 * report is read (report-ratios.ts's wholeForSort) and the column is added here, before the page is cut, so a
 * row's change is the same on every page. The previous period is the one before in the range's own calendar
 * (report-calendar.ts), not the previous row: GA leaves out rows whose metrics are all 0
 * (RunReportRequest.keepEmptyRows), so a period without a row had none, and a change from none is not a
 * percent. A count of a period only partly comparable (report-change-periods.ts: cut by the range, the data's
 * first day, today, or GA's split weeks) has no change, as a part of a period is not a whole one; a mean a day,
 * a ratio or a rate does. The summary names those periods, the dates that make them whole, and each group's
 * change from the first whole period to the last.
 */
import type { Row, RunReportResponse } from "../../connectors/google/types.js";
import type { StatedRange } from "./date-presets.js";
import { DAY_VALUES } from "./report-calendar.js";
import {
  type Cut,
  changePeriods,
  cutWords,
  type Period,
  periodLabel,
  rowCutter,
} from "./report-change-periods.js";
import { type SortKey, sortedHere } from "./report-ratios.js";

/** How a row's period is cut (report-change-periods.ts rowCutter): by the period, or by the row's own days. */
export type RowCut = (
  period: Period,
  values: Readonly<Record<string, string>>,
) => { cut?: Cut | undefined; days?: number };

import { type ChangeAsk, changeBase } from "./report-change-request.js";
import type { DaySpan } from "./report-per-day.js";
import { NOT_ADDED_UP } from "./report-per-day-request.js";

const [PERMILLE, TENTHS] = [1000, 10];
/** Groups whose first-to-last change the summary names: with more, the rows have them. */
const NAMED_GROUPS = 10;

const cellOf = (row: Row, at: number) => row.dimensionValues?.[at]?.value ?? "";
const numberAt = (row: Row | undefined, at: number) => {
  const value = row?.metricValues?.[at]?.value;
  return value === undefined || value.trim() === "" ? Number.NaN : Number(value);
};
const names = (headers: { name?: string }[] | undefined) =>
  (headers ?? []).map((header) => header.name ?? "");

/**
 * A column that adds up over days (sessions, purchaseRevenue): a part of a period has less of it than a whole
 * one, and a period without a row had 0. Not a ratio, a mean a day or GA's rates and averages.
 */
export const addsUp = (column: string) => !column.includes("/") && !NOT_ADDED_UP.test(column);

/** The percent change from `before` to `after` (to 0.1), when `before` is a number above 0. */
function percentChange(before: number, after: number): number | undefined {
  if (!Number.isFinite(before) || !Number.isFinite(after) || before <= 0) return undefined;
  return Math.round(((after - before) / before) * PERMILLE) / TENTHS;
}

/** The report's rows by group (every dimension but the calendar's) and period, and how each names its group. */
function rowsByGroup(response: RunReportResponse, calendarAt: number) {
  const width = response.dimensionHeaders?.length ?? 0;
  const groupOf = (row: Row) =>
    Array.from({ length: width }, (_, at) => (at === calendarAt ? [] : [cellOf(row, at)])).flat();
  const rows = new Map<string, Row>();
  const groups = new Map<string, string[]>();
  for (const row of response.rows ?? []) {
    const group = groupOf(row);
    const key = JSON.stringify(group);
    rows.set(JSON.stringify([key, cellOf(row, calendarAt)]), row);
    if (!groups.has(key)) groups.set(key, group);
  }
  return {
    groupOf: (row: Row) => JSON.stringify(groupOf(row)),
    rowAt: (group: string, period: string | undefined) => rows.get(JSON.stringify([group, period])),
    groups,
  };
}

/** A group's value in a period: its row's, else GA's 0 for a column that adds up, else none. */
const valueIn = (row: Row | undefined, at: number, column: string) =>
  row ? numberAt(row, at) : addsUp(column) ? 0 : Number.NaN;

/** The response with each change column after GA's and the other added columns (none on the totals row). */
export function withChanges(
  response: RunReportResponse,
  change: ChangeAsk | undefined,
  periods: readonly Period[],
  cutOf: RowCut = (period) => ({ cut: period.cut }),
): RunReportResponse {
  if (!change) return response;
  const metrics = names(response.metricHeaders);
  const calendarAt = names(response.dimensionHeaders).indexOf(change.calendar);
  const { groupOf, rowAt } = rowsByGroup(response, calendarAt);
  const columns = change.columns.map((name) => {
    const base = changeBase(name) ?? name;
    return { base, at: metrics.indexOf(base) };
  });
  const dimensions = names(response.dimensionHeaders);
  const cells = (row: Row): Row => {
    const index = periods.findIndex((period) => period.value === cellOf(row, calendarAt));
    const [now, before] = [periods[index], index > 0 ? periods[index - 1] : undefined];
    const values = Object.fromEntries(dimensions.map((name, at) => [name, cellOf(row, at)]));
    const judged = [now, before].map((period) => (period ? cutOf(period, values) : undefined));
    const cuts = judged.map((judge) => judge?.cut);
    // A row's own days (month × weekday: its Mondays) differ in number from the row before's: counts not compared.
    const [daysNow, daysBefore] = judged.map((judge) => judge?.days);
    const unlike = daysNow !== undefined && daysBefore !== undefined && daysNow !== daysBefore;
    const added = columns.map(({ base, at }) => {
      // A count of a period only partly comparable is not compared (a ratio or a rate is); nor a mean a day of
      // one still running, whose today counts as a whole day (review s27, finding 3).
      const running = cuts.includes("running") && base.endsWith("/day");
      if (!now || !before || (addsUp(base) && (cuts.some(Boolean) || unlike)) || running) return {};
      const value = percentChange(valueIn(rowAt(groupOf(row), before.value), at, base), numberAt(row, at));
      return value === undefined ? {} : { value: String(value) };
    });
    return { ...row, metricValues: [...(row.metricValues ?? []), ...added] };
  };
  return {
    ...response,
    metricHeaders: [
      ...(response.metricHeaders ?? []),
      ...change.columns.map((name) => ({ name, type: "TYPE_FLOAT" as const })),
    ],
    ...(response.rows ? { rows: response.rows.map(cells) } : {}),
    ...(response.totals
      ? {
          totals: response.totals.map((row) => ({
            ...row,
            metricValues: [...(row.metricValues ?? []), ...change.columns.map(() => ({}))],
          })),
        }
      : {}),
  };
}

const signed = (value: number) => `${value > 0 ? "+" : value < 0 ? "−" : "±"}${Math.abs(value)}%`;

/**
 * The summary's notes: what the columns compare, the periods only partly comparable, first to last. Apart,
 * so a report on several properties says a note they all have once (report-properties-answer.ts). None
 * without rows.
 */
export function changeNote(
  response: RunReportResponse,
  change: ChangeAsk | undefined,
  periods: readonly Period[],
  o: { span: DaySpan; filtered: boolean },
): string[] {
  if (!change || (response.rows?.length ?? 0) === 0) return [];
  const { calendar, columns } = change;
  const dimensions = names(response.dimensionHeaders);
  const others = dimensions.filter((name) => name !== calendar && name !== "dateRange");
  const unit = periods.length > 0 ? periodUnit(calendar) : "period";
  const what =
    `${columns.join(", ")}: each row's percent change from the previous ${unit}${o.filtered ? " the filter keeps" : ""}` +
    `${others.length > 0 ? ` with the same ${others.join(", ")}` : ""} (none for the first, nor from a ${unit} ` +
    "without the row's figure).";
  // With other calendar values (month × year), each row is judged by its own days (report-change-periods.ts).
  const byRow = others.some((name) => name in DAY_VALUES);
  const partly = byRow ? rowCutWords(columns, o.span) : cutSentence(columns, periods, o.span, calendar);
  const first = byRow ? "" : firstToLast(response, change, periods);
  return [what, partly, first].filter((words) => words !== "");
}

/** The periods cut and why, and which columns are not worked out to or from them. */
function cutSentence(
  columns: readonly string[],
  periods: readonly Period[],
  span: DaySpan,
  calendar: string,
): string {
  const cuts = cutWords(calendar, periods, span);
  if (cuts.length === 0) return "";
  const unit = periodUnit(calendar);
  const counts = columns.filter((name) => addsUp(changeBase(name) ?? name));
  // A mean a day compares a part of a period with a whole one, but not one still running, whose today counts
  // as a whole day (review s27, finding 3).
  const settled = periods.some((period) => period.cut && period.cut !== "running");
  const daily = settled
    ? ` (${counts.map((name) => name.replace(/%change$/, "/day%change")).join(", ")} compares them a day at a time${periods.some((period) => period.cut === "running") ? ", except one still running" : ""})`
    : "";
  const them = cuts.length === 1 ? "it" : "them";
  // A mean a day of a period still running is withheld too, and named (review s28, finding 13).
  const running = periods.some((period) => period.cut === "running");
  const means = running ? columns.filter((name) => (changeBase(name) ?? "").endsWith("/day")) : [];
  const withheld = [...counts, ...means];
  const verb = withheld.length === 1 ? "is" : "are";
  const uneven = periods.some((period) => period.cut === "uneven");
  const why =
    means.length > 0 && !settled
      ? "the one still running holds today, which counts as a whole day"
      : uneven
        ? `the ${unit}s hold different numbers of the days the filter keeps${daily}`
        : `part of a ${unit} is not a whole one${daily}`;
  return `${cuts.join("; ")}.${withheld.length > 0 ? ` ${withheld.join(", ")} ${verb} not worked out to or from ${them}: ${why}.` : ""}`;
}

/** With other calendar values, what leaves a row without a change. */
function rowCutWords(columns: readonly string[], span: DaySpan): string {
  const counts = columns.filter((name) => addsUp(changeBase(name) ?? name));
  if (counts.length === 0) return "";
  return (
    `${counts.join(", ")} ${counts.length === 1 ? "is" : "are"} not worked out for a row whose own days, in it or in the ` +
    `period before, are only partly in the range or the filter's dates, before the data or still running (today, ${span.today}), ` +
    `nor for one holding a different number of days from the row before (5 Mondays against 4; one day of a week against seven).`
  );
}

/** "month", "week", "day", "year": the unit a calendar's periods are. */
const periodUnit = (calendar: string) =>
  ({ date: "day", yearMonth: "month", yearWeek: "week", isoYearIsoWeek: "week" })[calendar] ?? "year";

/** Each group's change from the first whole period with rows to the last, when there are at most NAMED_GROUPS. */
function firstToLast(response: RunReportResponse, change: ChangeAsk, periods: readonly Period[]): string {
  const calendarAt = names(response.dimensionHeaders).indexOf(change.calendar);
  const present = new Set((response.rows ?? []).map((row) => cellOf(row, calendarAt)));
  const whole = periods.filter((period) => !period.cut && present.has(period.value));
  const [first, last] = [whole[0], whole.at(-1)];
  const { rowAt, groups } = rowsByGroup(response, calendarAt);
  if (!first || !last || first === last || groups.size > NAMED_GROUPS) return "";
  const metrics = names(response.metricHeaders);
  const bases = change.columns.map((name) => changeBase(name) ?? name);
  const words = [...groups].flatMap(([key, group]) => {
    const figures = bases.flatMap((base) => {
      const at = metrics.indexOf(base);
      const [was, now] = [
        valueIn(rowAt(key, first.value), at, base),
        valueIn(rowAt(key, last.value), at, base),
      ];
      if (!Number.isFinite(was) && !Number.isFinite(now)) return [];
      const moved = percentChange(was, now);
      // As the rows write it (to 4 decimals), grouped as the summary's figures are (review s26, finding 17).
      const of = (value: number) =>
        Number.isFinite(value) ? value.toLocaleString("en-US", { maximumFractionDigits: 4 }) : "none";
      return [
        `${bases.length > 1 ? `${base} ` : ""}${of(was)} → ${of(now)}${moved === undefined ? "" : ` (${signed(moved)})`}`,
      ];
    });
    return figures.length > 0
      ? [`${group.length > 0 ? `${group.join(" / ")}: ` : ""}${figures.join(", ")}`]
      : [];
  });
  if (words.length === 0) return "";
  const label = (period: Period) => periodLabel(change.calendar, period);
  // A whole period left out for holding more or fewer of a filter's days is not "the last whole" (review s31, 7).
  const uneven = periods.some((period) => period.cut === "uneven");
  const which = uneven
    ? `the first and last whole ${periodUnit(change.calendar)}s holding as many of the filter's days`
    : `the first and last whole ${periodUnit(change.calendar)}s`;
  return `From ${label(first)} to ${label(last)} (${which}): ${words.join("; ")}.`;
}

/** The whole report with its change columns, sorted here (`sort`), and the summary's notes on them. */
export function changedReport(
  response: RunReportResponse,
  change: ChangeAsk | undefined,
  o: {
    range: StatedRange | undefined;
    span: DaySpan;
    dimensionFilter: unknown;
    sort: readonly SortKey[] | undefined;
    /** limit per: the whole report is read for it (its refusal names limit). */
    perGroup?: boolean;
  },
): { whole: RunReportResponse; notes: string[] } {
  const { range, span } = o;
  const periods = change && range ? changePeriods(change.calendar, range, span, o.dimensionFilter) : [];
  const cutOf = change && range ? rowCutter(change.calendar, range, span, o.dimensionFilter) : undefined;
  const whole = sortedHere(withChanges(response, change, periods, cutOf), o.sort, o.perGroup);
  const notes = changeNote(whole, change, periods, { span, filtered: o.dimensionFilter !== undefined });
  return { whole, notes };
}
