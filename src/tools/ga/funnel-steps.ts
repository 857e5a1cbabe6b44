/**
 * Funnel steps are event names (each step a FunnelEventFilter on eventName,
 * https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1alpha/FunnelStep). GA takes any
 * name there and answers a name no event carries with a funnel of zeros, not an error, so an agent could report
 * "0 users" as a fact. Event names are not in the property's metadata (getMetadata lists dimensions and
 * metrics only), so the check reads the events themselves: one small runReport of the step events over the
 * funnel's own dates, before the funnel report runs. Only when a step is missing is the property's event list
 * read, to name the nearest events (by name, as create_key_events does), in the refusal.
 */
import type { ConnectorOf } from "../../connections/registry.js";
import type { RunReportResponse } from "../../connectors/google/types.js";
import { ValidationError } from "../../errors.js";
import type { DateRange } from "./date-presets.js";
import { nameSimilarity, SIMILAR_ENOUGH } from "./key-events.js";

/** At most this many events are read to name the nearest ones: GA properties collect far fewer (500 names max). */
const EVENT_LIST_LIMIT = "1000";

const eventCounts = (report: RunReportResponse) =>
  new Map(
    (report.rows ?? []).flatMap((row) => {
      const name = row.dimensionValues?.[0]?.value;
      const count = Number(row.metricValues?.[0]?.value ?? 0);
      return name && count > 0 ? [[name, count] as const] : [];
    }),
  );

/** The names to offer instead of `event`: alike ones, most alike first; else the most collected ones. */
function nearestEvents(event: string, counts: ReadonlyMap<string, number>): string {
  const alike = [...counts.keys()]
    .map((name) => ({ name, similarity: nameSimilarity(event, name) }))
    .filter((e) => e.similarity >= SIMILAR_ENOUGH)
    .sort((a, b) => b.similarity - a.similarity || a.name.localeCompare(b.name))
    .slice(0, 5)
    .map((e) => e.name);
  if (alike.length > 0) return `the nearest events it collected: ${alike.join(", ")}`;
  const top = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5);
  if (top.length === 0) return "it collected no events at all in these dates";
  return `no collected event has a name like it; the most collected: ${top.map(([name]) => name).join(", ")}`;
}

/**
 * Refuses, naming each step (funnel.steps[i]) and the nearest collected events, when a step's event was not
 * collected in the funnel's dates; returns when every step's event was.
 */
export async function checkFunnelSteps(o: {
  ga: ConnectorOf<"google">;
  propertyId: string;
  steps: readonly string[];
  dateRange: DateRange;
  datesText: string;
  signal: AbortSignal | undefined;
}): Promise<void> {
  const unique = [...new Set(o.steps)];
  const query = {
    dateRanges: [o.dateRange],
    dimensions: [{ name: "eventName" }],
    metrics: [{ name: "eventCount" }],
  };
  const found = eventCounts(
    await o.ga.runReport(
      o.propertyId,
      {
        ...query,
        dimensionFilter: {
          filter: { fieldName: "eventName", inListFilter: { values: unique, caseSensitive: true } },
        },
        limit: String(unique.length),
      },
      o.signal,
    ),
  );
  const missing = o.steps.flatMap((event, index) => (found.has(event) ? [] : [{ event, index }]));
  if (missing.length === 0) return;
  const all = eventCounts(
    await o.ga.runReport(o.propertyId, { ...query, limit: EVENT_LIST_LIMIT }, o.signal),
  );
  throw ValidationError.fromIssues(
    missing.map(({ event, index }) => ({
      field: `funnel.steps[${index}]`,
      message: `no "${event}" event was collected ${o.datesText}, so the funnel would count 0 users from this step on; ${nearestEvents(event, all)}`,
    })),
    {
      hint:
        "A step is an event name, case-sensitive, as the property collects it: give one of those named, or list " +
        "them all with dimensions [eventName] and metrics [eventCount] over the same dates. Nothing was run.",
    },
  );
}
