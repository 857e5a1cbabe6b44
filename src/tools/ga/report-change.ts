/**
 * "sessions%change": each row's percent change from the previous date, week, month or year of the same other
 * dimension values. Agents worked out month-over-month changes across one report's rows by hand (trial s22,
 * N257). GA4's Data API has no such column (its comparisons are between date ranges:
 * https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/DateRange), so the whole
 * report is read (report-ratios.ts's wholeForSort) and the column is added here, before the page is cut, so a
 * row's change is the same on every page. The previous period is the one before in the range's own calendar
 * (report-calendar.ts), not the previous row: GA leaves out rows whose metrics are all 0
 * (RunReportRequest.keepEmptyRows), so a period without a row had none, and a change from none is not a
 * percent. The summary says which periods are only partly in the range, the dates that would make them whole,
 * and each group's change from the first period to the last.
 */
import type { Row, RunReportResponse } from "../../connectors/google/types.js";
import { n } from "../numbers-in-words.js";
import type { StatedRange } from "./date-presets.js";
import { CALENDARS, DAY_VALUES, dayOf } from "./report-calendar.js";
import { type ChangeAsk, changeBase } from "./report-change-request.js";

const DAY_MS = 86_400_000;
const [PERMILLE, TENTHS] = [1000, 10];
/** Groups whose first-to-last change the summary names; the rows have every group's. */
const NAMED_GROUPS = 10;

const cellOf = (row: Row, at: number) => row.dimensionValues?.[at]?.value ?? "";
const numberAt = (row: Row | undefined, at: number) => {
  const value = row?.metricValues?.[at]?.value;
  return value === undefined || value.trim() === "" ? Number.NaN : Number(value);
};
const names = (headers: { name?: string }[] | undefined) =>
  (headers ?? []).map((header) => header.name ?? "");
const isoOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The percent change from `before` to `after` (to 0.1), when `before` is a number above 0. */
function percentChange(before: number, after: number): number | undefined {
  if (!Number.isFinite(before) || !Number.isFinite(after) || before <= 0) return undefined;
  return Math.round(((after - before) / before) * PERMILLE) / TENTHS;
}

/** A calendar's values over a range's days, in order, each with its first day in the range. */
export function periodsOf(calendar: string, range: StatedRange): { value: string; first: number }[] {
  const of = DAY_VALUES[calendar];
  if (!of) return [];
  const periods: { value: string; first: number }[] = [];
  for (let ms = dayOf(range.start_date); ms <= dayOf(range.end_date); ms += DAY_MS) {
    const value = of(ms);
    if (periods.at(-1)?.value !== value) periods.push({ value, first: ms });
  }
  return periods;
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

/** The response with each change column after GA's and the other added columns (none on the totals row). */
export function withChanges(
  response: RunReportResponse,
  change: ChangeAsk | undefined,
  range: StatedRange | undefined,
): RunReportResponse {
  if (!change) return response;
  const metrics = names(response.metricHeaders);
  const calendarAt = names(response.dimensionHeaders).indexOf(change.calendar);
  const periods = range ? periodsOf(change.calendar, range).map((period) => period.value) : [];
  const { groupOf, rowAt } = rowsByGroup(response, calendarAt);
  const columns = change.columns.map((name) => metrics.indexOf(changeBase(name) ?? name));
  const cells = (row: Row): Row => {
    const at = periods.indexOf(cellOf(row, calendarAt));
    const before = at > 0 ? rowAt(groupOf(row), periods[at - 1]) : undefined;
    const added = columns.map((column) => {
      // No row in the period before (inside the range): GA's 0 for a count, no value for a ratio.
      const was = at > 0 ? (before ? numberAt(before, column) : 0) : Number.NaN;
      const value = percentChange(was, numberAt(row, column));
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
 * The summary's notes: what the columns compare, the periods only partly in the range, first to last. Apart,
 * so a report on several properties says a note they all have once (report-properties-answer.ts).
 */
export function changeNote(
  response: RunReportResponse,
  change: ChangeAsk | undefined,
  range: StatedRange | undefined,
  today: string | undefined,
): string[] {
  if (!change || !range) return [];
  const { calendar, columns } = change;
  const dimensions = names(response.dimensionHeaders);
  const calendarAt = dimensions.indexOf(calendar);
  const periods = periodsOf(calendar, range);
  const label = (period: { value: string; first: number }) =>
    CALENDARS[calendar]?.label(period.first) ?? period.value;
  const others = dimensions.filter((name) => name !== calendar && name !== "dateRange");
  const unit = (CALENDARS[calendar]?.unit ?? "periods").replace(/s$/, "");
  const said = [
    `${columns.join(", ")}: each row's percent change from the previous ${unit} in the range` +
      `${others.length > 0 ? ` with the same ${others.join(", ")}` : ""}` +
      ` (none for the first ${unit}, nor where the one before had no ${columns.map(changeBase).join(", ")}).`,
    partWords(calendar, range, periods, label, today, unit),
    firstToLast(response, change, calendarAt, periods, label),
  ];
  return said.filter((words) => words !== "");
}

/** The first and last periods when only part of them is in the range (or the last is still running). */
function partWords(
  calendar: string,
  range: StatedRange,
  periods: { value: string; first: number }[],
  label: (period: { value: string; first: number }) => string,
  today: string | undefined,
  unit: string,
): string {
  const of = DAY_VALUES[calendar];
  const [first, last] = [periods[0], periods.at(-1)];
  if (!of || !first || !last || periods.length < 2) return "";
  const end = dayOf(range.end_date);
  const parts: string[] = [];
  if (of(dayOf(range.start_date) - DAY_MS) === first.value) {
    const next = periods[1] as { first: number };
    parts.push(
      `${label(first)} is only partly in the range (for whole periods, start on ${isoOf(next.first)})`,
    );
  }
  const running = today !== undefined && range.end_date >= today;
  if (of(end + DAY_MS) === last.value || running) {
    const whole = isoOf(last.first - DAY_MS);
    const how = running ? "is still running" : "is only partly in the range";
    parts.push(`${label(last)} ${how} (for whole periods, end on ${whole})`);
  }
  return parts.length > 0
    ? `${parts.join("; ")}: a change from or to it compares part of a ${unit} with a whole one.`
    : "";
}

/** Each group's change from the first period with rows to the last, for up to NAMED_GROUPS groups. */
function firstToLast(
  response: RunReportResponse,
  change: ChangeAsk,
  calendarAt: number,
  periods: { value: string; first: number }[],
  label: (period: { value: string; first: number }) => string,
): string {
  const present = new Set((response.rows ?? []).map((row) => cellOf(row, calendarAt)));
  const had = periods.filter((period) => present.has(period.value));
  const [first, last] = [had[0], had.at(-1)];
  if (!first || !last || first === last) return "";
  const metrics = names(response.metricHeaders);
  const { rowAt, groups } = rowsByGroup(response, calendarAt);
  const bases = change.columns.map((name) => changeBase(name) ?? name);
  const words = [...groups].slice(0, NAMED_GROUPS).map(([key, group]) => {
    const figures = bases.map((base) => {
      const at = metrics.indexOf(base);
      const [was, now] = [numberAt(rowAt(key, first.value), at), numberAt(rowAt(key, last.value), at)];
      const moved = percentChange(Number.isFinite(was) ? was : 0, Number.isFinite(now) ? now : 0);
      const of = (value: number) => (Number.isFinite(value) ? n(value) : "none");
      return `${bases.length > 1 ? `${base} ` : ""}${of(was)} → ${of(now)}${moved === undefined ? "" : ` (${signed(moved)})`}`;
    });
    return `${group.length > 0 ? `${group.join(" / ")}: ` : ""}${figures.join(", ")}`;
  });
  const more = groups.size > NAMED_GROUPS ? `; ${n(groups.size - NAMED_GROUPS)} more groups in the rows` : "";
  return `From ${label(first)} to ${label(last)}: ${words.join("; ")}${more}.`;
}
