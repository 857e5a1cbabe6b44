/**
 * `previous` and `next` of one read (activity-previous.ts): each names activity types, by name or id, among
 * the types read, since the activity paired with a record is found among those read. `previous` pairs as the
 * pages come in; `next` waits for the whole read, since a record's first one after it may come on any later page.
 */
import { ValidationError } from "../../errors.js";
import type { MarketoApiCallInput } from "../../schemas/marketo.js";
import { CURSOR_PREFIX } from "../cursor.js";
import type { NamedField } from "../records/fields.js";
import { perNamed } from "../records/per.js";
import { PAIR_FIELD, type PairWay, PreviousPairer } from "./activity-previous.js";
import type { ActivityTypes } from "./activity-types.js";

export class ActivityPairs {
  readonly list: readonly PreviousPairer[];

  constructor(list: readonly PreviousPairer[]) {
    this.list = list;
  }

  /** Whether a pairer waits for the whole read (`next`). */
  get wholeRead(): boolean {
    return this.list.some((pairer) => pairer.way === "next");
  }

  /** The names of what they add, for the words of a cut read. */
  get names(): string {
    return this.list.map((pairer) => pairer.way).join(" and ");
  }

  /** `previous`, as the records are read, in time order. */
  stream(records: readonly Record<string, unknown>[]): void {
    for (const pairer of this.list) if (pairer.way === "previous") pairer.pair(records);
  }

  /** `next`, once every record of the read is in. */
  finish(records: readonly Record<string, unknown>[]): void {
    for (const pairer of this.list) if (pairer.way === "next") pairer.pair(records);
  }

  /** Both, over records already whole (grouped reads, exports). */
  pair(records: readonly Record<string, unknown>[]): void {
    this.stream(records);
    this.finish(records);
  }

  words(export_ = false): string {
    return this.list.map((pairer) => pairer.words(export_)).join("; ");
  }
}

/** The pairs a read asks for, or undefined without previous and next. */
export async function activityPairs(
  input: MarketoApiCallInput,
  read: { ids: readonly number[] | undefined; types: ActivityTypes },
  typeIdsOf: (value: string, field: PairWay) => Promise<number[]>,
): Promise<ActivityPairs | undefined> {
  const list: PreviousPairer[] = [];
  for (const way of ["previous", "next"] as const) {
    const value = input[way];
    if (value !== undefined) list.push(await pairerOf(way, value, read, typeIdsOf));
  }
  return list.length > 0 ? new ActivityPairs(list) : undefined;
}

async function pairerOf(
  way: PairWay,
  value: string,
  read: { ids: readonly number[] | undefined; types: ActivityTypes },
  typeIdsOf: (value: string, field: PairWay) => Promise<number[]>,
): Promise<PreviousPairer> {
  // "Send Email:any": the lead's last send of any email, not of the same one (activity-previous.ts). Over several
  // types it applies to all, wherever it is written ("Open Email:any,Click Email": trial s34 run 3, refused).
  const ANY = /\s*:\s*any\s*(?=,|$)/gi;
  const any = ANY.test(value);
  const name = any ? value.replace(ANY, "").trim() : value;
  const ids = [...new Set(await typeIdsOf(name, way))];
  if (ids.length === 0) {
    throw new ValidationError(way, "it takes activity types, by name or id.", {
      hint: `E.g. ${way} "Send Email" (with activityTypeIds "Send Email,Click Email").`,
    });
  }
  const pairer = new PreviousPairer(ids, read.types, way, any);
  const unread = read.ids ? ids.filter((id) => !read.ids?.includes(id)) : [];
  if (read.ids && unread.length > 0) {
    throw new ValidationError(
      way,
      `${unread.map((id) => `${read.types.names.get(id) ?? "activity type"} (${id})`).join(", ")} ${unread.length === 1 ? "is" : "are"} not among the activityTypeIds read: the activity ${way === "next" ? "after" : "before"} each record is found among them.`,
      {
        hint: `Add ${unread.length === 1 ? "it" : "them"}: activityTypeIds "${[...read.ids, ...unread].join(",")}".`,
      },
    );
  }
  return pairer;
}

/**
 * A field of `next` or `previous` named where neither is given (next_hours, previous.activityDate): refused before
 * anything is read, as lead.<field> without lead_fields is (review s35, 9: it was refused after a read of 61 calls).
 */
export function checkPairPaths(input: MarketoApiCallInput, named: readonly NamedField[]): void {
  const all = [...named, ...perNamed(input.per)];
  for (const { input: where, field } of all) {
    // The bare name too: "next is empty" asks for records never followed (review s36, 10).
    const way = PAIR_FIELD.exec(field)?.[1] as PairWay | undefined;
    if (!way || input[way] !== undefined) continue;
    throw new ValidationError(where, `${field} is a field of ${way}, which this call does not give.`, {
      hint: `Add ${way} with the activity type to pair, e.g. ${way} "${way === "next" ? "Fill Out Form" : "Send Email"}" (among the activityTypeIds read).`,
    });
  }
}

/** An answer's next_cursor given where a type or Marketo's own token goes (review s36, 7): refused first. */
export function checkCursorPlaces(input: MarketoApiCallInput): void {
  const token = input.query_parameters?.nextPageToken;
  for (const [field, value] of [
    ["next", input.next],
    ["query_parameters.nextPageToken", token],
  ] as const) {
    if (typeof value === "string" && value.startsWith(CURSOR_PREFIX)) {
      throw new ValidationError(field, "it holds an answer's next_cursor, which goes back as cursor.", {
        hint: "Give it as cursor, with the same method, endpoint and query_parameters as the call that answered it.",
      });
    }
  }
}
