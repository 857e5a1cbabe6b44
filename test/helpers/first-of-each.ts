/**
 * Each group's first n rows, by hand: the expected answer of limit "n per field" (written apart from
 * src/tools/records/limit-each.ts, so a test does not check the step against itself).
 */
export function firstOfEachByHand<T extends Record<string, unknown>>(
  rows: T[],
  fields: readonly string[],
  n: number,
): T[] {
  const taken = new Map<string, number>();
  return rows.filter((row) => {
    const key = JSON.stringify(fields.map((field) => row[field]));
    const had = taken.get(key) ?? 0;
    taken.set(key, had + 1);
    return had < n;
  });
}
