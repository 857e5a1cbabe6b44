/**
 * What the step forms' pickers offer, read with the workspace's connected Google account: the Analytics
 * accounts and properties it can see (Admin API accountSummaries.list,
 * https://developers.google.com/analytics/devguides/config/admin/v1/rest/v1beta/accountSummaries/list) and a
 * property's metrics and dimensions with their descriptions (Data API getMetadata,
 * https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/properties/getMetadata).
 * Only names, labels and descriptions leave the server; and, for a funnel's steps, the events the property
 * collected with their counts (propertyEvents), and for a filter's condition the values a dimension took
 * (dimensionValues); and the days each period preset covers today, in the
 * property's time zone, as Run Reports resolves them (presetDays).
 */
import type { MetricMetadata } from "../connectors/google/types.js";
import { DATE_PRESETS, type RunReportsOutput } from "../schemas/google-analytics.js";
import { propertyTimeZone, resolveDateRanges, statedRanges } from "../tools/ga/date-presets.js";
import { parsePropertyId } from "../tools/ga/property-id.js";
import { runToolStep } from "../tools/run.js";
import type { Workspace } from "../workspace.js";

interface AccountSummary {
  account?: string;
  displayName?: string;
  propertySummaries?: { property?: string; displayName?: string }[];
}

export interface AnalyticsChoices {
  accounts: {
    account: string;
    displayName: string;
    properties: { property: string; id: string; displayName: string }[];
  }[];
}

/** The Analytics accounts and properties the connected Google account `label` can see (up to 1,000 accounts). */
export async function analyticsChoices(
  workspace: Workspace,
  label: string | undefined,
  signal?: AbortSignal,
): Promise<AnalyticsChoices> {
  const ga = await workspace.connection("google", label);
  const { items } = await ga.listAll<AccountSummary>(
    "v1beta/accountSummaries",
    "accountSummaries",
    { pageSize: 200 },
    { maxPages: 5, ...(signal ? { signal } : {}) },
  );
  return {
    accounts: items.flatMap((summary) =>
      summary.account
        ? [
            {
              account: summary.account,
              displayName: summary.displayName ?? summary.account,
              properties: (summary.propertySummaries ?? []).flatMap((property) =>
                property.property
                  ? [
                      {
                        property: property.property,
                        id: property.property.replace(/^properties\//, ""),
                        displayName: property.displayName ?? property.property,
                      },
                    ]
                  : [],
              ),
            },
          ]
        : [],
    ),
  };
}

export interface FieldChoice {
  apiName: string;
  uiName: string;
  description: string;
  category: string;
  /** A metric's type ("TYPE_SECONDS"): the page shows a time as a clock, its files keep the number. */
  type?: string;
}

const choice = (field: MetricMetadata): FieldChoice[] =>
  field.apiName
    ? [
        {
          apiName: field.apiName,
          uiName: field.uiName ?? field.apiName,
          description: field.description ?? "",
          category: field.category ?? "",
          ...(field.type ? { type: field.type } : {}),
        },
      ]
    : [];

/** The days a preset covers, YYYY-MM-DD. */
export type PresetDays = Record<string, { start_date: string; end_date: string }>;

/**
 * The days each preset covers at `now` in the property's `timeZone` (UTC when unknown), by the code Run Reports
 * resolves them with, so the form can show them beside the select before Run (trial s9, finding 5: "Yesterday"
 * was 2 Dec where the task said 1 Dec, and nothing showed it before the result).
 */
export function presetDays(now: Date, timeZone: string | undefined): PresetDays {
  return Object.fromEntries(
    DATE_PRESETS.map((preset) => {
      const [stated] = statedRanges(resolveDateRanges([preset], now, timeZone).dateRanges, now, timeZone);
      return [preset, { start_date: stated?.start_date ?? "", end_date: stated?.end_date ?? "" }];
    }),
  );
}

/** A property's metrics and dimensions (standard and custom), for the form's autocomplete, and its presets' days. */
export async function propertyFields(
  workspace: Workspace,
  label: string | undefined,
  property: string,
  signal?: AbortSignal,
): Promise<{ property: string; metrics: FieldChoice[]; dimensions: FieldChoice[]; presets: PresetDays }> {
  const id = parsePropertyId(property);
  const ga = await workspace.connection("google", label);
  const [metadata, timeZone] = await Promise.all([
    ga.getMetadata(id, signal),
    propertyTimeZone(ga, id, signal),
  ]);
  return {
    property: `properties/${id}`,
    metrics: (metadata.metrics ?? []).flatMap(choice),
    dimensions: (metadata.dimensions ?? []).flatMap(choice),
    presets: presetDays(new Date(), timeZone),
  };
}

/** The period the event list counts over: a preset of Run Reports' date ranges, or two dates. */
export type EventPeriod = { preset: string } | { start: string; end: string };

export interface PropertyEvents {
  /** The events the property collected in the period, most frequent first. */
  events: { name: string; count: number }[];
  /** The period as real dates ("2026-11-03 to 2026-11-30"). */
  period: string;
}

/** Most events listed: GA4 properties collect at most 500 distinct event names. */
const MAX_EVENTS = 500;
/** Most values a filter's value box suggests: the most frequent, enough to see how GA writes them. */
const MAX_VALUES = 50;

/** A dimension's values over a period with their event counts, most frequent first, and the period as dates. */
async function countedValues(
  workspace: Workspace,
  label: string | undefined,
  ask: { property: string; dimension: string; period: EventPeriod; limit: number },
  signal?: AbortSignal,
): Promise<DimensionValues> {
  const { period, dimension } = ask;
  const range = "preset" in period ? period.preset : { start_date: period.start, end_date: period.end };
  const input = {
    ...(label ? { account: label } : {}),
    property: ask.property,
    metrics: ["eventCount"],
    dimensions: [dimension],
    date_ranges: [range],
    order_by: "-eventCount",
    limit: ask.limit,
  };
  const result = await runToolStep(
    "google_analytics_run_reports",
    input,
    await workspace.toolContext({ signal }),
  );
  const data = result.data as RunReportsOutput;
  const stated = data.date_ranges?.[0];
  return {
    values: data.rows.flatMap((row) => {
      const name = row[dimension];
      return typeof name === "string"
        ? [{ name, count: typeof row.eventCount === "number" ? row.eventCount : 0 }]
        : [];
    }),
    period: stated ? `${stated.start_date} to ${stated.end_date}` : "",
    complete: data.rows.length === data.row_count,
  };
}

/**
 * The events a property collected over a period, with their counts, for a funnel's step pickers: a Run
 * Reports report of eventName by eventCount (the same step, checks and quota as any report,
 * https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema#dimensions).
 * https://support.google.com/analytics/answer/9267744 (500 distinct event names per property).
 */
export async function propertyEvents(
  workspace: Workspace,
  label: string | undefined,
  property: string,
  period: EventPeriod,
  signal?: AbortSignal,
): Promise<PropertyEvents> {
  const ask = { property, dimension: "eventName", period, limit: MAX_EVENTS };
  const { values, period: dates } = await countedValues(workspace, label, ask, signal);
  return { events: values, period: dates };
}

export interface DimensionValues {
  /** The values the dimension took in the period, most frequent (by events) first. */
  values: { name: string; count: number }[];
  period: string;
  /** Whether these are all the values it took (not only the most frequent): a typed value is then checked. */
  complete: boolean;
}

/**
 * The values a dimension took over a period, for the value box of a report filter's condition: how GA
 * writes them ("mobile", not "Mobile"), from one Run Reports report of the dimension by eventCount, the
 * most frequent first (a dimension that cannot be counted by events is refused by GA, and the box stays
 * free text).
 */
export async function dimensionValues(
  workspace: Workspace,
  label: string | undefined,
  ask: { property: string; dimension: string; period: EventPeriod },
  signal?: AbortSignal,
): Promise<DimensionValues> {
  return countedValues(workspace, label, { ...ask, limit: MAX_VALUES }, signal);
}
