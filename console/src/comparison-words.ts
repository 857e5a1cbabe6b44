/**
 * Two periods compared, in two plain sentences for the page's headline (newcomer trial 2026-12-02-s5,
 * finding 4: the step's summary, written for an agent, was a 20-line paragraph with
 * `date_ranges [{"start_date":…}]` in it; it stays under Details). The first sentence says how each
 * measure moved over the whole report (GA's totals, or the report's one row); the second whether the
 * periods compare like for like and, when they differ in length, which dates would (as
 * src/tools/ga/report-periods.ts words it for an agent). Each period is said with its dates in the first
 * (trial 2026-12-02-s8, finding 3: an example's labels outlived the dates they were written for).
 */

import { dates, periodWords } from "../../src/tools/ga/period-words.js";

type Row = Record<string, unknown>;

interface Range {
  start_date: string;
  end_date: string;
  name?: string;
}

export interface ComparedReport {
  rows: Row[];
  totals?: Row[];
  date_ranges: Range[];
  /** `paired`: the dimensions of dates whose rows pair the periods in order; `no_row_change`: why rows have none. */
  comparison: { from: string; to: string; paired?: string; no_row_change?: string };
  request: { metrics?: { name: string }[]; dimensions?: unknown[] };
}

const DAY_MS = 86_400_000;
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const daysOf = (range: Range) => Math.round((day(range.end_date) - day(range.start_date)) / DAY_MS) + 1;
const upper = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/** Whether a report's data is one of two periods merged (Run Reports' `comparison`). */
export function isCompared(data: Row | undefined): data is Row & ComparedReport {
  const comparison = data?.comparison as { from?: unknown } | undefined;
  return (
    typeof comparison?.from === "string" && Array.isArray(data?.date_ranges) && Array.isArray(data?.rows)
  );
}

/** The whole report's row: GA's totals over the dimensions, or the only row of a report without any. */
function overall(data: ComparedReport): Row | undefined {
  if (data.request.dimensions?.length) return data.totals?.length === 1 ? data.totals[0] : undefined;
  return data.rows.length === 1 ? data.rows[0] : undefined;
}

/**
 * "Sessions went from 16,419 in October (1 – 31 Oct 2026) to 16,493 in November (1 – 30 Nov 2026),
 * +0.45 % ▲", each measure so.
 */
function moves(
  data: ComparedReport,
  title: (column: string) => string,
  cell: (column: string, value: unknown) => unknown,
) {
  const row = overall(data);
  const { from, to } = data.comparison;
  const words = periodWords(data.date_ranges, true);
  const [fromWords, toWords] = [words(from), words(to)];
  const said = (data.request.metrics ?? []).flatMap(({ name }) => {
    const [a, b, pct] = [row?.[`${name}[${from}]`], row?.[`${name}[${to}]`], row?.[`${name}_change_pct`]];
    if (typeof a !== "number" || typeof b !== "number") return [];
    // After a comma: the period's words end in its dates' parenthesis.
    const change = typeof pct === "number" ? `, ${cell(`${name}_change_pct`, pct)}` : "";
    return [
      `${title(name)} went from ${cell(name, a)} in ${fromWords} to ${cell(name, b)} in ${toWords}${change}`,
    ];
  });
  if (said.length === 0) return `Each row compares ${toWords} with ${fromWords}.`;
  return `${said.join("; ")}.`;
}

/**
 * Like for like, or the dates that would be: the longer period cut to the shorter one's days. The periods
 * by their names alone: the sentence before gave each one's dates.
 */
function likeForLike(data: ComparedReport): string {
  const words = periodWords(data.date_ranges, true, false);
  const [from, to] = [words(data.comparison.from), words(data.comparison.to)];
  // Changes go from the period that starts first to the other (src/tools/ga/report-compare.ts changeOrder).
  const [first, second] = data.date_ranges;
  if (!first || !second) return "";
  const [earlier, later] = second.start_date < first.start_date ? [second, first] : [first, second];
  const [n, m] = [daysOf(earlier), daysOf(later)];
  if (n === m) return `Both periods have ${n} day${n === 1 ? "" : "s"}.`;
  const [longer, longName, shortName, short] = n > m ? [earlier, from, to, m] : [later, to, from, n];
  const cut = new Date(day(longer.start_date) + (short - 1) * DAY_MS).toISOString().slice(0, 10);
  return (
    `${upper(from)} has ${n} days and ${to} ${m}, so counts differ partly from the length alone; to compare the ` +
    `same number of days, set ${longName} to ${dates(longer.start_date, cut)} (as long as ${shortName}).`
  );
}

/**
 * How rows by date read (src/tools/ga/report-pairs.ts): each pairs the periods' days in order, so its change
 * is that pair's; or, when the periods' days (weeks, months) do not line up, each period's side by side with
 * no change, which the totals still give for the whole periods.
 */
function pairedRows(data: ComparedReport, title: (column: string) => string): string {
  const paired = data.comparison.paired?.split(",").filter(Boolean) ?? [];
  if (paired.length === 0) return "";
  const by = paired.map((name) => title(name).toLowerCase()).join(" and ");
  if (data.comparison.no_row_change) {
    return (
      `By ${by} the periods do not line up, so each row shows both periods side by side, in order, ` +
      "without a change; the totals compare the whole periods."
    );
  }
  return `Each row by ${by} sets the periods side by side in order (first with first, second with second…); its change is between those two.`;
}

/** The headline of a two-period report: how the measures moved, whether the periods are alike, how rows pair. */
export function comparisonHeadline(
  data: ComparedReport,
  title: (column: string) => string,
  cell: (column: string, value: unknown) => unknown,
): string {
  return [moves(data, title, cell), likeForLike(data), pairedRows(data, title)].filter(Boolean).join(" ");
}
