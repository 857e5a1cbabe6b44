/** Columns a count's caller adds beside a count_by field (a name beside an id), and where they go. */

type Row = Record<string, unknown>;

/**
 * A column beside a count_by field that reads each row's value of it, e.g. a name beside an id: set by the
 * caller between the read and finish (it may cost a request the records layer knows nothing of).
 */
export interface Label {
  field: string;
  column: string;
  of: (value: unknown) => unknown;
}

/** The row with each label's column right after its field. */
export function labelled(row: Readonly<Row>, labels: readonly Label[]): Row {
  const out: Row = {};
  for (const [key, value] of Object.entries(row)) {
    out[key] = value;
    for (const label of labels) if (label.field === key) out[label.column] = label.of(value);
  }
  return out;
}

/** The columns with each label's column right after its field. */
export function labelledColumns(columns: readonly string[], labels: readonly Label[]): string[] {
  return columns.flatMap((c) => [c, ...labels.filter((l) => l.field === c).map((l) => l.column)]);
}
