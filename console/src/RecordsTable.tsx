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
import { useMemo, useState } from "react";

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

/**
 * Records or report rows as a table sortable by any column (click its header). `initialOrder` starts
 * it in the order of the chart beside it; `format` shows a value as people read it (a GA date), while
 * sorting uses the value itself.
 */
export function RecordsTable(props: {
  rows: Row[];
  label: string;
  initialOrder?: { column: string; descending: boolean };
  format?: (column: string, value: unknown) => unknown;
}) {
  const { rows, label, initialOrder, format } = props;
  const [sorting, setSorting] = useState<SortingState>(
    initialOrder && rows.some((row) => initialOrder.column in row)
      ? [{ id: initialOrder.column, desc: initialOrder.descending }]
      : [],
  );
  const columns = useMemo(() => {
    const keys = [...new Set(rows.flatMap((row) => Object.keys(row)))].slice(0, 30);
    return keys.map((key) =>
      helper.accessor((row): unknown => row[key], {
        id: key,
        header: key,
        cell: (info) => cell(format ? format(key, info.getValue()) : info.getValue()),
        sortFn: "basic",
        sortUndefined: "last",
      }),
    );
  }, [rows, format]);
  const table = useTable({ features, columns, data: rows, state: { sorting }, onSortingChange: setSorting });
  return (
    <div className="table-wrap">
      <table aria-label={label}>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const sorted = header.column.getIsSorted();
                return (
                  <th
                    key={header.id}
                    aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : "none"}
                  >
                    <button type="button" className="sort" onClick={header.column.getToggleSortingHandler()}>
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
                <td key={c.id}>{flexRender(c.column.columnDef.cell, c.getContext())}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
