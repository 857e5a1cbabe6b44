/**
 * `lead_fields`: each activity or program member read gets `lead`, the fields named of the lead it belongs to, so
 * that where, count_by, per and sum answer questions of activities by the people behind them (opens by lead
 * source, bounces by email domain, members' success by country) in one call. Activities and program members carry
 * only a leadId (Get Lead Activities, Get Program Members in Adobe's swagger-mapi.json), and agents read whole
 * results back to join them to the leads by hand (trials s21 N263, s26 N345, s29 N409 and N415).
 *
 * The leads are read with Get Leads by Filter Type, filterType id, at most 300 filterValues a call
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/leads#query),
 * through the connector: on the read's limits, quota and deadline, each lead once however many records it has.
 */

import { checkMarketoPath } from "../../connectors/marketo/url.js";
import { UpstreamError, ValidationError } from "../../errors.js";
import type { MarketoApiCallInput } from "../../schemas/marketo.js";
import { type Expression, expressionFields } from "../filter/ast.js";
import { n, plural } from "../numbers-in-words.js";
import type { ComputeSpec } from "../records/compute.js";
import type { NamedField } from "../records/fields.js";
import { isJoinedPath } from "../records/fields.js";
import { itemWise, recordTest } from "../records/match.js";
import { perNamed } from "../records/per.js";
import { alikeFirst } from "../records/similar-names.js";
import { textOf } from "../records/values.js";
import { PAIR_FIELD } from "./activity-previous.js";
import { ACTIVITY_EXPORT_CREATE } from "./activity-types.js";
import type { NameReader } from "./id-names.js";

const LEADS = "/rest/v1/leads.json";
const DESCRIBE = "/rest/v1/leads/describe.json";
/** filterValues a call of Get Leads by Filter Type takes. */
export const LEADS_A_CALL = 300;

/** The reads whose records hold a leadId, by GET: activities, a lead's changes, a program's members. */
const GET_READS = [
  /^\/rest\/v1\/activities\.json$/,
  /^\/rest\/v1\/activities\/leadchanges\.json$/,
  /^\/rest\/v1\/programs\/(\d+|\{[^}]+\})\/members\.json$/,
];

const TAKES =
  "a GET read of /rest/v1/activities.json, /rest/v1/activities/leadchanges.json or " +
  `/rest/v1/programs/{programId}/members.json, or an activity export (POST ${ACTIVITY_EXPORT_CREATE}) run to completion`;

/** The fields asked for, as given (the read adds none). */
export const leadFieldNames = (value: string): string[] => [
  ...new Set(
    value
      .split(",")
      .map((name) => name.trim())
      .filter(Boolean),
  ),
];

/** The reads of leads themselves (REST, a list's or a program's, or a lead export): they have the fields already. */
const LEAD_READS =
  /^\/rest\/v1\/(leads\.json|lead\/\d+\.json|lists?\/\d+\/leads\.json|leads\/programs\/[^/]+\.json)$|^\/bulk\/v1\/leads\/export\//;

/** Whether lead_fields joins the records of this call. */
function joins(input: MarketoApiCallInput, path: string, file: boolean): boolean {
  if (input.method === "POST" && path === ACTIVITY_EXPORT_CREATE) return input.run_to_completion;
  return input.method === "GET" && !file && !input.run_to_completion && GET_READS.some((r) => r.test(path));
}

/** Refuses lead_fields, before anything is sent, on a call whose records hold no leadId to join on. */
export function checkLeadFields(input: MarketoApiCallInput, path: string, file: boolean): void {
  if (input.lead_fields === undefined) return;
  if (leadFieldNames(input.lead_fields).length === 0) {
    throw new ValidationError("lead_fields", "it names no field.", {
      hint: 'Name lead fields, comma-separated, e.g. lead_fields "country,leadSource".',
    });
  }
  if (joins(input, path, file)) {
    checkExportFields(input, path);
    return;
  }
  throw new ValidationError(
    "lead_fields",
    `it joins each record to its lead by leadId on ${TAKES}, not ${input.method} ${path}${input.run_to_completion ? " run to completion" : ""}.`,
    { hint: refusalHint(input, path, file) },
  );
}

/** What to do instead, for the call refused (review s33, 9). */
function refusalHint(input: MarketoApiCallInput, path: string, file: boolean): string {
  if (path === ACTIVITY_EXPORT_CREATE)
    return "Send the same call with run_to_completion true: its rows are joined then.";
  if (file) {
    return "Run the export with POST /bulk/v1/activities/export/create.json, run_to_completion true and lead_fields (a kept run of the same body is reused).";
  }
  if ((input.method === "GET" || input.run_to_completion) && LEAD_READS.test(path)) {
    return 'These records are leads themselves: name the fields in query_parameters.fields (a REST read) or body.fields (an export), e.g. "id,email,country".';
  }
  return 'E.g. method GET, endpoint /rest/v1/activities.json, query_parameters {"sinceDatetime":"2026-11-01","activityTypeIds":"Open Email"}, paginate true, lead_fields "leadSource", count_by "lead.leadSource".';
}

/** An activity export whose body.fields leaves leadId out has nothing to join on (review s33, 4). */
function checkExportFields(input: MarketoApiCallInput, path: string): void {
  const fields = input.body?.fields;
  if (path !== ACTIVITY_EXPORT_CREATE || !Array.isArray(fields)) return;
  if (fields.some((field) => String(field) === "leadId")) return;
  throw new ValidationError(
    "lead_fields",
    "it joins each row to its lead by leadId, and body.fields leaves leadId out.",
    {
      hint: `Add "leadId" to body.fields, e.g. ${JSON.stringify(["leadId", ...fields.map(String)])}.`,
    },
  );
}

/**
 * A lead.<field> in where, count_by, count_distinct, sum, order_by or per that lead_fields does not name is refused
 * before anything is read, naming lead_fields (review s33, 7: the refusal came after a whole read, pointing at leadId).
 */
export function checkLeadPaths(
  input: MarketoApiCallInput,
  path: string,
  file: boolean,
  named: readonly NamedField[],
): void {
  if (!joins({ ...input, lead_fields: input.lead_fields ?? "" }, path, file)) return;
  // As given: each field is kept under the name lead_fields gives it (review s34, 3: Country and lead.country).
  const names = leadFieldNames(input.lead_fields ?? "");
  const given = new Set(names);
  const all = [...named, ...perNamed(input.per)];
  for (const { input: where, field } of all) {
    // A bucket or band of it ("lead.leadScore:25") reads the field itself (review s39, 5).
    const wanted = /^lead\.([^.]+?)(?::(?:[A-Za-z]+|\d+(?:\.\d+)?))?$|^lead\.([^.]+)\./
      .exec(field)
      ?.slice(1)
      .find(Boolean);
    if (!wanted || given.has(wanted)) continue;
    const asGiven = names.find((name) => name.toLowerCase() === wanted.toLowerCase());
    const now = input.lead_fields === undefined ? "" : `${names.join(",")},`;
    throw new ValidationError(
      where,
      `${field} reads the field ${wanted} of each record's lead, which lead_fields ${input.lead_fields === undefined ? "is needed to join" : asGiven ? `names ${asGiven} (the lead's fields are kept under the names given)` : "does not name"}.`,
      { hint: asGiven ? `Write lead.${asGiven}.` : `Add it: lead_fields "${now}${wanted}".` },
    );
  }
}

type Row = Record<string, unknown>;

/** Joins records to their leads' fields as they are read, each lead read once. */
export class LeadJoin {
  readonly fields: string[];
  readonly #reader: NameReader;
  /** The fields of each lead read; null for a lead Marketo answered without (deleted, or not visible). */
  readonly #leads = new Map<string, Row | null>();
  /** Request ids of the lead calls, for the answer's request_ids. */
  readonly requestIds: string[] = [];
  calls = 0;
  #missing = 0;
  /** Records joined whose lead was not found (lead null, with the empty values of a count). */
  #orphans = 0;
  /** Records not joined: a lead-free part of where drops them (join's `needs`). */
  #skipped = 0;

  constructor(value: string, reader: NameReader) {
    this.fields = leadFieldNames(value);
    this.#reader = reader;
  }

  /** Whether the lead's fields are read (or it was found missing). */
  has(id: string): boolean {
    return this.#leads.has(id);
  }

  /**
   * Adds `lead` to each record (null when its lead is not found), reading the leads not read before. `needs`:
   * only the records it passes are joined (those a lead-free part of where keeps: leadFreeTest); the others,
   * which where drops whatever their lead, cost no call and get a lead whose fields are not read (null), so that
   * where still knows the fields when no record passes (it refused lead.country as no record's field).
   */
  async join(all: readonly Row[], needs?: (record: Row) => boolean): Promise<void> {
    const records = needs ? all.filter(needs) : all;
    this.#skipped += all.length - records.length;
    if (records.length < all.length) {
      const unread = Object.fromEntries(this.fields.map((field) => [field, null]));
      for (const record of all) if (!needs?.(record)) record.lead = { ...unread };
    }
    const fresh = [
      ...new Set(records.map(leadIdOf).filter((id) => id !== undefined && !this.#leads.has(id))),
    ];
    for (let i = 0; i < fresh.length; i += LEADS_A_CALL) {
      await this.read(fresh.slice(i, i + LEADS_A_CALL) as string[]);
    }
    this.attach(records);
  }

  /** Adds `lead` to each record from the leads read (all of them read before). */
  attach(records: readonly Row[]): void {
    for (const record of records) {
      const id = leadIdOf(record);
      const lead = id === undefined ? null : (this.#leads.get(id) ?? null);
      if (lead === null) this.#orphans += 1;
      record.lead = lead;
    }
  }

  /**
   * Checks the fields before a long run (an export's job, a grouped read, a read per id): one call for one id, which
   * Marketo answers with 1006 when a field is not a lead field; its answer is not kept (the call is counted).
   */
  async check(): Promise<void> {
    if (this.#leads.size === 0) await this.read(["1"], false);
  }

  /** Reads the fields of up to 300 leads. */
  async read(ids: readonly string[], counted = true): Promise<void> {
    const { marketo, signal, onWait } = this.#reader;
    let answer: Awaited<ReturnType<typeof marketo.call>>;
    try {
      answer = await marketo.call({
        method: "GET",
        path: checkMarketoPath(LEADS),
        query: {
          filterType: "id",
          filterValues: ids.join(","),
          fields: ["id", ...this.fields].join(","),
          batchSize: String(LEADS_A_CALL),
        },
        ...(signal ? { signal } : {}),
        onWait,
      });
    } catch (error) {
      if (error instanceof UpstreamError && error.serviceCode === "1006")
        throw await this.#unknownField(error);
      throw error;
    }
    this.calls += answer.callsUsed;
    this.requestIds.push(...answer.requestIds);
    if (!counted) return;
    for (const item of answer.result) {
      const lead = (item ?? {}) as Row;
      if (lead.id === undefined || lead.id === null) continue;
      this.#leads.set(textOf(lead.id), this.#own(lead));
    }
    for (const id of ids) {
      if (this.#leads.has(id)) continue;
      this.#leads.set(id, null);
      this.#missing += 1;
    }
  }

  /**
   * The fields asked for, under the names given: Marketo takes a field's name in any case and answers under its own
   * (Country → country), so each is found ignoring case (review s33, 1: "Country" joined null on every record).
   */
  #own(lead: Row): Row {
    const keys = new Map(Object.keys(lead).map((key) => [key.toLowerCase(), key]));
    return Object.fromEntries(
      this.fields.map((field) => [field, lead[keys.get(field.toLowerCase()) ?? field] ?? null]),
    );
  }
  /** Marketo's 1006 (a field it has not) as a refusal of lead_fields, with the nearest lead field names. */
  async #unknownField(error: UpstreamError): Promise<ValidationError> {
    const unknown = /Field '([^']+)'/.exec(error.message)?.[1];
    const { marketo, signal } = this.#reader;
    let names: string[] = [];
    try {
      const page = await marketo.request({ method: "GET", path: DESCRIBE, ...(signal ? { signal } : {}) });
      names = page.result.flatMap((f) => {
        const rest = (f as { rest?: { name?: unknown } } | undefined)?.rest?.name;
        return typeof rest === "string" ? [rest] : [];
      });
    } catch {
      // The refusal stands without the names: its hint says where they are listed.
    }
    const nearest = unknown ? alikeFirst(unknown, names).slice(0, 5) : [];
    return new ValidationError(
      "lead_fields",
      `Marketo has no lead field ${unknown ? `"${unknown}"` : "of those named"} (its error 1006).`,
      {
        hint:
          (nearest.length > 0 ? `The nearest lead fields: ${nearest.join(", ")}. ` : "") +
          `GET ${DESCRIBE} lists them all (result[].rest.name).`,
        cause: error,
      },
    );
  }

  /** The summary's words: which fields, of how many leads, from where, and the leads not found. */
  words(): string {
    const found = this.#leads.size - this.#missing;
    const missing =
      this.#missing > 0
        ? `; ${plural(this.#missing, "lead")} not found (deleted, or not visible to this API user): ` +
          `${plural(this.#orphans, "record")} of ${this.#missing === 1 ? "it" : "them"} ${this.#orphans === 1 ? "has" : "have"} lead null, ` +
          "with the empty values of a count (where 'lead is empty' finds them)"
        : "";
    return (
      `each record's lead holds ${this.fields.join(", ")} as they are now (not at the record's date) of ` +
      `${plural(found, "lead")} read with GET ${LEADS} ` +
      `(${n(this.calls)} call${this.calls === 1 ? "" : "s"}, at most ${LEADS_A_CALL} leads a call, counted in calls_used)${missing}` +
      (this.#skipped > 0
        ? `; the ${plural(this.#skipped, "record")} where drops by its other conditions are not joined (no lead read for them)`
        : "")
    );
  }
}

/** The record's leadId as text (activity export rows hold it as text), or undefined. */
function leadIdOf(record: Row): string | undefined {
  const id = record.leadId;
  if (id === undefined || id === null || id === "") return undefined;
  return textOf(id);
}

/**
 * The pages of a read with their records joined to their leads, a page held back until its leads are read, and
 * leads read 300 a call as the pages bring them (activity pages hold a few dozen records in the sandbox and up to
 * 300 in Marketo, often of the same leads). The first page's leads are read at once, so that a field Marketo has
 * not is refused before the rest of the read; `eager` (limit in read order, which may stop after a page) joins each
 * page as it comes. `ahead` holds the calls of every page read, also of pages held when the reader stops early.
 */
export async function* joinedPages<P extends { result: unknown[]; callsUsed: number }>(
  pages: AsyncIterable<P>,
  leads: LeadJoin,
  o: { ahead: { calls: number }; eager: boolean },
): AsyncGenerator<P, void, undefined> {
  const held: P[] = [];
  const fresh = new Set<string>();
  const known = (page: P) => page.result.filter(isRow).every((row) => !fresh.has(leadIdOf(row) ?? ""));
  let first = true;
  for await (const page of pages) {
    o.ahead.calls = page.callsUsed;
    held.push(page);
    for (const row of page.result.filter(isRow)) {
      const id = leadIdOf(row);
      if (id !== undefined && !leads.has(id)) fresh.add(id);
    }
    while (fresh.size >= LEADS_A_CALL || ((first || o.eager) && fresh.size > 0)) {
      const batch = [...fresh].slice(0, LEADS_A_CALL);
      await leads.read(batch);
      for (const id of batch) fresh.delete(id);
    }
    first = false;
    while (held[0] && known(held[0])) {
      const ready = held.shift() as P;
      leads.attach(ready.result.filter(isRow));
      yield ready;
    }
  }
  await leads.join(held.flatMap((page) => page.result.filter(isRow)));
  yield* held;
}

const isRow = (item: unknown): item is Row =>
  typeof item === "object" && item !== null && !Array.isArray(item);

/** The join of a read, or undefined without lead_fields. */
export const leadJoin = (input: MarketoApiCallInput, reader: NameReader): LeadJoin | undefined =>
  input.lead_fields === undefined ? undefined : new LeadJoin(input.lead_fields, reader);

/**
 * The parts of where a record can be tested on before its lead is joined: the conditions of its top-level "and"
 * that read no field the step adds (lead, previous, next). A record one of them fails is dropped by where
 * whatever its lead holds, so its lead is not read. Undefined when no such part exists.
 */
export function leadFreeTest(spec: ComputeSpec | undefined): ((record: Row) => boolean) | undefined {
  const where = spec?.where?.expression;
  if (!where) return undefined;
  const parts = (where.kind === "and" ? where.of : [where]).filter((part) =>
    expressionFields(part).every((field) => !added(field)),
  );
  if (parts.length === 0) return undefined;
  const expression: Expression = parts.length === 1 ? (parts[0] as Expression) : { kind: "and", of: parts };
  return itemWise(recordTest(expression, spec?.zone), expressionFields(expression));
}

/** A field the step adds to a record: its lead, what previous and next add, and join's row. */
const added = (field: string): boolean =>
  field === "lead" || field.startsWith("lead.") || isJoinedPath(field) || PAIR_FIELD.test(field);
