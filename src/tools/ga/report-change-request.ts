/**
 * What a "sessions%change" column asks of GA (report-change.ts works the changes out): the metric itself (or
 * the ratio or mean a day it names), checked before anything is sent. A change is from the previous value of
 * one calendar dimension whose values rise with time over any range (date, a year's week or month, a year):
 * `month` or `dayOfWeek` come round again, so their "previous" is not a period before.
 */
import { ValidationError } from "../../errors.js";
import type { RunReportsFields } from "../../schemas/google-analytics.js";
import { type SortKey, sortKeys } from "./report-ratios.js";

export const CHANGE_MARK = "%change";
/** The calendar dimensions whose values only rise over a range (the API schema's date and time dimensions). */
export const IN_ORDER = ["date", "isoYearIsoWeek", "yearWeek", "yearMonth", "year", "isoYear"] as const;
/** Calendar dimensions that come round again, and the rising one to use instead. */
const COMING_ROUND: Record<string, string> = {
  day: "date",
  dayOfWeek: "date",
  dayOfWeekName: "date",
  week: "yearWeek",
  isoWeek: "isoYearIsoWeek",
  month: "yearMonth",
};

/** The column a change is of: "sessions%change" → "sessions"; undefined for any other name. */
export const changeBase = (name: string): string | undefined =>
  name.endsWith(CHANGE_MARK) && name.length > CHANGE_MARK.length
    ? name.slice(0, -CHANGE_MARK.length)
    : undefined;

/** The change columns asked for, and the calendar dimension they step along. */
export interface ChangeAsk {
  columns: string[];
  calendar: string;
}

type Shape = Pick<RunReportsFields, "metrics" | "dimensions" | "date_ranges" | "realtime" | "funnel">;

const refuse = (field: string, message: string, hint: string): never => {
  throw new ValidationError(field, message, { hint });
};

/** The request with each "x%change" asked as x (once, where it stands), and the changes the answer adds. */
export function changeRequest<F extends Shape>(fields: F): { fields: F; change?: ChangeAsk } {
  const columns = fields.metrics.filter((name) => changeBase(name));
  // A funnel takes no metrics: the report's own check says so (review s26, finding 16).
  if (columns.length === 0 || fields.funnel) return { fields };
  const twice = columns.find((name, i) => columns.indexOf(name) !== i);
  if (twice) refuse("metrics", `"${twice}" is listed twice.`, "List it once.");
  const what = `a change from the previous period (${columns.join(", ")})`;
  if (fields.realtime) refuse("metrics", `${what} needs date ranges.`, "Leave out realtime.");
  if ((fields.date_ranges?.length ?? 1) > 1) {
    refuse(
      "date_ranges",
      `${what} is worked out within one date range.`,
      "Ask for one date range; or, for two periods side by side, ask for the metric without %change: " +
        "each row then has both values and their change.",
    );
  }
  const rising = fields.dimensions.filter((name) => (IN_ORDER as readonly string[]).includes(name));
  if (rising.length !== 1) {
    const round = fields.dimensions.find((name) => COMING_ROUND[name]);
    const instead = round ? `${round} comes round again (use ${COMING_ROUND[round]}); ` : "";
    refuse(
      "dimensions",
      rising.length === 0
        ? `${what} steps along one of ${IN_ORDER.join(", ")}, and this report has none of them.`
        : `${what} steps along one calendar dimension; this report has ${rising.join(" and ")}.`,
      `${instead}${instead ? "keep" : "Keep"} exactly one of ${IN_ORDER.join(", ")} in dimensions.`,
    );
  }
  checkOthers(what, rising[0] as string, fields.dimensions);
  const metrics = [...new Set(fields.metrics.map((name) => changeBase(name) ?? name))];
  return { fields: { ...fields, metrics }, change: { columns, calendar: rising[0] as string } };
}

/** The dimensions coming round that a rising one fixes: each date has one weekday, each yearMonth one month. */
const FIXES: Record<string, readonly string[]> = {
  date: ["day", "dayOfWeek", "dayOfWeekName", "week", "isoWeek", "month"],
  yearMonth: ["month"],
  yearWeek: ["week"],
  isoYearIsoWeek: ["isoWeek"],
};
/**
 * Parts of a year counted one way beside years counted another: week 01 of 2025 and of 2026 are days apart, and
 * month 12 of isoYear 2026 is 29–31 December 2025 (review s29, finding 2).
 */
const WEEK_YEARS: Record<string, string> = { isoWeek: "isoYear", week: "year", month: "year", day: "year" };

/**
 * Refuses other calendar dimensions a change could never step along: one the rising dimension fixes has a new
 * value each period, so no row has a period before with the same one (review s28, finding 6: `date` with
 * `dayOfWeekName` had every change empty); a week of one count beside a year of the other (finding 5).
 */
/**
 * What to ask instead of a dimension the rising one fixes, each of which answers (review s30, finding 7: GA's
 * dayOfWeek holds 0 to 6, so "Friday" kept no row; isoWeek goes with isoYear; day is the day of the month).
 */
function fixedHint(fixed: string): string {
  if (/^dayOfWeek/.test(fixed)) {
    // GA's dayOfWeek: 0 is Sunday (https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema).
    const friday = fixed === "dayOfWeek" ? 'dayOfWeek == "5"' : 'dayOfWeekName == "Friday"';
    return `For each weekday against the same weekday a week before, use isoYearIsoWeek with ${fixed}; or filter on it (${friday}: Fridays) by date.`;
  }
  const [within, unit] = fixed === "day" ? ["yearMonth", "month"] : [WEEK_YEARS[fixed] ?? "year", "year"];
  return `For each ${fixed} against the same ${fixed} a ${unit} before, use ${within} with ${fixed}; or leave ${fixed} out.`;
}

function checkOthers(what: string, calendar: string, dimensions: readonly string[]): void {
  const fixed = dimensions.find((name) => FIXES[calendar]?.includes(name));
  if (fixed) {
    refuse(
      "dimensions",
      `${what} compares each ${calendar} with the one before, and each ${calendar} has a single ${fixed}, so no row has one before with the same ${fixed}.`,
      fixedHint(fixed),
    );
  }
  for (const [week, year] of Object.entries(WEEK_YEARS)) {
    const other = year === "year" ? "isoYear" : "year";
    if (dimensions.includes(week) && dimensions.includes(other))
      refuse("dimensions", `${week} is counted within ${year}, not ${other}.`, `Use ${week} with ${year}.`);
  }
}

/**
 * The order of a report with changes, sorted here: as asked (`sort`, when order_by names a column worked out
 * here), else by its dimensions in the order given.
 */
export function changeSort(
  fields: Pick<RunReportsFields, "order_by" | "dimensions">,
  change: ChangeAsk,
  sort: readonly SortKey[] | undefined,
): SortKey[] {
  const asked = sort ? [...sort] : sortKeys(fields.order_by);
  if (asked.length === 0) return fields.dimensions.map((name) => ({ name, desc: false }));
  // Ties in time order, so a row's change reads beside the row before it (review s26, finding 15).
  const calendar = { name: change.calendar, desc: false };
  return asked.some((key) => key.name === change.calendar) ? asked : [...asked, calendar];
}

/** Refuses a metric condition beside a change: the rows it drops would read as periods without the figure. */
export function checkChangeFilter(sent: Record<string, unknown>, change: ChangeAsk | undefined): void {
  if (!change || sent.metricFilter === undefined) return;
  refuse(
    "filter",
    `a change from the previous period (${change.columns.join(", ")}) needs every period's row, and a condition ` +
      "on a metric leaves some out (a period it drops would read as one without the figure).",
    "Keep the filter's dimension conditions only, and keep to the rows you want after reading the changes.",
  );
}
