/**
 * Two periods compared, one measure at a time (console review s10, findings 3 and 4): "Show: Sessions |
 * Purchases | Revenue" above a table of each row's this period, previous period and change, which fits
 * 1280 and 400 px as a table (no sideways scroll, no cards). The choice is a group of radio buttons: Tab
 * reaches it, the arrow keys change it. The CSV and JSON downloads keep every measure, as the line beside it says.
 */
import { useId, useMemo } from "react";
import { periodWords } from "../../src/tools/ga/period-words.ts";
import {
  changeWithPercent,
  comparedMetrics,
  metricColumns,
  oneMetricRow,
  shownMetric,
} from "./comparison-view.ts";
import type { ComparedReport } from "./comparison-words.ts";
import { RecordsTable } from "./RecordsTable.tsx";

type Row = Record<string, unknown>;

export interface ComparisonTableProps {
  data: ComparedReport;
  rows: Row[];
  /** A column's title (the report's: a field by its UI name). */
  title: ((column: string) => string) | undefined;
  format: (column: string, value: unknown) => unknown;
  tone?: ((column: string, value: unknown) => string | undefined) | undefined;
  totals?: Row | undefined;
  totalsLabel?: string | undefined;
  /** The measure chosen (the page's: the chart beside the table shows it too), and its change. */
  chosen: string | undefined;
  onChoose: (metric: string) => void;
}

export function ComparisonTable(props: ComparisonTableProps) {
  const { data, title, format } = props;
  const metrics = comparedMetrics(data);
  // A new report may not have the measure chosen in the last one: its first then.
  const metric = shownMetric(data, props.chosen);
  const columns = metricColumns(metric, data.comparison);
  // Each row shown by the report's row it came from: its change's cell says that row's % too.
  const { rows, totals, source } = useMemo(() => {
    const source = new WeakMap<Row, Row>();
    const shown = (row: Row) => {
      const one = oneMetricRow(row, metric, data);
      source.set(one, row);
      return one;
    };
    return { rows: props.rows.map(shown), totals: props.totals && shown(props.totals), source };
  }, [props.rows, props.totals, metric, data]);
  const view = useMemo(() => {
    const period = periodWords(data.date_ranges);
    // The measure is said by the choice above: the columns say the periods, by their words and dates.
    const named = (column: string) =>
      column === columns.current
        ? period(data.comparison.to)
        : column === columns.previous
          ? period(data.comparison.from)
          : column === columns.change
            ? "Change"
            : (title?.(column) ?? column);
    // Each row's change with its % beside it.
    const shown = (column: string, value: unknown, row?: Row) => {
      const text = format(column, value);
      if (column !== columns.change || typeof value !== "number") return text;
      const percent = (row && source.get(row))?.[columns.percent];
      return changeWithPercent(
        String(text),
        typeof percent === "number" ? String(format(columns.percent, percent)) : undefined,
      );
    };
    return { named, shown };
  }, [data, columns.current, columns.previous, columns.change, columns.percent, title, format, source]);
  return (
    <div className="comparison">
      <MetricChoice metrics={metrics} chosen={metric} title={title} onChoose={props.onChoose} />
      <RecordsTable
        label="Records"
        rows={rows}
        title={view.named}
        format={view.shown}
        stack={false}
        {...(props.tone ? { tone: props.tone } : {})}
        {...(totals ? { totals, totalsLabel: props.totalsLabel } : {})}
        key={metric}
      />
    </div>
  );
}

/** "Show: ( ) Sessions ( ) Purchases ( ) Revenue", and that the downloads hold them all. */
function MetricChoice(props: {
  metrics: string[];
  chosen: string;
  title: ((column: string) => string) | undefined;
  onChoose: (metric: string) => void;
}) {
  const name = useId();
  if (props.metrics.length < 2) return null;
  return (
    <div className="metric-choice">
      <fieldset>
        <legend>Show</legend>
        {props.metrics.map((metric) => (
          <label key={metric} className="radio-option">
            <input
              type="radio"
              name={name}
              value={metric}
              checked={props.chosen === metric}
              onChange={() => props.onChoose(metric)}
            />{" "}
            {props.title?.(metric) ?? metric}
          </label>
        ))}
      </fieldset>
      <p>The CSV download has every measure.</p>
    </div>
  );
}
