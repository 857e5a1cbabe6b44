/**
 * The middles of a group's values that count_by's sum gives beside its sum and mean: the median (trial s26, N352:
 * "median order value by channel" was a model's sorting) and a percentile asked for ("next_hours:p90": trial s42,
 * N588 listed 44 rows for one).
 */

/** The middle value (the mean of the two middle ones when even), to 0.01; null for none. */
export function medianOf(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const middle =
    sorted.length % 2 === 1
      ? (sorted[mid] as number)
      : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return Math.round(middle * 100) / 100;
}

/**
 * The value `percent` % of the values are at or below, linear between the two nearest ranks (as a spreadsheet's
 * PERCENTILE.INC: the 50th is the median), to 0.01; null for none.
 */
export function percentileOf(values: readonly number[], percent: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = ((sorted.length - 1) * percent) / 100;
  const low = Math.floor(rank);
  const [below, above] = [sorted[low] as number, sorted[Math.min(low + 1, sorted.length - 1)] as number];
  return Math.round((below + (rank - low) * (above - below)) * 100) / 100;
}

/** A date as a record writes it, and the instant it orders by. */
export interface RankedDate {
  rank: number;
  value: string;
}

/**
 * The date `percent` % of the dates are at or before, as a record writes it: the nearest rank (of two middle
 * ones, the earlier), not a mean of two dates, so it is one record's own date on its own clock (trial s48,
 * N655: "the median Created At of each list's members" was refused, "a percentile is of numbers").
 */
export function dateAtPercentile(dates: readonly RankedDate[], percent: number): string | null {
  if (dates.length === 0) return null;
  const sorted = [...dates].sort((a, b) => a.rank - b.rank);
  const at = Math.max(Math.ceil((sorted.length * percent) / 100) - 1, 0);
  return (sorted[at] as RankedDate).value;
}
