import { distance } from "fastest-levenshtein";
import type { GoogleAnalyticsConnector } from "../../connectors/google/connector.js";
import type { RunReportResponse } from "../../connectors/google/types.js";
import { UpstreamError } from "../../errors.js";
import type { CreateKeyEventsOutput } from "../../schemas/google-analytics-admin.js";
import { lastDays, statedRanges } from "./date-presets.js";

/**
 * The 30 days the collection check covers: Run Reports' last30days, so the dates it states are those a
 * report of last30days states (agent trial s4, T11). Today is not in them; the realtime report (the last 30
 * minutes) still finds an event sent just now.
 */
export const CHECKED_DAYS = lastDays(30);

/** An Admin API KeyEvent (REAL-API B3). */
export interface KeyEvent {
  name?: string;
  eventName?: string;
  countingMethod?: string;
  createTime?: string;
  custom?: boolean;
  deletable?: boolean;
}

/** The property's key events (pageSize 200 is the Admin API maximum, REAL-API B1: one call covers almost every property). */
export async function listKeyEvents(
  ga: GoogleAnalyticsConnector,
  propertyId: string,
  signal: AbortSignal | undefined,
): Promise<KeyEvent[]> {
  const { items } = await ga.listAll<KeyEvent>(
    `v1beta/properties/${propertyId}/keyEvents`,
    "keyEvents",
    { pageSize: 200 },
    { ...(signal ? { signal } : {}) },
  );
  return items;
}

export async function findKeyEvent(
  ga: GoogleAnalyticsConnector,
  propertyId: string,
  eventName: string,
  signal: AbortSignal | undefined,
): Promise<KeyEvent | undefined> {
  return (await listKeyEvents(ga, propertyId, signal)).find((keyEvent) => keyEvent.eventName === eventName);
}

/**
 * How often the event was collected over the last 30 days (CHECKED_DAYS). The Admin API creates a key
 * event for any name (KeyEvent.eventName has no such rule:
 * https://developers.google.com/analytics/devguides/config/admin/v1/rest/v1beta/properties.keyEvents);
 * the check is this step's own (product spec, docs/ARCHITECTURE.md), so that a typo does not become a
 * key event that counts nothing. Processing takes 24–48 h, so when reports show nothing the realtime
 * report (last 30 minutes) is asked too: an event sent just now still counts. Event names are
 * case-sensitive.
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
  const processed = count(await ga.runReport(propertyId, { dateRanges: [CHECKED_DAYS], ...query }, signal));
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

/** The checked days as real dates of the property's zone (UTC when GA does not say it). */
export function checkedDays(now: Date, timeZone: string | undefined): string {
  const [range] = statedRanges([CHECKED_DAYS], now, timeZone);
  return range ? `${range.start_date} to ${range.end_date}${timeZone ? "" : " UTC"}` : "the last 30 days";
}

/** How alike two event names are, 0 (nothing alike) to 1 (the same, case ignored). */
export function nameSimilarity(a: string, b: string): number {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  if (x === y) return 1;
  const edit = 1 - distance(x, y) / Math.max(x.length, y.length);
  // Words of snake_case names shared: generate_lead and lead_form share "lead".
  const words = (name: string) => new Set(name.split(/[_\s-]+/).filter((word) => word.length > 1));
  const [wx, wy] = [words(x), words(y)];
  const shared = [...wx].filter((word) => wy.has(word)).length;
  const overlap = shared / Math.max(wx.size, wy.size, 1);
  const contains = x.includes(y) || y.includes(x) ? 0.7 : 0;
  return Math.max(edit, overlap, contains);
}

/** Below this, a name is not offered as "close": page_view is not close to generate_lead. */
export const SIMILAR_ENOUGH = 0.5;

export interface CollectedEvent {
  name: string;
  count: number;
  /** Already a key event of the property. */
  key: boolean;
}

/**
 * What a refusal offers instead of an event never collected: the collected events of the checked days
 * whose names are alike (nameSimilarity at least SIMILAR_ENOUGH), most alike first, then by name (never
 * by how often they occur: the most frequent events are not the closest names). Each says whether it
 * already is a key event.
 */
export async function closestCollected(
  ga: GoogleAnalyticsConnector,
  propertyId: string,
  eventName: string,
  signal: AbortSignal | undefined,
): Promise<{ events: CollectedEvent[]; timeZone?: string }> {
  const [report, keyEvents] = await Promise.all([
    ga.runReport(
      propertyId,
      {
        dateRanges: [CHECKED_DAYS],
        dimensions: [{ name: "eventName" }],
        metrics: [{ name: "eventCount" }],
        limit: "1000",
      },
      signal,
    ),
    listKeyEvents(ga, propertyId, signal),
  ]);
  const keys = new Set(keyEvents.map((keyEvent) => keyEvent.eventName));
  const events = (report.rows ?? [])
    .flatMap((row) => {
      const name = row.dimensionValues?.[0]?.value;
      const count = Number(row.metricValues?.[0]?.value ?? 0);
      return name ? [{ name, count: Number.isFinite(count) ? count : 0, key: keys.has(name) }] : [];
    })
    .map((event) => ({ ...event, similarity: nameSimilarity(eventName, event.name) }))
    .filter((event) => event.similarity >= SIMILAR_ENOUGH)
    .sort((a, b) => b.similarity - a.similarity || a.name.localeCompare(b.name))
    .slice(0, 5)
    .map(({ name, count, key }) => ({ name, count, key }));
  return { events, ...(report.metadata?.timeZone ? { timeZone: report.metadata.timeZone } : {}) };
}
