/**
 * The dates of a Marketo call in a named time zone (time_zone): a bulk export's date filters
 * (body.filter.createdAt/updatedAt {startAt, endAt}, "datetime" each,
 * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-extract/bulk-lead-extract#filters)
 * and an activity read's sinceDatetime (Get Paging Token, "Earliest datetime to retrieve activities from",
 * https://developer.adobe.com/marketo-apis/api/mapi/#tag/Activities/operation/getActivitiesPagingTokenUsingGET).
 * Marketo takes instants; this turns a date ("2026-11-01") or a clock time without an offset into the
 * instant of that zone's clock on that date, and refuses an offset that is not the zone's at its instant
 * (in where's quoted datetimes too), with the value to send instead (agent trial s6, N06). Without
 * time_zone, dates alone are read in UTC the same way, and bounds sent with an offset are stated in UTC in the
 * answer, so a wrong one can be seen.
 */
import { ValidationError } from "../../errors.js";
import type { MarketoApiCallInput } from "../../schemas/marketo.js";
import { isFieldName } from "../filter/parser.js";
import { isPlainObject as isRecord } from "../input/schema-walk.js";
import { BUCKET_UNITS } from "../records/buckets.js";
import { differenceSplit } from "../records/sum-difference.js";
import {
  dateWords,
  instantOf,
  isZone,
  offsetAt,
  offsetText,
  startOfDate,
  wallAt,
  wallWords,
  zonedIso,
} from "../zone-clock.js";
import { isoSecond } from "./export-windows.js";

const DAY_MS = 86_400_000;
const EXPORT_CREATE = /^\/bulk\/v1\/.+\/export\/create\.json$/;
// The REST reference spells it sinceDatetime; the prose writes sinceDateTime (connectors/marketo/activities.ts).
const SINCE = ["sinceDatetime", "sinceDateTime"] as const;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** One bound as written: where it is, whether it ends a range, its text. */
interface Bound {
  field: string;
  /** Its key in its object: startAt, endAt, or the query parameter's name. */
  key: string;
  end: boolean;
  text: string;
}

/** A date filter ({startAt, endAt} under its name) or sinceDatetime (a start alone). */
interface Range {
  name: string;
  bounds: Bound[];
}

type Parsed =
  | { kind: "date"; date: number }
  | { kind: "time"; wall: number; offset?: number; offsetGiven?: string };

/** Date.UTC of the fields, or undefined when they name no real date or time (2026-02-30, 24:00). */
function utc(fields: readonly (string | undefined)[]): number | undefined {
  const [y, mo, d, h = "0", mi = "0", s = "0"] = fields.map((f) => Number(f ?? 0));
  const ms = Date.UTC(y ?? 0, (mo ?? 1) - 1, d ?? 1, Number(h), Number(mi), Number(s));
  const back = new Date(ms);
  // Every field survives the round trip: Date.UTC rolls month 13 into January and 2026-02-30 into March.
  const same =
    back.getUTCMonth() + 1 === mo &&
    back.getUTCDate() === d &&
    back.getUTCHours() === Number(h) &&
    back.getUTCMinutes() === Number(mi);
  return same ? ms : undefined;
}

function parse(text: string): Parsed | undefined {
  const date = DATE.exec(text);
  if (date) {
    const ms = utc(date.slice(1));
    return ms === undefined ? undefined : { kind: "date", date: ms };
  }
  const time = DATETIME.exec(text);
  const wall = time ? utc(time.slice(1, 7)) : undefined;
  if (!time || wall === undefined) return undefined;
  const zone = time[7];
  if (zone === undefined) return { kind: "time", wall };
  if (zone === "Z") return { kind: "time", wall, offset: 0, offsetGiven: zone };
  const sign = zone.startsWith("-") ? -1 : 1;
  const digits = zone.slice(1).replace(":", "");
  const offset = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  return { kind: "time", wall, offset, offsetGiven: zone };
}

/** The date filters of an export create and the sinceDatetime of a read, as the caller wrote them. */
function rangesOf(input: MarketoApiCallInput): Range[] {
  const ranges: Range[] = [];
  const filter = isRecord(input.body) ? input.body.filter : undefined;
  if (input.method === "POST" && EXPORT_CREATE.test(input.endpoint) && isRecord(filter)) {
    for (const [name, range] of Object.entries(filter)) {
      if (!isRecord(range)) continue;
      const bounds = (["startAt", "endAt"] as const).flatMap((key) => {
        const text = range[key];
        return typeof text === "string"
          ? [{ field: `body.filter.${name}.${key}`, key, end: key === "endAt", text }]
          : [];
      });
      if (bounds.length > 0) ranges.push({ name, bounds });
    }
  }
  // The second spelling, when both are given, is not sent (connectors/marketo/activities.ts; review s20, 11f).
  const query = input.query_parameters;
  const name = SINCE.find((spelling) => typeof query?.[spelling] === "string");
  const text = name === undefined ? undefined : query?.[name];
  if (name !== undefined && typeof text === "string") {
    ranges.push({ name, bounds: [{ field: `query_parameters.${name}`, key: name, end: false, text }] });
  }
  return ranges;
}

/**
 * The ranges sent: a nextPageToken places an activity read and its start is not sent (connectors/marketo/
 * activities.ts), so it is neither rewritten nor said to be sent (review s20, finding 6).
 */
function sentRanges(input: MarketoApiCallInput, ranges: readonly Range[]): Range[] {
  const token = input.query_parameters?.nextPageToken;
  if (token === undefined || token === "") return [...ranges];
  return ranges.filter((range) => !(SINCE as readonly string[]).includes(range.name));
}

/**
 * A range whose end comes before its start is refused before its end date is read to the end of its day:
 * stretched, 2026-12-03 to 2026-12-02 became an empty window Marketo accepted, 0 rows marked complete
 * (review s21, finding 1).
 */
function refuseReversed(ranges: readonly Range[]): void {
  for (const range of ranges) {
    const start = range.bounds.find((bound) => !bound.end);
    const end = range.bounds.find((bound) => bound.end);
    if (!start || !end) continue;
    const [from, to] = [parse(start.text), parse(end.text)];
    const at = (p: Parsed | undefined) =>
      p === undefined ? undefined : p.kind === "date" ? p.date : p.wall - (p.offset ?? 0);
    const [a, b] = [at(from), at(to)];
    if (a === undefined || b === undefined || b >= a) continue;
    throw new ValidationError(
      end.field,
      `${end.text} is before ${start.field.split(".").pop()} ${start.text}.`,
      {
        hint: `Swap them: ${start.field.split(".").pop()} is the range's first day, ${end.key} its last.`,
      },
    );
  }
}

/** A bound in the zone: the instant sent, and what to call it in words. */
interface Resolved {
  bound: Bound;
  /** Sent as isoSecond(instant): Marketo's datetimes "without milliseconds", in UTC. */
  instant: number;
  /** The date a date-only end bound ends. */
  endOf?: number;
}

function refuseOffset(zone: string, bound: Bound, wall: number): never {
  const meant = instantOf(zone, wall);
  const clock = new Date(wall).toISOString().slice(11, new Date(wall).getUTCSeconds() === 0 ? 16 : 19);
  const day = Math.floor(wall / DAY_MS) * DAY_MS;
  // At midnight, a date says it without an offset: an end bound's midnight is the end of the day before.
  // Not in where, whose date alone is a whole day (<= holds to its end), so the date would not always say it.
  const inWhere = bound.field === "where";
  const date =
    clock === "00:00" && !inWhere ? new Date(bound.end ? day - DAY_MS : day).toISOString().slice(0, 10) : "";
  throw new ValidationError(
    bound.field,
    `${bound.text} is not ${clock} in ${zone} on ${dateWords(day)} (${offsetText(offsetAt(zone, meant))} then): ` +
      `send ${zonedIso(zone, meant)}${date ? `, or the date ${date} with time_zone` : ""}.`,
    inWhere
      ? {}
      : {
          hint: `Write dates as YYYY-MM-DD with time_zone "${zone}": the step sends that zone's midnight on each date.`,
        },
  );
}

function resolve(zone: string, bound: Bound, given = true): Resolved {
  const parsed = parse(bound.text);
  if (!parsed) {
    throw new ValidationError(
      bound.field,
      `${bound.text} is neither a real date (2026-11-01) nor an ISO 8601 datetime (2026-11-01T09:30:00)${given ? ", which time_zone needs" : ""}.`,
    );
  }
  if (parsed.kind === "date") {
    // An end date is the end of that day: the next day's first instant (Marketo counts both ends in).
    const instant = startOfDate(zone, bound.end ? parsed.date + DAY_MS : parsed.date);
    return { bound, instant, ...(bound.end ? { endOf: parsed.date } : {}) };
  }
  if (parsed.offset === undefined) return { bound, instant: instantOf(zone, parsed.wall) };
  const instant = parsed.wall - parsed.offset;
  // A time in UTC (Z) is the instant it names: a window in UTC beside count_by's hours on a zone's clock (trial s37,
  // N543: refused, the agent wrote each window in each zone's offset, 4 calls more). Another offset that is not the
  // zone's is the slip of a season (-05:00 for New York in November) and is refused.
  if (parsed.offsetGiven !== "Z" && offsetAt(zone, instant) !== parsed.offset) {
    refuseOffset(zone, bound, parsed.wall);
  }
  return { bound, instant };
}

const ZONE_HINT = 'Give an IANA time zone name, e.g. "America/New_York", "Europe/London" or "UTC".';

/** One range in the zone's words and in UTC: "createdAt 1 Nov 2026 00:00 (-04:00) to …, sent as …". */
function zonedWords(zone: string, name: string, resolved: readonly Resolved[]): string {
  const local = resolved.map(({ instant, endOf }) => {
    const end = endOf !== undefined ? `: the end of ${dateWords(endOf)}` : "";
    return `${wallWords(wallAt(zone, instant))} (${offsetText(offsetAt(zone, instant))}${end})`;
  });
  return `${name} ${local.join(" to ")}, sent as ${resolved.map(({ instant }) => isoSecond(instant)).join(" to ")}`;
}

/** Without time_zone: each range written with an offset other than Z, in UTC, so a wrong offset shows. */
function offsetWords(ranges: readonly Range[]): string | undefined {
  const stated = ranges.flatMap(({ name, bounds }) => {
    const parsed = bounds.map(({ text }) => parse(text));
    if (!parsed.some((p) => p?.kind === "time" && p.offsetGiven !== undefined && p.offsetGiven !== "Z")) {
      return [];
    }
    const inUtc = parsed.map((p, i) =>
      p?.kind === "time" && p.offset !== undefined ? isoSecond(p.wall - p.offset) : bounds[i]?.text,
    );
    return [`${name} ${bounds.map(({ text }) => text).join(" to ")} is ${inUtc.join(" to ")} in UTC`];
  });
  if (stated.length === 0) return undefined;
  return (
    `Dates sent: ${stated.join("; ")} (offsets as given: with time_zone, e.g. "America/New_York", the step ` +
    "checks each against that zone's offset on its date, DST included)."
  );
}

/** The input with its bounds in UTC instants. */
function rewritten(
  input: MarketoApiCallInput,
  ranges: readonly (readonly Resolved[])[],
): MarketoApiCallInput {
  let body = input.body;
  let query = input.query_parameters;
  for (const resolved of ranges) {
    for (const { bound, instant } of resolved) {
      const sent = isoSecond(instant);
      if (bound.field.startsWith("query_parameters.")) {
        query = { ...query, [bound.key]: sent };
        continue;
      }
      const filter = (body?.filter ?? {}) as Record<string, Record<string, unknown>>;
      const name = bound.field.split(".")[2] as string;
      body = { ...body, filter: { ...filter, [name]: { ...filter[name], [bound.key]: sent } } };
    }
  }
  return { ...input, ...(body ? { body } : {}), ...(query ? { query_parameters: query } : {}) };
}

export interface DatedCall {
  /** The input to send: with time_zone, every bound as the UTC instant it names. */
  input: MarketoApiCallInput;
  /** The window sent, in words, for the answer's summary. */
  words?: string;
}

/**
 * A call's date bounds in its time_zone: dates and clock times turned into instants, offsets checked
 * (refused before anything is sent when wrong), and the window in words. Without time_zone the input is
 * sent as it is, and bounds with offsets are stated in UTC.
 */
/** Quoted datetimes with an offset in where (the step's own filter on records read, which compares instants). */
const WHERE_DATETIME = /["'](\d{4}-\d{2}-\d{2}T[\d:.]+(?:Z|[+-]\d{2}:?\d{2}))["']/g;

/** A word after an operator (a dotted path may end in a quoted part): two fields compared when the parser reads it so. */
const AFTER_OPERATOR = /[=<>]\s*([A-Za-z_][\w.]*(?:"[^"]*")?)/g;
const fieldsCompared = (text: string) =>
  [...text.matchAll(AFTER_OPERATOR)].some(([, word = ""]) => isFieldName(word));

/** A quoted date or datetime in where, which with time_zone reads on the zone's clock (records/match.ts). */
const WHERE_DATED = /["']\d{4}-\d{2}-\d{2}(?:T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?["']/;
/**
 * A count_by date bucket ("createdAt:day", ":hour", as columns "createdAt:week:columns"), which with time_zone is
 * read on the zone's clock: every unit buckets.ts counts by (a unit left out here refused the zone).
 */
// A space after the colon too: count_by and per then refuse the name with the bucket to write, and the call keeps
// its time_zone (review s41, 3: refused here first, the hints led to UTC days).
const BUCKETED = new RegExp(`:\\s*(?:${BUCKET_UNITS.join("|")})\\s*(?::\\s*columns\\s*)?(?:,|$)`, "i");

/** An offset in where that is not the zone's at its instant is refused as in the filters, with the value to send. */
function checkWhere(zone: string, where: string | undefined, field = "where"): boolean {
  for (const [, text = ""] of where?.matchAll(WHERE_DATETIME) ?? []) {
    const parsed = parse(text);
    if (parsed?.kind !== "time" || parsed.offset === undefined) continue;
    if (offsetAt(zone, parsed.wall - parsed.offset) !== parsed.offset) {
      refuseOffset(zone, { field, key: field, end: false, text }, parsed.wall);
    }
  }
  return where !== undefined && WHERE_DATED.test(where);
}

/**
 * Without time_zone, a date alone (YYYY-MM-DD) is read in UTC as time_zone reads it: a start date is its
 * midnight and an end date the end of its day. Sent as written, "endAt 2026-12-04" was that day's first
 * instant and left out the leads created on it (trial s19, N198: today's 5 leads). Other bounds go as given.
 */
function utcDates(input: MarketoApiCallInput, ranges: readonly Range[]): DatedCall {
  const dated = ranges
    .map((range) => ({
      name: range.name,
      resolved: range.bounds
        .filter((bound) => DATE.test(bound.text))
        .map((bound) => resolve("UTC", bound, false)),
    }))
    .filter((range) => range.resolved.length > 0);
  // The dates as sent where a range mixes one with an offset datetime (review s20, 11g: the date was shown raw).
  const sentText = new Map(
    dated.flatMap((range) => range.resolved.map((r) => [r.bound, isoSecond(r.instant)])),
  );
  const offsets = offsetWords(
    ranges.map((range) => ({
      ...range,
      bounds: range.bounds.map((bound) => ({ ...bound, text: sentText.get(bound) ?? bound.text })),
    })),
  );
  if (dated.length === 0) return offsets ? { input, words: offsets } : { input };
  const read = dated.map(({ name, resolved }) => {
    const dates = resolved.map(({ bound, endOf }) =>
      endOf !== undefined ? `${bound.text} (to the end of that day)` : bound.text,
    );
    return `${name} ${dates.join(" to ")} sent as ${resolved.map(({ instant }) => isoSecond(instant)).join(" to ")}`;
  });
  const words =
    `Dates without time_zone are read in UTC: ${read.join("; ")} (give time_zone, e.g. "America/New_York", ` +
    "to read them on that zone's clock).";
  return {
    input: rewritten(
      input,
      dated.map((range) => range.resolved),
    ),
    words: [words, offsets].filter(Boolean).join(" "),
  };
}

export function zonedDates(input: MarketoApiCallInput): DatedCall {
  const ranges = rangesOf(input);
  refuseReversed(ranges);
  const sent = sentRanges(input, ranges);
  const dated = datedCall(input, ranges, sent);
  if (sent.length === ranges.length) return dated;
  // Said rather than dropped without a word (review s21, 8g).
  const note = "sinceDatetime is not sent: the nextPageToken places the read.";
  return { ...dated, words: [dated.words, note].filter(Boolean).join(" ") };
}

/** The call with its sent ranges' bounds as instants; `ranges` all the call has (time_zone applies to them). */
function datedCall(input: MarketoApiCallInput, ranges: readonly Range[], sent: readonly Range[]): DatedCall {
  const zone = input.time_zone;
  if (zone === undefined) return utcDates(input, sent);
  if (!isZone(zone)) {
    throw new ValidationError("time_zone", `"${zone}" is not a time zone this server knows.`, {
      hint: ZONE_HINT,
    });
  }
  // A count_by condition's quoted dates ('createdAt >= "2026-01-01"') read the zone's clock as where's do.
  // Both are checked, each refusal naming its own input (review s25, finding 8).
  const [whereDates, countDates] = [
    checkWhere(zone, input.where),
    checkWhere(zone, input.count_by, "count_by"),
  ];
  const whereDated = whereDates || countDates;
  // per's date buckets ("leadSource,createdAt:month") read the zone's clock too (review s39, 3).
  const bucketed = [input.count_by, input.per, input.count_distinct].some(
    (text) => text !== undefined && BUCKETED.test(text),
  );
  // A GET path read for join, where or count_by reads its sinceDatetime on the zone's clock (marketo/path-read.ts);
  // two fields compared read a date alone, or a time without an offset, on it too (records/match.ts; review s48, 5).
  const texts = `${input.join ?? ""} ${input.where ?? ""} ${input.count_by ?? ""}`;
  // sum "a - b" reads two dates on it too (review s57, F4), split as sum splits it: "'a - b'" is one name (s58, F4).
  const differs = differenceSplit(input.sum ?? "") !== undefined;
  const pathDated = /[?&]sinceDatetime=/i.test(texts) || fieldsCompared(texts) || differs;
  if (ranges.length === 0 && !whereDated && !bucketed && !pathDated) {
    throw new ValidationError(
      "time_zone",
      "it applies to an export create's body.filter createdAt/updatedAt {startAt, endAt}, to " +
        'query_parameters.sinceDatetime, to quoted dates in where and count_by, to sum "a - b" (a date without an offset ' +
        "minus one with, or the other way), and to count_by's and per's " +
        'date buckets ("createdAt:day"), and this call has none.',
      {
        hint: 'Leave time_zone out, or give dates, e.g. body.filter.createdAt {"startAt":"2026-11-01","endAt":"2026-11-30"}.',
      },
    );
  }
  if (sent.length === 0) return { input };
  const resolved = sent.map((range) => range.bounds.map((bound) => resolve(zone, bound)));
  const words = sent.map((range, i) => zonedWords(zone, range.name, resolved[i] ?? []));
  // Marketo writes a record's dates in UTC ("2026-11-01T04:09:07Z"), and the answer keeps them as written: an
  // agent took 04:09Z for a New York time (trial s14, N104). Said where records with dates come back.
  const kept = sent.some((range) => (SINCE as readonly string[]).includes(range.name))
    ? ` The records' dates stay as Marketo writes them, in UTC (ending Z); where's quoted dates and count_by's date buckets are on ${zone}'s clock.`
    : "";
  return { input: rewritten(input, resolved), words: `Dates in ${zone}: ${words.join("; ")}.${kept}` };
}
