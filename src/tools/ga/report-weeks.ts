/**
 * The sentence a report by ISO week gets: the days of its first and last weeks, and whether they fall partly
 * outside the dates asked (trial s8, N26: rows read "202636" and the agent worked out the Monday and the partial
 * weeks itself). Google's API schema: isoYearIsoWeek is "The combined values of isoWeek and isoYear", isoWeek
 * "ISO week number, where each week starts on Monday"
 * (https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema); ISO 8601's week 1 is the
 * week with 4 January in it.
 */
import type { RunReportResponse } from "../../connectors/google/types.js";
import type { StatedRange } from "./date-presets.js";
import type { FlatReport } from "./report-flatten.js";

const DAY_MS = 86_400_000;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** The Monday (UTC midnight, ms) of ISO week `week` of ISO year `year`. */
export function isoWeekMonday(year: number, week: number): number {
  const january4 = Date.UTC(year, 0, 4);
  const weekday = (new Date(january4).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  return january4 - weekday * DAY_MS + (week - 1) * 7 * DAY_MS;
}

const dayText = (ms: number) => {
  const d = new Date(ms);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
};

/** "202636 is 31 Aug – 6 Sep 2026", and the days of it inside [from, to] when fewer than 7. */
function weekSpan(value: string, from: number, to: number): { text: string; inside: number } {
  const monday = isoWeekMonday(Number(value.slice(0, 4)), Number(value.slice(4)));
  const sunday = monday + 6 * DAY_MS;
  const inside = Math.round((Math.min(sunday, to) - Math.max(monday, from)) / DAY_MS) + 1;
  return { text: `${value} is ${dayText(monday)} – ${dayText(sunday)}`, inside };
}

/** The note, or undefined when the report has no isoYearIsoWeek rows or several date ranges. */
export function weekNote(
  flat: FlatReport,
  headers: Pick<RunReportResponse, "dimensionHeaders">,
  stated: readonly StatedRange[] | undefined,
): string | undefined {
  if (!(headers.dimensionHeaders ?? []).some((h) => h.name === "isoYearIsoWeek")) return undefined;
  const range = stated?.length === 1 ? stated[0] : undefined;
  const weeks = [...new Set(flat.rows.map((row) => String(row.isoYearIsoWeek)))]
    .filter((week) => /^\d{6}$/.test(week))
    .sort();
  const [first, last] = [weeks[0], weeks.at(-1)];
  if (!range || first === undefined || last === undefined) return undefined;
  const [from, to] = [Date.parse(range.start_date), Date.parse(range.end_date)];
  const spans = [...new Set([first, last])].map((week) => weekSpan(week, from, to));
  const partial = spans.filter((span) => span.inside < 7).map((span) => span.inside);
  const said = `ISO weeks run Monday to Sunday: ${spans.map((span) => span.text).join(", ")}`;
  if (partial.length === 0) return `${said}.`;
  const which =
    partial.length === 2
      ? "the first and last weeks fall"
      : `week ${spans.find((span) => span.inside < 7)?.text.slice(0, 6)} falls`;
  return (
    `${said}; ${which} partly outside ${range.start_date} – ${range.end_date}, so ` +
    `${partial.length === 2 ? "they hold" : "it holds"} ${partial.join(" and ")} of 7 days.`
  );
}
