/**
 * A funnel over two date ranges: the same funnel run once per period (GA's one request over several ranges
 * returns rows per range index, which one summary would add up: report-request.ts), its steps side by side as a
 * two-range report's rows are (report-compare.ts): users in each period and the change, each step's completion
 * rate in each period and its change in points. The agent ran a funnel per period and worked out every rate
 * and change itself (trial s21, N244).
 */
import type { FlatRow } from "./report-flatten.js";

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
const numberOr = (value: FlatRow[string] | undefined) => (typeof value === "number" ? value : null);

/** A step's row key: its number, and the breakdown's value when there is one. */
const keyOf = (row: FlatRow, breakdown: string | undefined) =>
  JSON.stringify([row.step_number, breakdown ? row[breakdown] : null]);

/** The two periods' rows merged per step (and breakdown value), in the later period's order. */
export function comparedFunnelRows(
  [earlier, later]: readonly [FlatRow[], FlatRow[]],
  [from, to]: readonly [string, string],
  breakdown: string | undefined,
): FlatRow[] {
  const before = new Map(earlier.map((row) => [keyOf(row, breakdown), row]));
  const keys = [...new Set([...later, ...earlier].map((row) => keyOf(row, breakdown)))];
  const after = new Map(later.map((row) => [keyOf(row, breakdown), row]));
  return keys.map((key) => {
    const [a, b] = [before.get(key), after.get(key)];
    const shown = (b ?? a) as FlatRow;
    const [usersA, usersB] = [Number(a?.users ?? 0), Number(b?.users ?? 0)];
    const [rateA, rateB] = [numberOr(a?.completion_rate_pct), numberOr(b?.completion_rate_pct)];
    return {
      step_number: shown.step_number ?? null,
      step: shown.step ?? null,
      ...(breakdown ? { [breakdown]: shown[breakdown] ?? null } : {}),
      [`users[${from}]`]: usersA,
      [`users[${to}]`]: usersB,
      users_change: usersB - usersA,
      users_change_pct: usersA === 0 ? null : round(((usersB - usersA) / usersA) * 100),
      [`completion_rate_pct[${from}]`]: rateA,
      [`completion_rate_pct[${to}]`]: rateB,
      completion_rate_pct_change: rateA === null || rateB === null ? null : round(rateB - rateA),
    };
  });
}

/**
 * "From A to B, the share of the first step's users who reached the last went from 12.3 % to 14.1 % (+1.8
 * points)": over each step's "(all)" rows when there is a breakdown (review s25, finding 1); for an open funnel,
 * whose users may enter at any step, the last step's users as a share of the first's.
 */
export function comparedFunnelWords(
  [earlier, later]: readonly [FlatRow[], FlatRow[]],
  [from, to]: readonly [string, string],
  funnel: { breakdown?: string | undefined; open?: boolean | undefined },
): string {
  const overall = (all: FlatRow[]) => {
    const rows = funnel.breakdown ? all.filter((row) => row[funnel.breakdown ?? ""] === "(all)") : all;
    const [first, last] = [Number(rows[0]?.users ?? 0), Number(rows[rows.length - 1]?.users ?? 0)];
    return first === 0 ? undefined : round((last / first) * 100);
  };
  const [a, b] = [overall(earlier), overall(later)];
  if (a === undefined || b === undefined) return "";
  const points = round(b - a);
  const sign = points > 0 ? "+" : points < 0 ? "−" : "±";
  const what = funnel.open
    ? "the last step's users as a share of the first step's"
    : "the share of the first step's users who reached the last";
  return ` From ${from} to ${to}, ${what} went from ${a} % to ${b} % (${sign}${Math.abs(points)} points).`;
}

/** The two periods in time order (earlier first, as two-range reports compare), with their indexes as asked. */
export function inTimeOrder<R extends { start_date: string; end_date: string }>(
  stated: readonly R[],
): number[] {
  return stated
    .map((range, index) => ({ range, index }))
    .sort(
      (a, b) =>
        a.range.start_date.localeCompare(b.range.start_date) ||
        a.range.end_date.localeCompare(b.range.end_date),
    )
    .map(({ index }) => index);
}
