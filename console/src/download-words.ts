/**
 * Which rows the downloads hold, in words (trial 2026-12-02-s7, finding 16: "(all 1 records)"): a count
 * of one reads "the 1 record", the kind in the singular.
 */
const count = (n: number) => n.toLocaleString("en-US");

/** "records" → "record" for one; "3 records", "the 1 record", "Showing 1 of 1 record". */
export const kindOf = (n: number, kind: string) => (n === 1 ? kind.replace(/s$/, "") : kind);

/**
 * The kept result's items shown from `from` on (0: all of them), more perhaps still to read: "all 12
 * rows", "the 1 record", "the 5 rows loaded so far", "rows 6–10 only: the 5 before them are not in these
 * files".
 */
export function downloadWords(kind: string, items: number, from: number, more: boolean): string {
  if (from > 0) {
    const before = `the ${count(from)} before ${from === 1 ? "it is" : "them are"} not in these files`;
    return items === 1
      ? `${kindOf(1, kind)} ${count(from + 1)} only: ${before}`
      : `${kind} ${count(from + 1)}–${count(from + items)} only: ${before}`;
  }
  if (more) return `the ${count(items)} ${kindOf(items, kind)} loaded so far`;
  return items === 1 ? `the 1 ${kindOf(1, kind)}` : `all ${count(items)} ${kind}`;
}
