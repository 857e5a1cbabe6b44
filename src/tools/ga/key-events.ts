import { distance } from "fastest-levenshtein";
import type { GoogleAnalyticsConnector } from "../../connectors/google/connector.js";
import type { RunReportResponse } from "../../connectors/google/types.js";
import { UpstreamError } from "../../errors.js";
import type { CreateKeyEventsOutput } from "../../schemas/google-analytics-admin.js";

/** An Admin API KeyEvent (REAL-API B3). */
export interface KeyEvent {
  name?: string;
  eventName?: string;
  countingMethod?: string;
  createTime?: string;
  custom?: boolean;
  deletable?: boolean;
}

export async function findKeyEvent(
  ga: GoogleAnalyticsConnector,
  propertyId: string,
  eventName: string,
  signal: AbortSignal | undefined,
): Promise<KeyEvent | undefined> {
  // pageSize 200 is the Admin API maximum (REAL-API B1): one call covers almost every property.
  const { items } = await ga.listAll<KeyEvent>(
    `v1beta/properties/${propertyId}/keyEvents`,
    "keyEvents",
    { pageSize: 200 },
    { ...(signal ? { signal } : {}) },
  );
  return items.find((keyEvent) => keyEvent.eventName === eventName);
}

/**
 * How often the event was collected over the last 30 days including today (29daysAgo..today is 30
 * days). The API accepts names never collected, but GA's rule is that only a collected event can
 * become a key event. Processing takes 24–48 h, so when reports show nothing the realtime report (last
 * 30 minutes) is asked too: an event sent just now still counts. Event names are case-sensitive.
 */
export async function collectedLast30Days(
  ga: GoogleAnalyticsConnector,
  propertyId: string,
  eventName: string,
  signal: AbortSignal | undefined,
): Promise<number> {
  const query = {
    dimensions: [{ name: "eventName" }],
    metrics: [{ name: "eventCount" }],
    dimensionFilter: {
      filter: {
        fieldName: "eventName",
        stringFilter: { matchType: "EXACT", value: eventName, caseSensitive: true },
      },
    },
    limit: "1",
  };
  const count = (report: RunReportResponse) => {
    const value = Number(report.rows?.[0]?.metricValues?.[0]?.value ?? 0);
    return Number.isFinite(value) ? value : 0;
  };
  const processed = count(
    await ga.runReport(
      propertyId,
      { dateRanges: [{ startDate: "29daysAgo", endDate: "today" }], ...query },
      signal,
    ),
  );
  if (processed > 0) return processed;
  return count(await ga.runRealtimeReport(propertyId, query, signal));
}

/** GA answers 409 ALREADY_EXISTS when another caller created the same key event in the meantime. */
export function isAlreadyExists(error: unknown): boolean {
  return error instanceof UpstreamError && (error.status === 409 || error.serviceCode === "ALREADY_EXISTS");
}

export function keyEventOutput(keyEvent: KeyEvent, eventName: string): CreateKeyEventsOutput["key_event"] {
  return {
    name: keyEvent.name ?? "",
    event_name: keyEvent.eventName ?? eventName,
    counting_method: keyEvent.countingMethod ?? "ONCE_PER_EVENT",
    ...(keyEvent.createTime ? { create_time: keyEvent.createTime } : {}),
    ...(keyEvent.custom !== undefined ? { custom: keyEvent.custom } : {}),
    ...(keyEvent.deletable !== undefined ? { deletable: keyEvent.deletable } : {}),
  };
}

/**
 * The collected events (last 30 days) whose names are closest to `eventName`, with their counts: what a
 * refusal offers instead of an event never collected. Names containing the text rank first, then by edit
 * distance, case ignored.
 */
export async function closestCollected(
  ga: GoogleAnalyticsConnector,
  propertyId: string,
  eventName: string,
  signal: AbortSignal | undefined,
): Promise<{ name: string; count: number }[]> {
  const report = await ga.runReport(
    propertyId,
    {
      dateRanges: [{ startDate: "29daysAgo", endDate: "today" }],
      dimensions: [{ name: "eventName" }],
      metrics: [{ name: "eventCount" }],
      limit: "1000",
    },
    signal,
  );
  const wanted = eventName.toLowerCase();
  return (report.rows ?? [])
    .flatMap((row) => {
      const name = row.dimensionValues?.[0]?.value;
      const count = Number(row.metricValues?.[0]?.value ?? 0);
      return name ? [{ name, count: Number.isFinite(count) ? count : 0 }] : [];
    })
    .map((event) => {
      const lower = event.name.toLowerCase();
      const contains = lower.includes(wanted) || wanted.includes(lower);
      return { ...event, rank: contains ? 0 : distance(wanted, lower) };
    })
    .sort((a, b) => a.rank - b.rank || b.count - a.count)
    .slice(0, 5)
    .map(({ name, count }) => ({ name, count }));
}
