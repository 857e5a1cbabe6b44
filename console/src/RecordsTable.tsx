import {
  createColumnHelper,
  createSortedRowModel,
  flexRender,
  rowSortingFeature,
  type SortingState,
  sortFn_basic,
  tableFeatures,
  useTable,
} from "@tanstack/react-table";
import { type ReactNode, useId, useMemo, useRef, useState } from "react";
import { sideScrollCue, useSideScroll } from "./useSideScroll.ts";

type Row = Record<string, unknown>;

const features = tableFeatures({
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: { basic: sortFn_basic },
});
const helper = createColumnHelper<typeof features, Row>();

const cell = (value: unknown): string =>
  value === null || value === undefined
    ? ""
    : typeof value === "object"
      ? JSON.stringify(value)
      : String(value);

/** A value as people read it; its row too, for a cell that says another column's value beside its own. */
type Format = (column: string, value: unknown, row?: Row) => unknown;

const classes = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(" ") || undefined;

/** The totals' row: its label in the first column that has no total (a dimension's), each metric's total. */
function TotalsRow(props: {
  totals: Row;
  label: string;
  columns: string[];
  numeric: Set<string>;
  format?: Format;
  title?: ((column: string) => string) | undefined;
}) {
  const { totals, label, columns, numeric, format, title } = props;
  const named = columns.findIndex((column) => !(column in totals));
  return (
    <tfoot>
      <tr className="totals">
        {columns.map((column, index) => {
          const value = totals[column];
          const text =
            index === named
              ? label
              : value === undefined
                ? ""
                : cell(format ? format(column, value, totals) : value);
          return index === named ? (
            <th key={column} scope="row">
              {text}
            </th>
          ) : (
            <td
              key={column}
              className={numeric.has(column) ? "number" : undefined}
              data-label={title ? title(column) : column}
            >
              {text}
            </td>
          );
        })}
      </tr>
    </tfoot>
  );
}

/** The table's columns (at most 30, by the rows' keys, `order`'s first) and which of them hold only numbers. */
function useColumns(
  rows: Row[],
  format: Format | undefined,
  title: ((column: string) => string) | undefined,
  order: readonly string[] | undefined,
) {
  const columns = useMemo(() => {
    const own = new Set(rows.flatMap((row) => Object.keys(row)));
    const first = (order ?? []).filter((key) => own.has(key));
    const keys = [...new Set([...first, ...own])].slice(0, 30);
    return keys.map((key) =>
      helper.accessor((row): unknown => row[key], {
        id: key,
        header: title ? title(key) : key,
        cell: (info) => cell(format ? format(key, info.getValue(), info.row.original) : info.getValue()),
        sortFn: "basic",
        sortUndefined: "last",
      }),
    );
  }, [rows, format, title, order]);
  // Numbers align right, on their digits: a column is numeric when every value it has is a number.
  const numeric = useMemo(() => {
    const keys = new Set(rows.flatMap((row) => Object.keys(row)));
    return new Set(
      [...keys].filter((key) =>
        rows.every((row) => row[key] === undefined || row[key] === null || typeof row[key] === "number"),
      ),
    );
  }, [rows]);
  return { columns, numeric };
}

export interface RecordsTableProps {
  rows: Row[];
  label: string;
  initialOrder?: { column: string; descending: boolean };
  format?: Format;
  /** A column's header as people read it (the column's own name stays its title, shown on hover). */
  title?: (column: string) => string;
  /** A cell's class beside "number" (a change up or down, which the page colours). */
  tone?: (column: string, value: unknown) => string | undefined;
  /** The whole report's totals (not a sum of the rows shown), as a last row under the sorted ones. */
  totals?: Row | undefined;
  /** The totals row's words ("Total, all 15 rows" when fewer rows are shown): totals-label.ts. */
  totalsLabel?: string | undefined;
  /** Whether a narrow screen may show its rows as cards (STACK_FROM); a table that fits says false. */
  stack?: boolean;
  /** The columns' order where the rows' keys do not keep it (an object lists integer-like keys first). */
  columns?: readonly string[];
}

/**
 * Records or report rows as a table sortable by any column (click its header). `initialOrder` starts
 * it in the order the result says (the request's sort, or the chart's beside it); `format` shows a value
 * as people read it (a GA date), while sorting uses the value itself.
 */
export function RecordsTable(props: RecordsTableProps) {
  const { rows, label, initialOrder, format, title, tone } = props;
  const [sorting, setSorting] = useState<SortingState>(
    initialOrder && rows.some((row) => initialOrder.column in row)
      ? [{ id: initialOrder.column, desc: initialOrder.descending }]
      : [],
  );
  const { columns, numeric } = useColumns(rows, format, title, props.columns);
  const table = useTable({ features, columns, data: rows, state: { sorting }, onSortingChange: setSorting });
  return (
    <SideScroll label={label} stack={props.stack ?? columns.length >= STACK_FROM}>
      <table aria-label={label}>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const sorted = header.column.getIsSorted();
                return (
                  <th
                    key={header.id}
                    className={numeric.has(header.column.id) ? "number" : undefined}
                    aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : "none"}
                  >
                    <button
                      type="button"
                      className="sort"
                      title={title ? header.column.id : undefined}
                      onClick={header.column.getToggleSortingHandler()}
                    >
                      {flexRender(header.column.columnDef.header, header.getContext())}
                      {sorted === "asc" ? " ▲" : sorted === "desc" ? " ▼" : ""}
                    </button>
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id}>
              {row.getAllCells().map((c) => (
                <td
                  key={c.id}
                  className={classes(numeric.has(c.column.id) && "number", tone?.(c.column.id, c.getValue()))}
                  data-label={title ? title(c.column.id) : c.column.id}
                >
                  {flexRender(c.column.columnDef.cell, c.getContext())}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
        {props.totals ? (
          <TotalsRow
            totals={props.totals}
            label={props.totalsLabel ?? "Total"}
            columns={table.getAllLeafColumns().map((column) => column.id)}
            numeric={numeric}
            title={title}
            {...(format ? { format } : {})}
          />
        ) : null}
      </table>
    </SideScroll>
  );
}

/**
 * From this many columns a narrow screen shows each row as a small card, a label beside each value
 * (narrow.css): at 400 px a comparison's "change (%)", its last column, was out of view and the marketer
 * had to scroll the table sideways to find it (trial s9, finding 11). Cards rather than reordered columns:
 * every column stays in view, whatever the table holds (an export's lead fields too), and the order is the
 * wide table's. Fewer columns fit 400 px as a table.
 */
const STACK_FROM = 4;

/**
 * The table's scroll box, with its cues when the table is wider than it (trial s7, finding 3): a fade on
 * each side that has more columns, and a line saying how many. The box is a labelled region a keyboard
 * reaches (Tab, then the arrow keys scroll it): https://dequeuniversity.com/rules/axe/4.10/scrollable-region-focusable.
 */
function SideScroll(props: { label: string; stack: boolean; children: ReactNode }) {
  const box = useRef<HTMLElement>(null);
  const out = useSideScroll(box);
  const cue = sideScrollCue(out);
  const id = useId();
  return (
    <>
      {cue ? (
        <p className="scroll-cue" id={id}>
          {cue}
        </p>
      ) : null}
      <div
        className="table-frame"
        data-stack={props.stack}
        data-more-left={out.left > 0}
        data-more-right={out.right > 0}
      >
        <section
          ref={box}
          className="table-wrap"
          aria-label={`${props.label} (table)`}
          {...(cue ? { tabIndex: 0, "aria-describedby": id } : {})}
        >
          {props.children}
        </section>
      </div>
    </>
  );
}
