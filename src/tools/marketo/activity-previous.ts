/**
 * `previous`: each activity read carries the last activity of a named type before it, of the same lead, so
 * that where, order_by and count_by answer the questions of two activities in one read: the time from a
 * send to its click, the weekday of the send an open came from, the page visited last before a form was
 * filled (trials s27 N368/N369 and s28 N387: an agent read 240,000 to 390,000 characters of activities back
 * to pair them itself).
 *
 * Two types whose primary attribute is the same kind (an email's Send, Open and Click all name a "Mailing ID":
 * GET /rest/v1/activities/types.json, https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/activities#describe)
 * pair on that value too: a click is paired with the send of the same email, not the lead's last send of any.
 * Get Lead Activities reads forward in time from its paging token
 * (https://experienceleague.adobe.com/en/docs/experience-cloud-kcs/kbarticles/ka-29362), so the last one
 * seen before a record is the last one before it in time; each page is still put in time order first.
 * A type named with ":any" ("Send Email:any") pairs on the lead alone: a lead's last send of any email before an
 * open (trial s30 N428), a delivery of any email after a bounce (N426).
 *
 * `next` is the same pairing the other way: the lead's first activity of the type after each record (the first
 * send after a lead was created, the deliveries after a bounce: trials s29 N398, s30 N426, N428, N435, where agents
 * read up to 158,000 characters to match them by hand). It needs every later record, so it pairs over the whole
 * read once it is in (compute-read.ts holds the pages), and the last records of a cut read may have one unread.
 */
import { ValidationError } from "../../errors.js";
import type { MarketoApiCallInput } from "../../schemas/marketo.js";
import { n, plural } from "../numbers-in-words.js";
import { ACTIVITY_EXPORT_CREATE, type ActivityTypes, byTime } from "./activity-types.js";

const READ_PATH = "/rest/v1/activities.json";
const HOUR_MS = 3_600_000;

/**
 * What a record's `previous` holds of the activity before it: not its lead (the record's own), its marketoGUID or
 * its attributes, which made a paired read half as long again (review s32, 10).
 */
const LEFT_OUT = new Set([
  "leadId",
  "lead",
  "previous",
  "previous_hours",
  "next",
  "next_hours",
  "marketoGUID",
  "attributes",
]);

/** Which way a pairer looks: the last activity of the type before each record, or the first after. */
export type PairWay = "previous" | "next";

/** A field a pairer adds: previous or next, their hours, or a path into them (group 1 names the way). */
export const PAIR_FIELD = /^(previous|next)(?:_hours$|\.|$)/;

/**
 * `previous` is refused, before anything is sent, on any call but a read of GET /rest/v1/activities.json or an
 * activity export run to completion (export-then.ts), and with a cursor.
 */
export function checkPrevious(input: MarketoApiCallInput, path: string): void {
  const way = input.previous !== undefined ? "previous" : input.next !== undefined ? "next" : undefined;
  if (way === undefined) return;
  // A cursor resumes mid-read, where the activities before it are not read again (review s32, finding 2).
  if (input.cursor !== undefined) {
    throw new ValidationError(
      "cursor",
      `${way} pairs the activities of one whole read, and a cursor resumes it part-way.`,
      {
        hint: "Leave cursor out and raise max_items (at most 100,000), or narrow with where or count_by; a paired answer links its whole result.",
      },
    );
  }
  if (input.method === "GET" && path === READ_PATH && !input.run_to_completion) return;
  if (input.method === "POST" && path === ACTIVITY_EXPORT_CREATE && input.run_to_completion) return;
  throw new ValidationError(
    way,
    `it pairs the activities of a read of GET ${READ_PATH}, or of an activity export (POST ${ACTIVITY_EXPORT_CREATE}) run to completion, not ${input.method} ${path}${input.run_to_completion ? " run to completion" : ""}.`,
    {
      hint:
        way === "next"
          ? `E.g. method GET, endpoint ${READ_PATH}, query_parameters {"sinceDatetime":"2026-11-01","activityTypeIds":"Click Email,Fill Out Form"}, paginate true, max_pages 200, next "Fill Out Form", where 'activityType = "Click Email"'.`
          : `E.g. method GET, endpoint ${READ_PATH}, query_parameters {"sinceDatetime":"2026-11-01","activityTypeIds":"Send Email,Click Email"}, paginate true, previous "Send Email", where 'activityType = "Click Email"'.`,
    },
  );
}

/**
 * Pairs each record seen, in time order, with the last one of the types before it (or, `next`, the first after).
 * Several types pair with the first of any of them: an open or a click after a bounce (trial s34 N501: two reads
 * of the same 1,788 activities, one per type, joined by hand).
 */
export class PreviousPairer {
  readonly typeIds: ReadonlySet<number>;
  readonly way: PairWay;
  readonly #types: ActivityTypes;
  /** The last activity of each type, by type and lead, and by type, lead and primary attribute value. */
  readonly #last = new Map<string, Record<string, unknown>>();
  /** Records seen and those that found one, by type (review s32, 7: the type's own records have none to find). */
  readonly #byType = new Map<number, { seen: number; paired: number }>();
  /** The types whose records were paired on the primary attribute too. */
  readonly #alike = new Set<number>();
  /** Set when the types' own records were read only up to a date (a cut grouped read): pairs after it are unknown. */
  #knownUntil?: { date: string; unknown: number; stopped: string };

  /** Named with ":any": paired on the lead alone, whatever the primary attributes. */
  readonly #anyAsset: boolean;

  constructor(typeIds: readonly number[], types: ActivityTypes, way: PairWay = "previous", anyAsset = false) {
    this.typeIds = new Set(typeIds);
    this.#types = types;
    this.way = way;
    this.#anyAsset = anyAsset;
  }

  /** The types in words ("Open Email or Click Email"). */
  get typeName(): string {
    return this.namesOf([...this.typeIds]);
  }

  /** Types in words. */
  namesOf(ids: readonly number[]): string {
    return listed(ids.map(this.#nameOf), "or");
  }

  /** The types as the input names them ("Open Email,Click Email"). */
  get written(): string {
    return [...this.typeIds].map(this.#nameOf).join(",");
  }

  readonly #nameOf = (id: number): string => this.#types.names.get(id) ?? `activity type ${id}`;

  /** The primary attributes the types pair on (none with ":any"). */
  get kinds(): string[] {
    if (this.#anyAsset) return [];
    return [...new Set([...this.typeIds].flatMap((id) => this.#types.primary.get(id) ?? []))];
  }

  /**
   * Sets `previous` and `previous_hours` on each record (null when none came before), in time order; `next`: sets
   * `next` and `next_hours`, walking back from the last record, so it is given every record of the read at once.
   */
  pair(records: readonly Record<string, unknown>[]): void {
    const inTime = [...records].sort(byTime);
    if (this.way === "next") inTime.reverse();
    for (const record of inTime) {
      const type = Number(record.activityTypeId);
      const found = this.#nearest(record, type);
      record[this.way] = found ? held(found) : null;
      const hours = !found
        ? null
        : this.way === "next"
          ? hoursBetween(record, found)
          : hoursBetween(found, record);
      record[`${this.way}_hours`] = hours;
      const count = this.#byType.get(type) ?? { seen: 0, paired: 0 };
      count.seen += 1;
      if (found) count.paired += 1;
      this.#byType.set(type, count);
      if (this.typeIds.has(type)) {
        this.#last.set(`${type}\u0000${leadKey(record)}`, record);
        this.#last.set(`${type}\u0000${assetKey(record)}`, record);
      }
    }
  }

  /**
   * The nearest activity of the types seen so far: each type as it pairs alone (of the same asset when its primary
   * attribute is the record's kind; review s42, 2: a send's previous send was of another email beside a visit type),
   * then the latest of them (previous) or the earliest (next).
   */
  #nearest(record: Record<string, unknown>, type: number): Record<string, unknown> | undefined {
    let found: Record<string, unknown> | undefined;
    for (const pairType of this.typeIds) {
      const kind = this.#anyAsset ? undefined : this.#types.primary.get(pairType);
      const same = kind !== undefined && this.#types.primary.get(type) === kind;
      if (same) this.#alike.add(type);
      const one = this.#last.get(`${pairType}\u0000${same ? assetKey(record) : leadKey(record)}`);
      if (!one) continue;
      const nearer = !found || (this.way === "next" ? time(one) < time(found) : time(one) > time(found));
      if (nearer) found = one;
    }
    return found;
  }

  /**
   * The type's own records were read only up to `date` (review s32, 1: a cut read of more than 10 types reads
   * each group to its own date): a later record's last one before it may not have been read, so it has none.
   */
  knownUntil(date: string, records: readonly Record<string, unknown>[], stopped = this.typeName): void {
    let unknown = 0;
    for (const record of records) {
      // next: a first one found up to the date is the first; one found after it may follow an unread one of a type
      // whose read stopped (review s42, 1: 460 pairs over two types in two groups), and one not found may come after.
      if (this.way === "next") {
        const found = record.next as { activityDate?: unknown } | null;
        if (found && String(found.activityDate ?? "") > date) {
          record.next = null;
          record.next_hours = null;
          const count = this.#byType.get(Number(record.activityTypeId));
          if (count) count.paired -= 1;
        }
        if (record.next === null) unknown += 1;
        continue;
      }
      // Every record after the date has none here, whether or not one came before it (review s35, 4).
      if (String(record.activityDate ?? "") <= date) continue;
      unknown += 1;
      if (record.previous === null) continue;
      record.previous = null;
      record.previous_hours = null;
      const count = this.#byType.get(Number(record.activityTypeId));
      if (count) count.paired -= 1;
    }
    this.#knownUntil = { date, unknown, stopped };
  }

  /** What the answer says of the pairing. `export_`: the rows of an export. */
  words(export_ = false): string {
    const alike = [...this.#alike].map((id) => this.#types.names.get(id) ?? String(id));
    // How to pair on the lead alone is said where it applies, not in the tool list.
    const kind = listed(this.kinds, "or");
    const match =
      alike.length > 0
        ? ` (for ${listed(alike)}, of the same ${kind}; ${this.way} "${this.written}:any" pairs any ${kind})`
        : "";
    const noun = export_ ? "row" : "record";
    // The other types first (the records a question is mostly about), then the type's own: a first form fill's
    // next fill is one too (review s36, 11: the own count was left out).
    const own = [...this.#byType].filter(([type]) => this.typeIds.has(type));
    const counted = [...[...this.#byType].filter(([type]) => !this.typeIds.has(type)), ...own].map(
      ([type, c]) => `${this.#types.names.get(type) ?? type} ${n(c.paired)} of ${n(c.seen)}`,
    );
    return (
      `each ${noun}'s ${this.way} is the lead's ${this.way === "next" ? "first" : "last"} ${this.typeName} ${this.way === "next" ? "after" : "before"} it${match} among the activities read, ` +
      `${this.way}_hours the hours between (none: null, a blank in count_by, false in a condition): ` +
      `${counted.length > 0 ? `${counted.join(", ")} have one` : `no ${noun} was read`}${this.#cutWords(noun)}`
    );
  }

  /** A cut grouped read: the records whose pair may not have been read. */
  #cutWords(noun: string): string {
    const known = this.#knownUntil;
    if (!known) return "";
    const stopped = `the read of ${known.stopped} ${known.date ? `stopped at ${known.date}` : "was not reached"}`;
    const fix = "raise max_items or give a later sinceDatetime";
    const many = plural(known.unknown, noun);
    return this.way === "next"
      ? `; ${stopped}, so the ${many} with none may have one after it: ${fix}`
      : `; ${stopped}, so the ${many} after it ${known.unknown === 1 ? "has" : "have"} none here, whether or not one came before: ${fix}`;
  }
}

const listed = (names: string[], and = "and"): string =>
  names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} ${and} ${names.at(-1)}`;

const leadKey = (record: Record<string, unknown>): string => `${String(record.leadId)}`;
const assetKey = (record: Record<string, unknown>): string =>
  `${String(record.leadId)}\u0000${String(record.primaryAttributeValueId ?? record.primaryAttributeValue ?? "")}`;

const time = (record: Record<string, unknown>): number => Date.parse(String(record.activityDate ?? ""));

/** Hours to the hundredth (36 seconds): Marketo's activity dates are to the second. */
const hoursBetween = (before: Record<string, unknown>, after: Record<string, unknown>): number =>
  Math.round(((time(after) - time(before)) / HOUR_MS) * 100) / 100;

function held(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (!LEFT_OUT.has(key)) out[key] = value;
  // An export's row has no id: its marketoGUID names it (review s35, 7).
  if (record.id === undefined && record.marketoGUID !== undefined) out.marketoGUID = record.marketoGUID;
  return out;
}
