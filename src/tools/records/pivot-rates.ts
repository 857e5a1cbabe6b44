/**
 * Rates over a pivot's counts, computed in the step rather than by the model (issue 27: an agent divided 12
 * turnouts itself, trial s19 N215, and the email recipe told it to divide clicks by opens). An order_by key of a
 * pivot (records/pivot.ts) that is not a column may name:
 * - `<column>%`: the column's share of its row's total, in %, to 0.1 (as Run Reports' "sessions%");
 * - `<column>/<column>` (either may be `total`): their ratio, to 4 decimals (as Run Reports' "a/b").
 * Each such key adds its column to every row (null where the divisor is 0) and the rows sort by it.
 */
import type { SortKey } from "./order.js";

type Row = Record<string, unknown>;

/** A column computed from the counts of a row. */
export interface RateColumn {
  name: string;
  /** Its meaning in words, for the summary. */
  words: string;
  value(row: Row): number | null;
}

const SHARE_DECIMALS = 10;
const RATIO_DECIMALS = 1e4;

const find = (names: readonly string[], wanted: string) =>
  names.find((name) => name === wanted) ??
  names.find((name) => name.toLowerCase() === wanted.trim().toLowerCase());

function share(name: string, column: string): RateColumn {
  return {
    name,
    words: `${name} is each row's ${column} over its total, in %`,
    value: (row) => {
      const total = Number(row.total);
      return total > 0
        ? Math.round((Number(row[column]) / total) * 100 * SHARE_DECIMALS) / SHARE_DECIMALS
        : null;
    },
  };
}

function ratio(name: string, top: string, bottom: string): RateColumn {
  return {
    name,
    words: `${name} is each row's ${top} over its ${bottom}`,
    value: (row) => {
      const below = Number(row[bottom]);
      return below > 0 ? Math.round((Number(row[top]) / below) * RATIO_DECIMALS) / RATIO_DECIMALS : null;
    },
  };
}

/** The rate a key names over these columns (`countable`: the count columns and, unless distinct, total). */
function rateOf(field: string, countable: readonly string[], hasTotal: boolean): RateColumn | undefined {
  const text = field.trim();
  if (text.endsWith("%") && hasTotal) {
    const column = find(countable, text.slice(0, -1));
    if (column !== undefined && column !== "total") return share(`${column}%`, column);
  }
  // A column's own name may hold "/" (a page path): each "/" is tried as the division.
  // From the second character: a page path's own first "/" divides nothing (review s21, finding 2).
  for (let at = text.indexOf("/", 1); at > 0; at = text.indexOf("/", at + 1)) {
    const top = find(countable, text.slice(0, at));
    const bottom = find(countable, text.slice(at + 1));
    if (top !== undefined && bottom !== undefined) return ratio(`${top}/${bottom}`, top, bottom);
  }
  return undefined;
}

/**
 * The rate columns order_by names, and the keys with their names as the rows will hold them. A key that is a
 * row field or a column already is left as it is; one that is neither, nor a rate, is left for the pivot to
 * refuse with the names it has.
 */
export function rateColumns(
  keys: readonly SortKey[],
  known: readonly string[],
  countable: readonly string[],
  hasTotal: boolean,
): { rates: RateColumn[]; keys: SortKey[] } {
  const rates: RateColumn[] = [];
  const named = keys.map((key) => {
    if (find(known, key.field) !== undefined) return key;
    const rate = rateOf(key.field, countable, hasTotal);
    if (!rate) return key;
    if (!rates.some((r) => r.name === rate.name)) rates.push(rate);
    return { ...key, field: rate.name };
  });
  return { rates, keys: named };
}
