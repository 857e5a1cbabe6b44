/** A pivot's refusals: an order_by of no column, too many columns (pivot.ts). */
import { ValidationError } from "../../errors.js";

/** The most columns a pivot lays out: past it each row is a record of its own, no table to read. */
export const MAX_COLUMNS = 200;

export function refuseOrder(
  field: string,
  own: readonly string[],
  names: readonly string[],
  columns: string,
): never {
  const listed = [...own, ...names.slice(0, 30)].join(", ");
  throw new ValidationError(
    "order_by",
    `with ${columns}:columns, order_by sorts the rows, which have no column ${JSON.stringify(field)}: they have ${listed}${names.length > 30 ? ", …" : ""}.`,
    {
      hint: `E.g. order_by "-${names[0] ?? "total"}" (largest first) or "${own[0] ?? "total"}"; a column's name is a value of ${columns} as written${rateExamples(names, own.includes("total"))}.`,
    },
  );
}

/** "; "-true%" ranks by …": the rates of pivot-rates.ts an order_by can name over these columns, if any. */
function rateExamples(names: readonly string[], hasTotal: boolean): string {
  const [first, second] = names;
  if (first === undefined) return "";
  const below = second ?? (hasTotal ? "total" : undefined);
  const examples = [
    ...(hasTotal ? [`"-${first}%" ranks by its share of the row's total`] : []),
    ...(below !== undefined ? [`"-${first}/${below}" by the ratio of two columns`] : []),
  ];
  return examples.length > 0 ? `; ${examples.join(" and ")}` : "";
}

export function refuseColumns(field: string, size: number, rowFields: readonly string[]): never {
  throw new ValidationError(
    "count_by",
    `${field} has ${size.toLocaleString("en-US")} values, more columns than ${MAX_COLUMNS} a table can show.`,
    {
      hint:
        `Put ":columns" on a field with fewer values${rowFields[0] ? ` (e.g. "${field},${rowFields[0]}:columns")` : ""}, ` +
        "narrow the records with where, or leave :columns out to count one row per value.",
    },
  );
}

/**
 * Refused once read (a sum's kind is known then): a `:columns` cell is one figure, a sum of numbers or a count of
 * distinct values, not both; the cells were sums while the words spoke of distinct counts (review s58, F7). A sum of
 * dates is fine: its cells count distinct values beside each row's first and last date.
 */
export function sumBesideDistinct(spec: {
  columns?: string;
  sum?: string;
  distinct?: string;
}): ValidationError {
  return new ValidationError(
    "count_distinct",
    `with ${spec.columns}:columns each cell is one figure: the sum of ${spec.sum} or the count of distinct ${spec.distinct}, not both.`,
    { hint: "Leave count_distinct out for the table of sums, or sum out for the table of distinct counts." },
  );
}
