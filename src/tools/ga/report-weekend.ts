/**
 * A report by day of week with a mean a day ("sessions/day" by dayOfWeekName) says how a weekend day compares
 * with a weekday, for each value of its other dimensions (each month, each channel). Agents averaged five
 * weekdays and two weekend days and worked out the gap themselves (trial s20, N234). Each figure is the mean of
 * the daily values on the range's Saturdays and Sundays, or on its Mondays to Fridays, that have the row's
 * other calendar values and can have data (report-per-day.ts's counted days); a day without data counts as 0.
 * The weekend is Saturday and Sunday, as the note says. Groups are listed in the ranges' order, then in calendar
 * order, or largest first by the first per-day metric (review s24, findings 6 and 10).
 */
import { n } from "../numbers-in-words.js";
import { type CountedDays, DAY_VALUES, daysMatching, rangeByKey } from "./report-calendar.js";

const MOST_GROUPS = 12;
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
function grouped(rows: WeekendAsk["rows"], kept: readonly string[], width: number): Group[] {
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
  return [...groups.values()];
}

/** The ranges' order, then calendar order when every other dimension is a calendar one, else largest first. */
function ordered(groups: Group[], kept: readonly string[], days: CountedDays): Group[] {
  const rangeAt = (group: Group) => days.ranges.findIndex((range) => range.key === group.values.dateRange);
  const calendar = kept.every((name) => name === "dateRange" || name in DAY_VALUES);
  const size = (group: Group) => (group.weekend[0] ?? 0) + (group.weekdays[0] ?? 0);
  const text = (group: Group) => kept.map((name) => group.values[name]).join("\u0000");
  return [...groups].sort(
    (a, b) =>
      rangeAt(a) - rangeAt(b) ||
      (calendar ? (text(a) < text(b) ? -1 : text(a) > text(b) ? 1 : 0) : size(b) - size(a)),
  );
}

export interface WeekendAsk {
  dimensions: readonly string[];
  perDay: readonly string[];
  days: CountedDays;
  /** The report by date: each row's dimension values (date among them) and its per-day metrics' values. */
  rows: { values: Record<string, string>; metrics: number[] }[];
}

/** One group's words: "month 09, 8 weekend days and 22 weekdays: sessions/day 915.2 against 1,312.2 (−30.3 %)". */
function groupWords(group: Group, ask: WeekendAsk): string | undefined {
  const { dateRange, ...calendar } = group.values;
  const range = rangeByKey(ask.days, dateRange);
  if (!range?.counted) return undefined;
  const keep = ask.days.keep(group.values);
  const weekendDays = daysMatching(range.counted, calendar, (ms) => isWeekend(ms) && keep(ms)).length;
  const weekDays = daysMatching(range.counted, calendar, (ms) => !isWeekend(ms) && keep(ms)).length;
  if (weekendDays === 0 || weekDays === 0) return undefined;
  const figures = ask.perDay.map((name, i) => {
    const [end, week] = [mean(group.weekend[i] ?? 0, weekendDays), mean(group.weekdays[i] ?? 0, weekDays)];
    return `${name} ${n(end)} against ${n(week)}${change(end, week)}`;
  });
  const label = [
    ...(dateRange === undefined ? [] : [range.label]),
    ...Object.entries(calendar).map(([name, value]) => `${name} ${value}`),
  ];
  const days = `${weekendDays} weekend days and ${weekDays} weekdays`;
  return `${label.length > 0 ? `${label.join(", ")}, ` : ""}${days}: ${figures.join(", ")}`;
}

/** "A weekend day … against a weekday: month 09, 8 weekend days and 22 weekdays: sessions/day 915.2 against …" */
export function weekendNote(ask: WeekendAsk): string | undefined {
  if (!ask.dimensions.some((name) => WEEKDAY_DIMENSIONS.includes(name))) return undefined;
  const kept = ask.dimensions.filter((name) => !LEFT_OUT.has(name));
  const groups = ordered(grouped(ask.rows, kept, ask.perDay.length), kept, ask.days);
  // Groups with weekend days and weekdays both; the first MOST_GROUPS of them said (review s25, finding 10).
  const all = groups.flatMap((group) => groupWords(group, ask) ?? []);
  const parts = all.slice(0, MOST_GROUPS);
  if (parts.length === 0) return undefined;
  const calendar = kept.every((name) => name === "dateRange" || name in DAY_VALUES);
  const which = calendar ? "the first in calendar order" : "the largest";
  const more = all.length > parts.length ? ` (${parts.length} of ${n(all.length)} groups, ${which})` : "";
  return (
    "A weekend day (Saturday, Sunday) against a weekday (Monday to Friday), each the mean of its days' " +
    `figures${more}: ${parts.join("; ")}.`
  );
}
