/**
 * How a result's parts read on the page: a GA report's columns by the names Google Analytics shows, its
 * cells, its change's tone, its sentence (property by name, dates, zone and filter in words) and its chart.
 */
import { useMemo } from "react";
import { type ChartModel, timeValue } from "../../../src/charts/model.ts";
import { lowerIsBetter } from "../../../src/tools/ga/metric-direction.ts";
import { datesInWords, periodWords } from "../../../src/tools/ga/period-words.ts";
import { columnTitle, reportCell } from "../report-columns.ts";
import { changeTone } from "../report-values.ts";
import { usePropertyFields, usePropertyNames } from "./pickers.tsx";
import { propertyWords } from "./property-words.ts";
import { emptyReportNote, reportSentence } from "./report-sentence.ts";

type Input = Record<string, unknown>;

/** Any other result's summary and chart, as the step gives them. */
const unchanged = <T>(value: T): T => value;

/** How a result's parts read: its columns' titles, cells and tones, its summary and its chart. */
export interface ReportView {
  title: ((column: string) => string) | undefined;
  format: (column: string, value: unknown) => unknown;
  tone: typeof changeTone | undefined;
  said: (text: string) => string;
  /** A note under the sentence: an empty filtered report's in a person's words (emptyReportNote). */
  note: (text: string) => string;
  chart: (model: ChartModel) => ChartModel;
}

/**
 * A GA report's columns by the names Google Analytics shows (the property's metadata) and its numbers
 * with the reader's separators; any other result's as they are (GA dates read as dates).
 */
export function useReportColumns(
  data: Record<string, unknown> | undefined,
  input: Input,
  chart: ChartModel | undefined,
) {
  // The property's id, as the form's picker asks for its metadata: the page has it already (no request).
  const property =
    typeof data?.property === "string" && Array.isArray(data.rows)
      ? data.property.replace(/^properties\//, "")
      : undefined;
  const account = typeof input.account === "string" ? input.account : undefined;
  const fields = usePropertyFields(account, property);
  const names = usePropertyNames(account, property !== undefined);
  const only = chart?.only;
  return useMemo((): ReportView => {
    if (!property)
      return {
        title: undefined,
        format: timeValue,
        tone: undefined,
        said: unchanged,
        note: unchanged,
        chart: unchanged,
      };
    // The property by its display name, its id in parentheses, never "properties/412345671"; its days in the
    // page's one style of dates ("1 – 30 Nov 2026"), as the columns and a comparison's headline say them.
    // Its filter by the names the chart's title has them, its zone as a place's time (reportSentence).
    const said = (text: string) =>
      datesInWords(reportSentence(propertyWords(text, names), { asked: input.filter, only }));
    const ui = Object.fromEntries(
      [...(fields?.metrics ?? []), ...(fields?.dimensions ?? [])].map((field) => [
        field.apiName,
        field.uiName,
      ]),
    );
    const types = Object.fromEntries(
      (fields?.metrics ?? []).flatMap((field) => (field.type ? [[field.apiName, field.type]] : [])),
    );
    // Money in the report's currency (GA's metadata.currencyCode, the property's unless asked otherwise).
    const metadata = data?.metadata as { currency_code?: unknown } | undefined;
    const currency = typeof metadata?.currency_code === "string" ? metadata.currency_code : undefined;
    const currencyOf = (metric: string) => (types[metric] === "TYPE_CURRENCY" ? currency : undefined);
    const period = periodWords(data?.date_ranges);
    const cell = reportCell(undefined, types, currency);
    return {
      title: (column: string) => columnTitle(column, ui, currencyOf, period),
      // A row's period (several ranges, not merged) in words as its column's title has them.
      format: (column: string, value: unknown) =>
        column === "dateRange" && typeof value === "string" ? period(value) : cell(column, value),
      // Which of GA's metrics fall as good news is Google's to say (its room), not this page's.
      tone: (column: string, value: unknown) => changeTone(column, value, lowerIsBetter),
      said,
      note: (text: string) => emptyReportNote(text, only, (field) => ui[field] ?? field),
      chart: (model: ChartModel) => (model.subtitle ? { ...model, subtitle: said(model.subtitle) } : model),
    };
  }, [property, fields, names, data, input.filter, only]);
}
