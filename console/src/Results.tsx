import { lazy, Suspense } from "react";
import type { RunEvent } from "./api.ts";
import { RecordsTable } from "./RecordsTable.tsx";

// ECharts is the largest part of the page: it loads only when a chart is shown.
const Chart = lazy(() => import("./Chart.tsx"));

type Result = Extract<RunEvent, { type: "result" }>;
type Input = Record<string, unknown>;

interface RecordError {
  index: number;
  id?: number;
  status: string;
  reasons: { code: string; message: string }[];
}

const rowsOf = (data: Record<string, unknown>): Record<string, unknown>[] | undefined => {
  const list = [data.result, data.rows, data.properties, data.key_events].find(Array.isArray) as
    | unknown[]
    | undefined;
  if (!list) return undefined;
  return list.map((item) =>
    item && typeof item === "object" ? (item as Record<string, unknown>) : { value: item },
  );
};

/**
 * The input of the first page, for the next one: a cursor holds the position, so Marketo's own
 * nextPageToken or offset given with the first page is left out (the step refuses both at once).
 */
function withoutPosition(input: Input): Input {
  const query = input.query_parameters as Input | undefined;
  if (!query) return input;
  const { nextPageToken: _token, offset: _offset, ...rest } = query;
  return { ...input, query_parameters: rest };
}

/** What a step returned: summary, chart, table, warnings, per-record errors, the raw JSON, and the next page. */
export function Results(props: { result: Result; input: Input; onAgain: (changes: Input) => void }) {
  const { result, input, onAgain } = props;
  const data = result.data;
  const rows = rowsOf(data);
  const warnings = [
    ...((data.warnings as string[] | undefined) ?? []),
    ...((data.hints as string[] | undefined) ?? []),
  ];
  const recordErrors = (data.record_errors as RecordError[] | undefined) ?? [];
  const nextCursor = data.next_cursor as string | undefined;
  // Run Reports pages with offset (exact), given as next_offset when more rows remain.
  const reportNext = Array.isArray(data.rows) ? (data.next_offset as number | undefined) : undefined;
  return (
    <section className="results" aria-label="Result">
      <p className="summary" role="status">
        {result.summary}
      </p>
      {nextCursor !== undefined || reportNext !== undefined ? (
        <div className="paging">
          <button
            type="button"
            onClick={() =>
              onAgain(
                reportNext !== undefined
                  ? { offset: reportNext }
                  : { ...withoutPosition(input), cursor: nextCursor },
              )
            }
          >
            Next page
          </button>
        </div>
      ) : null}
      {warnings.length > 0 ? (
        <ul className="warnings" aria-label="Warnings">
          {warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      ) : null}
      {recordErrors.length > 0 ? (
        <div className="record-errors">
          <h3>Records not processed</h3>
          <RecordsTable
            label="Records not processed"
            rows={recordErrors.map((e) => ({
              index: e.index,
              id: e.id ?? "",
              status: e.status,
              reasons: e.reasons.map((r) => `${r.code}: ${r.message}`).join("; "),
            }))}
          />
        </div>
      ) : null}
      <div className={result.chart ? "table-and-chart" : undefined}>
        {rows ? <RecordsTable label="Records" rows={rows} /> : null}
        {result.chart ? (
          <Suspense fallback={<p className="loading">Drawing the chart…</p>}>
            <Chart chart={result.chart} />
          </Suspense>
        ) : null}
      </div>
      <details className="raw">
        <summary>Raw JSON</summary>
        <pre>{JSON.stringify(data, null, 2)}</pre>
      </details>
    </section>
  );
}
