/**
 * A report by day of week with a mean a day ("sessions/day" by dayOfWeekName) says how a weekend day compares
 * with a weekday, for each value of its other dimensions (each month, each channel). Agents averaged five
 * weekdays and two weekend days and worked out the gap themselves (trial s20, N234). Each figure is the mean of
 * the daily values on the range's Saturdays and Sundays, or on its Mondays to Fridays, that have the row's
 * other calendar values; a day without data counts as 0. The weekend is Saturday and Sunday, as the note says.
 */
import { n } from "../numbers-in-words.js";
import type { StatedRange } from "./date-presets.js";
import { daysMatching } from "./report-calendar.js";

const MOST_GROUPS = 24;
const WEEKDAY_DIMENSIONS = ["dayOfWeek", "dayOfWeekName"];
/** Dimensions a group leaves out: the day's own, which the weekend and weekdays replace. */
const LEFT_OUT = new Set(["date", ...WEEKDAY_DIMENSIONS]);

const isWeekend = (ms: number) => [0, 6].includes(new Date(ms).getUTCDay());
const weekendDate = (value: string) =>
  isWeekend(Date.UTC(Number(value.slice(0, 4)), Number(value.slice(4, 6)) - 1, Number(value.slice(6, 8))));

interface Group {
  values: Record<string, string>;
  weekend: number[];
  weekdays: number[];
}

const mean = (sum: number, days: number) => Math.round((sum / days) * 100) / 100;
const change = (to: number, from: number) => {
  if (from === 0) return "";
  const pct = Math.round(((to - from) / from) * 1000) / 10;
  return ` (${pct > 0 ? "+" : pct < 0 ? "−" : ""}${Math.abs(pct)} %)`;
};

/** The groups' sums: each by-date row's metrics added to its group's weekend or weekdays. */
function grouped(rows: WeekendAsk["rows"], kept: readonly string[], width: number): Map<string, Group> {
  const groups = new Map<string, Group>();
  for (const row of rows) {
    const values = Object.fromEntries(kept.map((name) => [name, row.values[name] ?? ""]));
    const key = JSON.stringify(kept.map((name) => values[name]));
    const group = groups.get(key) ?? {
      values,
      weekend: Array.from({ length: width }, () => 0),
      weekdays: Array.from({ length: width }, () => 0),
    };
    const side = weekendDate(row.values.date ?? "") ? group.weekend : group.weekdays;
    row.metrics.forEach((value, i) => {
      side[i] = (side[i] ?? 0) + value;
    });
    groups.set(key, group);
  }
  return groups;
}

export interface WeekendAsk {
  dimensions: readonly string[];
  perDay: readonly string[];
  stated: readonly StatedRange[];
  /** The report by date: each row's dimension values (date among them) and its per-day metrics' values. */
  rows: { values: Record<string, string>; metrics: number[] }[];
}

/** "A day at the weekend … against a weekday: month 09: sessions/day 915.2 against 1,312.2 (−30.3 %); …" */
export function weekendNote(ask: WeekendAsk): string | undefined {
  if (!ask.dimensions.some((name) => WEEKDAY_DIMENSIONS.includes(name))) return undefined;
  const kept = ask.dimensions.filter((name) => !LEFT_OUT.has(name));
  const groups = [...grouped(ask.rows, kept, ask.perDay.length).values()];
  if (groups.length === 0) return undefined;
  const parts = groups.slice(0, MOST_GROUPS).flatMap((group) => {
    const { dateRange, ...calendar } = group.values;
    const at = ask.stated.findIndex((range, i) => (range.name ?? `date_range_${i}`) === dateRange);
    const range = ask.stated[dateRange === undefined ? 0 : at];
    if (!range) return [];
    const weekendDays = daysMatching(range, calendar, isWeekend).length;
    const weekDays = daysMatching(range, calendar, (ms) => !isWeekend(ms)).length;
    if (weekendDays === 0 || weekDays === 0) return [];
    const figures = ask.perDay.map((name, i) => {
      const [end, week] = [mean(group.weekend[i] ?? 0, weekendDays), mean(group.weekdays[i] ?? 0, weekDays)];
      return `${name} ${n(end)} against ${n(week)}${change(end, week)}`;
    });
    const label = Object.entries(group.values).map(([name, value]) => `${name} ${value}`);
    const days = `${weekendDays} and ${weekDays} days`;
    return [`${label.length > 0 ? `${label.join(", ")} ` : ""}(${days}): ${figures.join(", ")}`];
  });
  if (parts.length === 0) return undefined;
  const more = groups.length > MOST_GROUPS ? ` (the first ${MOST_GROUPS} of ${n(groups.length)} groups)` : "";
  return (
    "A weekend day (Saturday, Sunday) against a weekday (Monday to Friday), each the mean of its days' " +
    `figures${more}: ${parts.join("; ")}.`
  );
}
