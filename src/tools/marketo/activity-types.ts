/**
 * Activity types by name where Marketo wants their ids, and each activity named by its type. Marketo's
 * activity reads and the bulk activity export filter take `activityTypeIds` (numbers); its types and their
 * names come from GET /rest/v1/activities/types.json
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/activities#describe).
 * The list is read once per connector (one Marketo instance) and kept for an hour; a name or id it does not
 * hold reads it again once, since custom activity types can be added at any time.
 */
import type { MarketoConnector } from "../../connectors/marketo/connector.js";
import type { OnWait } from "../../connectors/marketo/types.js";
import { checkMarketoPath } from "../../connectors/marketo/url.js";
import { ValidationError } from "../../errors.js";
import type { MarketoApiCallInput } from "../../schemas/marketo.js";
import { alikeFirst } from "../records/similar-names.js";

type Query = NonNullable<MarketoApiCallInput["query_parameters"]>;

export const TYPES_PATH = "/rest/v1/activities/types.json";
/** Marketo's most activity type ids in one read (activity-groups.ts reads more in groups of this many). */
export const TYPES_A_READ = 10;
const TYPES = checkMarketoPath(TYPES_PATH);
const KEPT_MS = 60 * 60_000;

/** The REST reads whose records are activities (each has activityTypeId). */
const ACTIVITY_READS = new Set([
  "/rest/v1/activities.json",
  "/rest/v1/activities/leadchanges.json",
  "/rest/v1/activities/deletedleads.json",
  "/rest/v1/activities/emailbounced.json",
  "/rest/v1/activities/emailopened.json",
]);
/** An activity export's create call and its file. */
const ACTIVITY_EXPORT_FILE = /^\/bulk\/v1\/activities\/export\/[^/]+\/file\.json$/;
export const ACTIVITY_EXPORT_CREATE = "/bulk/v1/activities/export/create.json";

export const isActivityRead = (method: string, path: string): boolean =>
  method === "GET" && (ACTIVITY_READS.has(path) || ACTIVITY_EXPORT_FILE.test(path));

export interface ActivityTypes {
  names: ReadonlyMap<number, string>;
  /** Each type's primary attribute ("Mailing ID" for an email's sends, opens and clicks), when it has one. */
  primary: ReadonlyMap<number, string>;
  /** Calls this answer spent reading types.json (0 when the kept list served). */
  calls: number;
}

interface Kept {
  at: number;
  names: Map<number, string>;
  primary: Map<number, string>;
}

const kept = new WeakMap<MarketoConnector, Kept>();

interface Reader {
  marketo: MarketoConnector;
  signal?: AbortSignal | undefined;
  onWait: OnWait;
}

async function fetchTypes(reader: Reader): Promise<Kept & { calls: number }> {
  const answer = await reader.marketo.call({
    method: "GET",
    path: TYPES,
    ...(reader.signal ? { signal: reader.signal } : {}),
    onWait: reader.onWait,
  });
  const names = new Map<number, string>();
  const primary = new Map<number, string>();
  for (const item of answer.result) {
    const { id, name, primaryAttribute } = (item ?? {}) as {
      id?: unknown;
      name?: unknown;
      primaryAttribute?: unknown;
    };
    if (typeof id === "number" && typeof name === "string") names.set(id, name);
    const kind = (primaryAttribute as { name?: unknown } | undefined)?.name;
    if (typeof id === "number" && typeof kind === "string") primary.set(id, kind);
  }
  const entry = { at: Date.now(), names, primary };
  kept.set(reader.marketo, entry);
  return { ...entry, calls: answer.callsUsed };
}

/** The instance's activity types: the kept list when fresh, else read again; `refresh` reads it again anyway. */
export async function activityTypes(reader: Reader, refresh = false): Promise<ActivityTypes> {
  const entry = kept.get(reader.marketo);
  if (entry && !refresh && Date.now() - entry.at < KEPT_MS) {
    return { names: entry.names, primary: entry.primary, calls: 0 };
  }
  const fetched = await fetchTypes(reader);
  return { names: fetched.names, primary: fetched.primary, calls: fetched.calls };
}

/** The parts of an activityTypeIds value: "6, Open Email", [10, "Click Email"], 6. */
function partsOf(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list
    .flatMap((item) => String(item).split(","))
    .map((part) => part.trim())
    .filter(Boolean);
}

const isId = (part: string) => /^\d{1,9}$/.test(part);

/**
 * activityTypeIds with names turned into ids (case ignored); ids pass as they are; "all" is every type. An unknown name reads the
 * types again once, then is refused with the nearest names. `field` names the input in the error.
 */
export async function typeIds(
  value: unknown,
  reader: Reader,
  field: string,
): Promise<{ ids: number[]; calls: number; types: ActivityTypes }> {
  const parts = partsOf(value);
  let types = await activityTypes(reader);
  let calls = types.calls;
  // "all": every type the instance has (a lead's whole history; more than 10 are read in groups).
  const all = parts.filter((part) => part.toLowerCase() === "all");
  if (all.length > 0 && parts.length === 1) {
    return { ids: [...types.names.keys()], calls, types: { ...types, calls } };
  }
  if (all.length > 0) {
    throw new ValidationError(
      field,
      `"all" stands alone: it is every activity type, with nothing beside it.`,
      {
        hint: `Give "all", or the types by id or name (e.g. "Open Email,Click Email").`,
      },
    );
  }
  const lookup = (names: ReadonlyMap<number, string>, part: string) => {
    const lower = part.toLowerCase();
    for (const [id, name] of names) if (name.toLowerCase() === lower) return id;
    return undefined;
  };
  // A name, or an id, the kept list lacks reads the list again (a type added since) before it is refused.
  const unknown = (part: string) =>
    isId(part)
      ? types.names.size > 0 && !types.names.has(Number(part))
      : lookup(types.names, part) === undefined;
  if (parts.some(unknown)) {
    types = await activityTypes(reader, true);
    calls += types.calls;
  }
  const ids = parts.map((part) => {
    // An id no type has was read for nothing, a group of calls over more than 10 (review s21, finding 6).
    if (isId(part) && unknown(part)) {
      throw new ValidationError(
        field,
        `${part} is not the id of an activity type of this Marketo instance.`,
        {
          hint: `GET ${TYPES_PATH} lists every type with its id; names work too (e.g. "Open Email").`,
        },
      );
    }
    if (isId(part)) return Number(part);
    const id = lookup(types.names, part);
    if (id !== undefined) return id;
    const near = alikeFirst(part, [...types.names.values()]).slice(0, 5);
    const closest =
      near.length > 0
        ? `Closest: ${near.map((n) => JSON.stringify(n)).join(", ")}`
        : "No activity type is named like that";
    throw new ValidationError(
      field,
      `${JSON.stringify(part.slice(0, 80))} is not an activity type of this Marketo instance.`,
      {
        hint: `${closest}; GET ${TYPES_PATH} lists every type with its id.`,
      },
    );
  });
  return { ids: [...new Set(ids)], calls, types: { ...types, calls } };
}

/**
 * The types a caller named, as count_by's expected values: a type asked for with no activity still shows,
 * counted 0 (trial s5, T16: "Unsubscribe Email" asked for and absent read as if never asked).
 */
export function askedTypes(
  ids: readonly number[],
  names: ReadonlyMap<number, string>,
): Record<string, unknown>[] {
  return ids.map((id) => {
    const name = names.get(id);
    return name === undefined ? { activityTypeId: id } : { activityTypeId: id, activityType: name };
  });
}

/** Whether an activityTypeIds value holds a name (anything but ids). */
export const hasTypeNames = (value: unknown): boolean =>
  value !== undefined && partsOf(value).some((p) => !isId(p));

/** The query of an activity read with activityTypeIds as ids (comma-separated, as Marketo takes them). */
export async function activityQuery(
  query: Query | undefined,
  reader: Reader,
): Promise<{ query: Query | undefined; types: ActivityTypes; ids?: number[] }> {
  const given = query?.activityTypeIds;
  if (given === undefined) {
    const types = await activityTypes(reader);
    return { query, types };
  }
  const { ids, types } = await typeIds(given, reader, "query_parameters.activityTypeIds");
  return { query: { ...query, activityTypeIds: ids.join(",") }, types, ids };
}

/** The record with `activityType` (the type's name, null when unknown) right after its activityTypeId. */
export function namedType<T extends Record<string, unknown>>(
  record: T,
  names: ReadonlyMap<number, string>,
): T {
  if (!Object.hasOwn(record, "activityTypeId") || Object.hasOwn(record, "activityType")) return record;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    out[key] = value;
    if (key === "activityTypeId") out.activityType = names.get(Number(value)) ?? null;
  }
  return out as T;
}

const time = (record: Record<string, unknown>): string => String(record.activityDate ?? "");
/** Activities in time order, as one read gives them: activityDate, then id (joined groups; previous pairs in it). */
export const byTime = (a: Record<string, unknown>, b: Record<string, unknown>): number =>
  time(a) < time(b) ? -1 : time(a) > time(b) ? 1 : Number(a.id ?? 0) - Number(b.id ?? 0);

/** An export's columns with activityType after activityTypeId (as namedType adds it to each row). */
export function namedColumns(columns: readonly string[]): string[] {
  return columns.includes("activityType")
    ? [...columns]
    : columns.flatMap((c) => (c === "activityTypeId" ? [c, "activityType"] : [c]));
}

/** What naming an activity read's records needs: the types read so far, and whether they were read again. */
export interface ActivityNaming {
  names: ReadonlyMap<number, string>;
  reader: Reader;
  refreshed: boolean;
  /** types.json calls this answer spent. */
  calls: number;
}

export function activityNaming(types: ActivityTypes, reader: Reader): ActivityNaming {
  return { names: types.names, reader, refreshed: false, calls: types.calls };
}

/**
 * The records, each named by its type; a type id the kept list does not hold reads the types again, once
 * per answer (a custom type added since). Without naming (not an activity read), the records as they are.
 */
export async function nameRecords<T extends Record<string, unknown>>(
  records: T[],
  naming: ActivityNaming | undefined,
): Promise<T[]> {
  if (!naming) return records;
  const unknown = records.some(
    (record) => Object.hasOwn(record, "activityTypeId") && !naming.names.has(Number(record.activityTypeId)),
  );
  if (unknown && !naming.refreshed) {
    const types = await activityTypes(naming.reader, true);
    naming.names = types.names;
    naming.refreshed = true;
    naming.calls += types.calls;
  }
  return records.map((record) => namedType(record, naming.names));
}
