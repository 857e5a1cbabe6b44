import { lazy, type ReactNode, Suspense, useEffect, useMemo, useRef, useState } from "react";
import { type ChartModel, chartsByUnit } from "../../src/charts/model.ts";
import { eventName, withEventWords } from "../../src/tools/ga/event-words.ts";
import type { KeptView, RunResult, RunStopped } from "./api.ts";
import { ComparisonTable } from "./ComparisonTable.tsx";
import { comparedMetrics, oneMetricChart, shownMetric } from "./comparison-view.ts";
import { type ComparedReport, comparisonHeadline, isCompared } from "./comparison-words.ts";
import { downloadName, kindOf } from "./download-words.ts";
import { Downloads } from "./downloads.tsx";
import { useReportColumns } from "./google/report-view.ts";
import { RecordsTable } from "./RecordsTable.tsx";
import type { changeTone } from "./report-values.ts";
import { totalsLabel } from "./totals-label.ts";
import { type Row, useResultRows } from "./useResultRows.ts";

// ECharts is the largest part of the page: it loads only when a chart is shown.
const Chart = lazy(() => import("./Chart.tsx"));

type Input = Record<string, unknown>;

interface RecordError {
  index: number;
  id?: number;
  status: string;
  reasons: { code: string; message: string }[];
}

const count = (n: number) => n.toLocaleString("en-US");

/**
 * What a step returned, for a person: the summary, the chart and beside it the whole table (in the
 * order asked for or the chart's, sortable, "Load more" appending), downloads of the whole result, notes,
 * per-record errors and the raw JSON. A stopped run shows the records read before Cancel. The page scrolls to it.
 */
export interface ResultsProps {
  result: RunResult | RunStopped;
  stepId: string;
  input: Input;
  /** The outcome in a person's words; the step's own summary then goes under Details. */
  headline?: string | undefined;
  /** The REST call the run made, shown under Details beside the step's summary. */
  call?: string | undefined;
  /** Rows that say more than the answer's own (a triggered campaign's leads, by email). */
  rows?: Row[] | undefined;
  /** Column headers (table and CSV) as people read them, where the step's own names are not (lead fields). */
  title?: ((column: string) => string) | undefined;
  /** A value as people read it (a date), in the table only. */
  format?: ((column: string, value: unknown) => unknown) | undefined;
  /** Whether Marketo's per-record errors get a table of their own (not when the rows say them). */
  recordErrors?: boolean | undefined;
  /** The rows shown another way than a table (a lead as a card). */
  records?: ((rows: Row[]) => ReactNode) | undefined;
  /** The records view says how many it shows (a list's member search): no second count under it. */
  recordsCounted?: boolean | undefined;
  /**
   * What the rows are, in the task's words ("leads", "activities"): the count under the table, the
   * downloads' words and the CSV's name (trial s9, finding 11: an export of leads saved as records-….csv).
   */
  noun?: string | undefined;
}

export function Results(props: ResultsProps) {
  const { result, stepId, input } = props;
  const data = result.type === "result" ? result.data : undefined;
  const chart = result.type === "result" ? result.chart : undefined;
  const compared = isCompared(data) ? data : undefined;
  const table = useResultRows(stepId, result, input);
  const heading = useShownHeading();
  const report = useReportColumns(data, input, chart);
  const title = props.title ?? report.title;
  const format = props.format ?? report.format;
  // The step's summary with its property by name (a report's), the headline when none is given.
  const own = report.said(result.summary);
  const headline = props.headline ?? headlineOf(result, own, compared, title, format);
  const { drawn, chosen, setChosen } = useDrawnChart(chart, report.chart, compared);
  const recordErrors = (data?.record_errors as RecordError[] | undefined) ?? [];
  const noun = nounOf(props, table.kept, data);
  return (
    <section className="results" aria-labelledby="result-heading">
      <h2 id="result-heading" ref={heading} tabIndex={-1}>
        {result.type === "stopped" ? "Stopped" : "Result"}
      </h2>
      <Summary result={result} headline={headline} own={own} call={props.call} />
      {result.type === "result" && result.notes.length > 0 ? (
        <Warnings notes={result.notes.map(report.note)} />
      ) : null}
      {table.kept || props.rows ? (
        <Downloads
          kept={table.kept}
          rows={props.rows}
          from={table.keptFrom}
          counted={result.type === "result" ? result.counted : undefined}
          more={table.unread}
          name={downloadName(table.kept ?? { kind: noun }, data, input, title ?? ((c) => c), noun)}
          noun={noun}
          title={title ?? ((column) => column)}
        />
      ) : null}
      {recordErrors.length > 0 && props.recordErrors !== false ? (
        <RecordErrors errors={recordErrors} />
      ) : null}
      <div className={chart ? "table-and-chart" : undefined}>
        {data === undefined && table.rows.length === 0 ? null : (
          <TablePart
            {...props}
            table={table}
            noun={noun}
            title={title}
            format={format}
            orderedBy={chart?.orderedBy}
            compared={compared}
            chosen={chosen}
            onChoose={setChosen}
            {...(report.tone
              ? { tone: report.tone, totals: reportTotals(data), reportRows: data?.row_count }
              : {})}
          />
        )}
        {chart ? (
          <Suspense fallback={<p className="loading">Drawing the chart…</p>}>
            {chartsByUnit(drawn ?? chart).map((one) => (
              <Chart key={one.title} chart={one} />
            ))}
          </Suspense>
        ) : null}
      </div>
      {data ? (
        <details className="raw">
          <summary>Raw JSON</summary>
          <pre>{JSON.stringify(data, null, 2)}</pre>
        </details>
      ) : null}
    </section>
  );
}

/** Two periods compared: the headline in two plain sentences, the step's own summary under Details; a funnel's in GA4's event names. */
function headlineOf(
  result: RunResult | RunStopped,
  own: string,
  compared: ComparedReport | undefined,
  title: ((column: string) => string) | undefined,
  format: Parameters<typeof comparisonHeadline>[2],
): string | undefined {
  if (compared && title) return comparisonHeadline(compared, title, format);
  return result.type === "result" && result.chart?.kind === "funnel" ? withEventWords(own) : undefined;
}

/** What the result's rows are called: the task's, its leads, the kept result's kind, rows or records. */
function nounOf(props: ResultsProps, kept: KeptView | undefined, data: Row | undefined): string {
  return (
    props.noun ?? (props.rows ? "leads" : (kept?.kind ?? (Array.isArray(data?.rows) ? "rows" : "records")))
  );
}

/** The rows (a table, or as the task shows them), how many are shown of how many, and Load more. */
function TablePart(
  props: ResultsProps & {
    table: ReturnType<typeof useResultRows>;
    noun: string;
    title: ((column: string) => string) | undefined;
    format: (column: string, value: unknown) => unknown;
    orderedBy: { column: string; descending: boolean } | undefined;
    /** A report's change columns coloured by direction, and GA's totals under the rows. */
    tone?: typeof changeTone | undefined;
    totals?: Row | undefined;
    /** How many rows the report has (GA's row_count), which its totals cover. */
    reportRows?: unknown;
    /** Two periods compared: one measure at a time (ComparisonTable.tsx), the one chosen. */
    compared?: ComparedReport | undefined;
    chosen?: string | undefined;
    onChoose?: (metric: string) => void;
  },
) {
  const { table, title, orderedBy } = props;
  const rows = props.rows ?? table.rows;
  const shownOf = props.rows ? rows.length : table.total;
  const totalsWords = totalsLabel(
    rows.length,
    typeof props.reportRows === "number" ? props.reportRows : undefined,
  );
  return (
    <div className="table-part">
      {props.records ? (
        props.records(rows)
      ) : props.compared ? (
        <ComparisonTable
          data={props.compared}
          rows={rows}
          title={title}
          format={props.format}
          tone={props.tone}
          totals={props.totals}
          totalsLabel={totalsWords}
          chosen={props.chosen}
          onChoose={props.onChoose ?? (() => {})}
        />
      ) : (
        <RecordsTable
          label="Records"
          rows={rows}
          {...(props.result.type === "result" && props.result.columns
            ? { columns: props.result.columns }
            : {})}
          format={props.format}
          {...(title ? { title } : {})}
          {...(props.tone
            ? {
                tone: props.tone,
                totals: props.totals,
                totalsLabel: totalsWords,
              }
            : {})}
          {...(orderedBy ? { initialOrder: orderedBy } : {})}
          key={orderedBy?.column ?? "records"}
        />
      )}
      {props.recordsCounted && !table.more ? null : (
        <p className="shown" aria-live="polite">
          Showing {count(rows.length)} of {count(shownOf)} {kindOf(shownOf, props.noun)}
          {table.more && table.total === table.rows.length ? " loaded so far" : ""}.
        </p>
      )}
      {table.more ? (
        <button type="button" disabled={table.loading} onClick={() => void table.loadMore()}>
          {table.loading ? "Loading more…" : "Load more"}
        </button>
      ) : null}
      {table.failure ? (
        <p className="problem-message" role="alert">
          {table.failure}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The chart as the page words it, made again only when it changes (a new model redraws it): a funnel's
 * steps in words; two periods compared, the measure chosen above the table (`chosen`), not every measure.
 */
function useDrawnChart(
  chart: ChartModel | undefined,
  words: (chart: ChartModel) => ChartModel,
  compared: ComparedReport | undefined,
) {
  const [chosen, setChosen] = useState<string>();
  const measure = compared && shownMetric(compared, chosen);
  const drawn = useMemo(() => {
    if (!chart) return undefined;
    if (chart.kind === "funnel") return words(funnelInWords(chart));
    return words(compared && measure ? oneMetricChart(chart, comparedMetrics(compared), measure) : chart);
  }, [chart, words, compared, measure]);
  return { drawn, chosen, setChosen };
}

/**
 * A funnel chart's steps in words, "2. Add to cart", as GA4 names them: the code the table gives beside
 * them made a label too long to read at 400 px (console review s13, finding 3). An agent's chart keeps the codes.
 */
function funnelInWords(chart: ChartModel): ChartModel {
  const categories = chart.categories.map((category) =>
    category.replace(/^(\d+\.\s*)(.+)$/, (_, number: string, name: string) => `${number}${eventName(name)}`),
  );
  return { ...chart, categories };
}

/** The result's heading, brought into view and to a screen reader's attention: it appears below a long form. */
function useShownHeading() {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.scrollIntoView({ block: "start" });
    heading.current?.focus({ preventScroll: true });
  }, []);
  return heading;
}

function Warnings({ notes }: { notes: string[] }) {
  return (
    <ul className="warnings" aria-label="Warnings">
      {notes.map((note) => (
        <li key={note}>{note}</li>
      ))}
    </ul>
  );
}

/** A day or a span of days, "2026-11-25" or "2026-11-25…2026-12-01", as the step's summaries write them. */
const ISO_DAYS = /(\d{4}-\d{2}-\d{2}(?:…\d{4}-\d{2}-\d{2})?)/;

/**
 * A text whose days never break at their hyphens: at 400 px "2026-12-01" broke as "2026-12-" / "01"
 * (trial s7, finding 16). The text copied stays as written (no non-breaking hyphens in it).
 */
function unbrokenDates(text: string): ReactNode {
  const parts = text.split(ISO_DAYS);
  if (parts.length === 1) return text;
  return parts.map((part, index) =>
    index % 2 === 1 ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text, never reordered.
      <span key={index} className="nowrap">
        {part}
      </span>
    ) : (
      part
    ),
  );
}

/**
 * The headline: in a person's words when given, the step's own summary and REST call then under Details;
 * else the step's summary as the page words it (`own`: a report's property by name).
 */
function Summary(props: Pick<ResultsProps, "result" | "headline" | "call"> & { own: string }) {
  const { result, headline } = props;
  return (
    <>
      <p className="summary" role="status" data-outcome={result.type}>
        {unbrokenDates(headline ?? props.own)}
      </p>
      {headline ? (
        <details className="result-details">
          <summary>Details</summary>
          <p>{unbrokenDates(result.summary)}</p>
          {props.call ? <pre>{props.call}</pre> : null}
        </details>
      ) : null}
    </>
  );
}

/**
 * GA's own totals of a report split by dimensions (the step asks for them: metricAggregations TOTAL,
 * src/tools/ga/report-request.ts), for the table's last row; none for a report of one row.
 */
function reportTotals(data: Record<string, unknown> | undefined): Row | undefined {
  const totals = data?.totals;
  const request = data?.request as { dimensions?: unknown[] } | undefined;
  if (!Array.isArray(totals) || totals.length !== 1 || !request?.dimensions?.length) return undefined;
  return totals[0] as Row;
}

function RecordErrors({ errors }: { errors: RecordError[] }) {
  return (
    <div className="record-errors">
      <h3>Records not processed</h3>
      <RecordsTable
        label="Records not processed"
        rows={errors.map((e) => ({
          index: e.index,
          id: e.id ?? "",
          status: e.status,
          reasons: e.reasons.map((r) => `${r.code}: ${r.message}`).join("; "),
        }))}
      />
    </div>
  );
}
