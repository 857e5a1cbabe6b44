/**
 * A lead or activity export over any span: Marketo takes a createdAt or updatedAt range of 31 days at most
 * ("Max Time Span for Date Range Filter (createdAt or updatedAt): 31 days",
 * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-extract/bulk-extract#limits;
 * "The range must be 31 days or fewer", .../bulk-lead-extract#filters), so a longer one is run as consecutive
 * jobs of at most 31 days each. Consecutive windows share their boundary instant: whether Marketo counts the
 * ends in or out, no record falls between two windows, and one at the boundary, read twice, is dropped by
 * the join's deduplication (by lead id, or by activity marketoGUID).
 */
import { isPlainObject as isRecord } from "../input/schema-walk.js";

export const MAX_WINDOW_MS = 31 * 86_400_000;

export interface Window {
  startAt: string;
  endAt: string;
}

export interface ExportSpan {
  /** The date filter that is split. */
  field: "createdAt" | "updatedAt";
  windows: Window[];
  /** The unique key of a row: lead id, or activity marketoGUID. */
  key: "id" | "marketoGUID";
}

/** Marketo's datetimes "without milliseconds" (the filters' own words), in UTC. */
export const isoSecond = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

const SPLITTABLE: Record<string, { fields: ("createdAt" | "updatedAt")[]; key: "id" | "marketoGUID" }> = {
  "/bulk/v1/leads/export/create.json": { fields: ["createdAt", "updatedAt"], key: "id" },
  "/bulk/v1/activities/export/create.json": { fields: ["createdAt"], key: "marketoGUID" },
};

function parse(value: unknown): number | undefined {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}/.test(value)) return undefined;
  const ms = Date.parse(value.replace(/Z\+0000$/, "Z").replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * The windows of a create body whose createdAt/updatedAt range is longer than 31 days, or undefined when
 * it runs as one job (any other endpoint, filter or range; Marketo then judges the body as it is).
 */
export function exportSpan(endpoint: string, body: unknown): ExportSpan | undefined {
  const splittable = SPLITTABLE[endpoint];
  const filter = isRecord(body) ? body.filter : undefined;
  if (!splittable || !isRecord(filter)) return undefined;
  const field = splittable.fields.find((name) => filter[name] !== undefined);
  const range = field ? filter[field] : undefined;
  if (!field || !isRecord(range)) return undefined;
  const from = parse(range.startAt);
  const to = parse(range.endAt);
  if (from === undefined || to === undefined || to - from <= MAX_WINDOW_MS) return undefined;
  const windows: Window[] = [];
  for (let start = from; start < to; start += MAX_WINDOW_MS) {
    windows.push({ startAt: isoSecond(start), endAt: isoSecond(Math.min(start + MAX_WINDOW_MS, to)) });
  }
  return { field, windows, key: splittable.key };
}

/** The create body of one window: the caller's body with the window as its range, and the key among the fields. */
export function windowBody(
  body: Record<string, unknown>,
  span: ExportSpan,
  window: Window,
): Record<string, unknown> {
  const filter = { ...(body.filter as Record<string, unknown>), [span.field]: window };
  const fields =
    Array.isArray(body.fields) && !body.fields.includes(span.key) ? [...body.fields, span.key] : body.fields;
  return { ...body, filter, ...(fields !== undefined ? { fields } : {}) };
}

/** The key's column in the file: its header name when columnHeaderNames renames it. */
export function keyColumn(body: Record<string, unknown>, span: ExportSpan): string {
  const names = isRecord(body.columnHeaderNames) ? body.columnHeaderNames : {};
  const renamed = names[span.key];
  return typeof renamed === "string" ? renamed : span.key;
}

/** Whether the caller's fields leave the key out (it is added for the join, then dropped from the rows). */
export const keyAdded = (body: Record<string, unknown>, span: ExportSpan): boolean =>
  Array.isArray(body.fields) && !body.fields.includes(span.key);

/**
 * The fields where, order_by and count_by read that a lead export's `fields` leave out: they are exported
 * too, so the rows can be tested, and left out of the file the caller gets (trial N05: the CSV gained an
 * "unsubscribed" column nobody asked for). A name the columns already carry (a column header) is not added.
 */
export function filterOnlyFields(
  endpoint: string,
  body: Record<string, unknown>,
  named: readonly string[],
): string[] {
  if (endpoint !== "/bulk/v1/leads/export/create.json" || !Array.isArray(body.fields)) return [];
  const headers = isRecord(body.columnHeaderNames) ? Object.values(body.columnHeaderNames) : [];
  const present = new Set<unknown>([...body.fields, ...headers]);
  return [...new Set(named)].filter((name) => !present.has(name));
}
