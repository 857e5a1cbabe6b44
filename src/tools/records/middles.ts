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
