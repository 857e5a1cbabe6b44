/**
 * count_by's pivot: one count_by field written with ":columns" ("primaryAttributeValue,activityType:columns")
 * turns its values into columns, one row per value of the other fields, each cell its count (0 where none)
 * and a `total` per row. A fresh agent counted per email × activity type and then built "sent, delivered,
 * opened, clicked per email" and its rates by hand (trial 2026-12-03, N45), and added up each week's
 * total by hand (N44): the pivot is the same counts, laid out so no row is counted by the model. It is a
 * layout of count_by's rows (Counter's groups), so every rule of the long form holds cell by cell.
 */
import { ValidationError } from "../../errors.js";
import { type Bucket, bucketSpan, CYCLES, compareRows, cycleRank } from "./buckets.js";
import { foldedText } from "./count.js";
import { splitFieldList } from "./field-list.js";
import { compareValues, parseSortKeys, type SortKey } from "./order.js";
import { DATE_SPAN_COLUMNS, RowDates } from "./pivot-dates.js";
import { rateColumns } from "./pivot-rates.js";
import { MAX_COLUMNS, refuseColumns, refuseOrder } from "./pivot-refusals.js";
import { tidySum } from "./sum.js";
import { textOf } from "./values.js";

/** The name of the column of records with no value in the columns field. */
export const EMPTY_COLUMN = "(empty)";

const COLUMNS = /^(.*[^:\s])\s*:\s*columns$/i;

/** count_by's text with ":columns" taken off, and the field that had it (undefined when none has). */
export function columnsPart(text: string): { text: string; part?: string } {
  const parts = splitFieldList(text);
  if (!parts) return { text };
  // A quoted name keeps its colons ('"a:columns"'); the suffix follows the closing quote.
  const heads = parts.map((part) => {
    const head = COLUMNS.exec(part)?.[1];
    return head === undefined || /^["'][^"']*$/.test(head) ? undefined : head;
  });
  const marked = heads.flatMap((head, i) => (head === undefined ? [] : [i]));
  if (marked.length > 1) {
    throw new ValidationError(
      "count_by",
      `${marked.map((i) => JSON.stringify(parts[i])).join(" and ")}: only one field can be the columns.`,
      {
        hint: 'E.g. "primaryAttributeValue,activityType:columns": a row per email, a column per activity type.',
      },
    );
  }
  const at = marked[0];
  if (at === undefined) return { text };
  const part = heads[at] as string;
  return { text: parts.map((p, i) => (i === at ? part : p)).join(","), part };
}

/**
 * order_by over a pivot's rows: a row field, `total` or a column, whose name is a value and may have spaces
 * ("-Click Email"), so a key the field grammar refuses is read as written. Checked once the columns are known.
 */
export function pivotSortKeys(text: string): SortKey[] {
  const parts = splitFieldList(text) ?? [text];
  return parts.map((part) => {
    try {
      return parseSortKeys(part)[0] as SortKey;
    } catch (error) {
      const match = /^([+-]?)\s*(.+?)(?:\s+(asc|desc))?$/i.exec(part);
      if (!match) throw error;
      return { field: match[2] as string, desc: match[1] === "-" || match[3]?.toLowerCase() === "desc" };
    }
  });
}

/** The spec's parts a pivot reads (ComputeSpec's fields of the same names). */
export interface PivotSpec {
  countBy?: string[];
  columns?: string;
  buckets?: Bucket[];
  order?: SortKey[];
  minCount?: number;
  ignoreCase?: boolean;
  distinct?: string;
  sum?: string;
  percentile?: number;
}

/** A percentile has no cell; min_count keeps a pivot's rows of that many records, and there must be rows to keep. */
export function refusePivotOptions(spec: PivotSpec): void {
  // A cell is a sum: a percentile has no place in it (review s52, 2: it was left out without a word).
  if (spec.columns !== undefined && spec.percentile !== undefined)
    throw new ValidationError(
      "sum",
      `with ${spec.columns}:columns each cell is one figure (a sum, or a count beside a date's first and last): a p${spec.percentile} has no cell.`,
      {
        // The hint names no count_by that might refuse; numbers and dates both have a p90 without :columns (s59, F6).
        hint: `Leave ":p${spec.percentile}" out for the table; for each row's p${spec.percentile} (of numbers or dates), leave :columns out (count by ${[...(spec.countBy ?? [])].join(",")}).`,
      },
    );
  // With row fields, min_count keeps the rows of that many records or more ("programs of 100 members or more, by
  // success rate": trial s44, N608 filtered the rows itself); one row of columns has nothing to keep or leave.
  const rowFields = rowFieldsOf(spec);
  if (spec.columns === undefined || spec.minCount === undefined || rowFields.length > 0) return;
  throw new ValidationError(
    "min_count",
    `with ${spec.columns}:columns alone there is one row, which min_count cannot keep or leave out.`,
    {
      hint: `Leave min_count out, or count by a field before ${spec.columns}:columns (its rows of min_count records or more are kept).`,
    },
  );
}

/** The count_by fields that make a pivot's rows: all but the columns' field. */
const rowFieldsOf = (spec: PivotSpec): string[] =>
  (spec.countBy ?? []).filter((name) => name !== spec.columns);

/** A count row's pivot row, as text: its row fields' values, folded as the table groups them. */
function lineKeyOf(spec: PivotSpec): (row: Row) => string {
  const fold = folder(spec);
  const rowFields = rowFieldsOf(spec);
  return (row) => JSON.stringify(rowFields.map((name) => fold(row[name])));
}

/** How a value groups in a pivot's row or column: as text, folded when ignoring case; null for none. */
function folder(spec: PivotSpec): (value: unknown) => string | null {
  return (value) => {
    if (value === null || value === undefined) return null;
    return spec.ignoreCase ? foldedText(textOf(value)) || null : textOf(value);
  };
}

/**
 * With min_count, which count rows belong to the pivot's rows of at least min_count records (their cells' records
 * added), and the number of rows and records kept.
 */
export function rowsAtLeast(
  spec: PivotSpec,
  counted: readonly Row[],
  least: number,
): { keep: (row: Row) => boolean; groups: number; records: number } {
  const keyOf = lineKeyOf(spec);
  const records = new Map<string, number>();
  for (const row of counted)
    records.set(keyOf(row), (records.get(keyOf(row)) ?? 0) + Number(row.records ?? row.count));
  const kept = [...records].filter(([, count]) => count >= least);
  const keys = new Set(kept.map(([key]) => key));
  return {
    keep: (row) => keys.has(keyOf(row)),
    groups: kept.length,
    records: kept.reduce((sum, [, count]) => sum + count, 0),
  };
}

type Row = Record<string, unknown>;

/** The laid-out rows, the columns' names in order, and the date columns added with no record. */
export interface Pivot {
  rows: Row[];
  field: string;
  columns: string[];
  /**
   * Each column's total, in the columns' order (none with count_distinct: distinct counts do not add up), so
   * the summary gives the column sums a model would otherwise add itself (trial s10, N69).
   */
  columnTotals?: number[];
  /** Date columns between the first and last counted where no record fell, listed with 0. */
  filled: number;
  /** Set when the date columns counted span more than buckets.ts' MAX_FILLED: those between are not listed. */
  unfilled?: number;
  /** The rate columns order_by asked for (pivot-rates.ts), after the counts and total in each row. */
  rates?: { name: string; words: string }[];
}

interface Column {
  shown: unknown;
  total: number;
}

interface Line {
  values: Row;
  cells: Map<string | null, number>;
}

/** The pivot of count_by's rows: `counted` from records, `fillers` the zero and gap rows of the long form. */
export function pivotTable(
  spec: PivotSpec,
  counted: readonly Row[],
  fillers: readonly Row[],
  /** With min_count, the count rows whose pivot row is kept: the others name their column only (0 in the rows kept). */
  keep?: (row: Row) => boolean,
  /** A sum of dates: cells count, each row has its first and last (pivot-dates.ts); the zone their clock. */
  dates?: { zone?: string | undefined },
): Pivot {
  const span = dates ? new RowDates<Line>(dates.zone) : undefined;
  const field = spec.columns as string;
  const rowFields = rowFieldsOf(spec);
  const lineKey = lineKeyOf(spec);
  const fold = folder(spec);
  const columns = new Map<string | null, Column>();
  const lines = new Map<string, Line>();
  const column = (value: unknown) => {
    const key = fold(value);
    if (!columns.has(key)) columns.set(key, { shown: value ?? null, total: 0 });
    return key;
  };
  const line = (row: Row) => {
    const key = lineKey(row);
    const values = Object.fromEntries(rowFields.map((name) => [name, row[name] ?? null]));
    const found = lines.get(key) ?? { values, cells: new Map() };
    lines.set(key, found);
    return found;
  };
  // With min_count: the columns of rows left out, and those of rows kept.
  const [dropped, held] = [new Set<string | null>(), new Set<string | null>()];
  for (const row of counted) {
    const key = column(row[field]);
    if (keep && !keep(row)) {
      dropped.add(key);
      continue;
    }
    held.add(key);
    const cell = Number(spec.sum && !span ? row.sum : row.count);
    const at = line(row);
    span?.add(at, row.min, row.max);
    at.cells.set(key, (at.cells.get(key) ?? 0) + cell);
    (columns.get(key) as Column).total += cell;
  }
  // A value asked for or a date with no record: its column or its row, not an empty one beside it.
  for (const row of fillers) {
    if (fold(row[field]) !== null) column(row[field]);
    if (rowFields.length === 0 || rowFields.some((name) => fold(row[name]) !== null)) line(row);
  }
  const bucket = spec.buckets?.find((b) => b.column === field);
  // Dates stay: the days between are listed anyway, and "with no record" would not be true of them (review s55, F2).
  if (keep && !bucket)
    leaveDropped(
      columns,
      [...dropped].filter((key) => !held.has(key)),
      spec.order ?? [],
    );
  const fill = bucket ? fillDates(bucket, columns, column) : { filled: 0 };
  if (columns.size > MAX_COLUMNS) refuseColumns(field, columns.size, rowFields);
  const order = columnOrder(columns, bucket);
  const names = columnNames(order, columns, field, rowFields, ["total", ...(span ? DATE_SPAN_COLUMNS : [])]);
  const rows = [...lines.values()].map((at) => laidOut(at, order, names, spec, span));
  const totalled = spec.distinct ? [] : ["total"];
  const { rates, keys } = rateColumns(
    spec.order ?? [],
    [...rowFields, ...totalled, ...names],
    [...names, ...totalled],
    !spec.distinct,
  );
  for (const row of rows) for (const rate of rates) row[rate.name] = rate.value(row);
  const sorted = { ...spec, ...(spec.order ? { order: keys } : {}) };
  const spanned = span ? DATE_SPAN_COLUMNS : [];
  rows.sort(
    compareRows(rowOrder(sorted, rowFields, [...names, ...rates.map((r) => r.name)], spanned), spec.buckets),
  );
  const columnTotals = spec.distinct
    ? {}
    : { columnTotals: order.map((key) => tidySum(columns.get(key)?.total ?? 0)) };
  const rated = rates.length > 0 ? { rates: rates.map(({ name, words }) => ({ name, words })) } : {};
  return { rows, field, columns: names, ...columnTotals, ...fill, ...rated };
}

/** A pivot row: its row values, a cell per column (0 where none), its total, and with dates its first and last. */
function laidOut(
  at: Line,
  order: readonly (string | null)[],
  names: readonly string[],
  spec: PivotSpec,
  span: RowDates<Line> | undefined,
): Row {
  const row: Row = { ...at.values };
  order.forEach((key, i) => {
    row[names[i] as string] = at.cells.get(key) ?? 0;
  });
  // Tidied as sums are: 4-decimal cells added read 9269.479599999999 (review s56, F5).
  if (!spec.distinct) row.total = tidySum(order.reduce((sum, key) => sum + (at.cells.get(key) ?? 0), 0));
  span?.put(at, row);
  return row;
}

/**
 * With min_count, the columns only rows left out had: not listed, nor counted toward MAX_COLUMNS (review s54, F8: a
 * kept table of 61 columns was refused for the 281 of every row), unless order_by names one (a rate of a column no
 * kept row has is then 0 or null, not refused).
 */
function leaveDropped(
  columns: Map<string | null, Column>,
  dropped: readonly (string | null)[],
  order: readonly SortKey[],
): void {
  // A rate's operands: "true%" names true, "Click Email/Open Email" both (review s55, F5: "126%" kept 6 and 26).
  const named = new Set(
    order.flatMap(({ field }) => (field.endsWith("%") ? [field.slice(0, -1)] : field.split("/"))),
  );
  for (const key of dropped) {
    const column = columns.get(key);
    if (column && !named.has(textOf(column.shown ?? EMPTY_COLUMN))) columns.delete(key);
  }
}

/** A date bucket's columns from the first to the last counted, every one of a cycle; none past MAX_FILLED. */
function fillDates(
  bucket: Bucket,
  columns: Map<string | null, Column>,
  column: (value: unknown) => string | null,
): { filled: number; unfilled?: number } {
  const labels = [...columns.values()].map(({ shown }) => shown).filter((l) => typeof l === "string");
  const span = bucketSpan(bucket.unit, labels as string[], bucket.width, bucket.edges);
  if (!span) return { filled: 0, unfilled: labels.length };
  const before = columns.size;
  for (const label of span) column(label);
  return { filled: columns.size - before };
}

/** Date order for a date bucket (a cycle's own order), else the largest column first; the empty one last. */
function columnOrder(columns: Map<string | null, Column>, bucket: Bucket | undefined): (string | null)[] {
  const keys = [...columns.keys()];
  const shown = (key: string | null) => columns.get(key)?.shown;
  return keys.sort((a, b) => {
    if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
    if (bucket && (CYCLES[bucket.unit] || bucket.unit === "band")) {
      return (cycleRank(bucket.unit, shown(a)) ?? 0) - (cycleRank(bucket.unit, shown(b)) ?? 0);
    }
    if (bucket) return a < b ? -1 : a > b ? 1 : 0;
    const larger = (columns.get(b)?.total ?? 0) - (columns.get(a)?.total ?? 0);
    return larger !== 0 ? larger : compareValues(shown(a), shown(b));
  });
}

/** Each column's name: its value as text; one that is a row field's name or `total` is prefixed with the field. */
function columnNames(
  order: (string | null)[],
  columns: Map<string | null, Column>,
  field: string,
  rowFields: readonly string[],
  /** The row's own columns beside its fields: total, and a dated table's min and max (review s57, F8). */
  own: readonly string[],
): string[] {
  const taken = new Set([...rowFields, ...own]);
  return order.map((key) => {
    let name = key === null ? EMPTY_COLUMN : textOf(columns.get(key)?.shown);
    while (taken.has(name)) name = `${field}=${name}`;
    taken.add(name);
    return name;
  });
}

/** order_by's keys over the rows (a column named ignoring case too), else the default, then the row values. */
function rowOrder(
  spec: PivotSpec,
  rowFields: readonly string[],
  names: readonly string[],
  spanned: readonly string[],
): SortKey[] {
  // A dated table's min and max are the rows' own, no column to rate by (review s57, F2).
  const own = [...rowFields, ...(spec.distinct ? [] : ["total"]), ...spanned];
  const keys = (spec.order ?? []).map((key) => {
    const name =
      own.find((f) => f === key.field) ??
      names.find((f) => f === key.field) ??
      [...own, ...names].find((f) => f.toLowerCase() === key.field.toLowerCase());
    if (name === undefined) refuseOrder(key.field, own, names, spec.columns as string);
    return { field: name, desc: key.desc };
  });
  const first = rowFields[0];
  const dated = first !== undefined && spec.buckets?.some((b) => b.column === first);
  const fallback: SortKey[] = dated
    ? [{ field: first, desc: false }]
    : spec.distinct
      ? names.slice(0, 1).map((field) => ({ field, desc: true }))
      : [{ field: "total", desc: true }];
  const byValues = rowFields.map((field) => ({ field, desc: false }));
  return [...(keys.length > 0 ? keys : fallback), ...byValues];
}
