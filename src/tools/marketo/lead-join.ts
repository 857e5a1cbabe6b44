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
import { n, plural } from "../numbers-in-words.js";
import { alikeFirst } from "../records/similar-names.js";
import { textOf } from "../records/values.js";
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

/** Refuses lead_fields, before anything is sent, on a call whose records hold no leadId to join on. */
export function checkLeadFields(input: MarketoApiCallInput, file: boolean): void {
  if (input.lead_fields === undefined) return;
  if (leadFieldNames(input.lead_fields).length === 0) {
    throw new ValidationError("lead_fields", "it names no field.", {
      hint: 'Name lead fields, comma-separated, e.g. lead_fields "country,leadSource".',
    });
  }
  const path = input.endpoint.split("?")[0] ?? "";
  const export_ = input.method === "POST" && path === ACTIVITY_EXPORT_CREATE && input.run_to_completion;
  const read =
    input.method === "GET" && !file && !input.run_to_completion && GET_READS.some((r) => r.test(path));
  if (export_ || read) return;
  // A read of leads (REST or export) has the fields itself; a write has no records to join.
  const reads = input.method === "GET" || input.run_to_completion;
  const leads = reads && /\/leads(\.json|\/)|\/lead\/|\/leads\/export\//.test(path);
  throw new ValidationError(
    "lead_fields",
    `it joins each record to its lead by leadId on ${TAKES}, not ${input.method} ${path}${input.run_to_completion ? " run to completion" : ""}.`,
    {
      hint: leads
        ? 'These records are leads themselves: name the fields in query_parameters.fields (a REST read) or body.fields (an export), e.g. "id,email,country".'
        : 'E.g. method GET, endpoint /rest/v1/activities.json, query_parameters {"sinceDatetime":"2026-11-01","activityTypeIds":"Open Email"}, paginate true, lead_fields "leadSource", count_by "lead.leadSource".',
    },
  );
}

type Row = Record<string, unknown>;

/** Joins records to their leads' fields as they are read, each lead read once. */
export class LeadJoin {
  readonly fields: string[];
  readonly #reader: NameReader;
  /** The fields of each lead read; null for a lead Marketo answered without (deleted, or not visible). */
  readonly #leads = new Map<string, Row | null>();
  calls = 0;
  #missing = 0;

  constructor(value: string, reader: NameReader) {
    this.fields = leadFieldNames(value);
    this.#reader = reader;
  }

  /** Whether the lead's fields are read (or it was found missing). */
  has(id: string): boolean {
    return this.#leads.has(id);
  }

  /** Adds `lead` to each record (null when its lead is not found), reading the leads not read before. */
  async join(records: readonly Row[]): Promise<void> {
    const ids = [...new Set(records.map((r) => leadIdOf(r)).filter((id) => id !== undefined))];
    const fresh = ids.filter((id) => !this.#leads.has(id));
    for (let i = 0; i < fresh.length; i += LEADS_A_CALL) await this.#read(fresh.slice(i, i + LEADS_A_CALL));
    for (const record of records) {
      const id = leadIdOf(record);
      record.lead = id === undefined ? null : (this.#leads.get(id) ?? null);
    }
  }

  async #read(ids: readonly string[]): Promise<void> {
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
    for (const item of answer.result) {
      const lead = (item ?? {}) as Row;
      if (lead.id === undefined || lead.id === null) continue;
      this.#leads.set(textOf(lead.id), Object.fromEntries(this.fields.map((f) => [f, lead[f] ?? null])));
    }
    for (const id of ids) {
      if (this.#leads.has(id)) continue;
      this.#leads.set(id, null);
      this.#missing += 1;
    }
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
    const read = this.#leads.size;
    const missing =
      this.#missing > 0
        ? `; ${plural(this.#missing, "lead")} not found (deleted, or not visible to this API user): lead null`
        : "";
    return (
      `each record's lead holds ${this.fields.join(", ")} of ${plural(read, "lead")} read with GET ${LEADS} ` +
      `(${n(this.calls)} call${this.calls === 1 ? "" : "s"}, ${LEADS_A_CALL} leads a call, counted in calls_used)${missing}`
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
 * The pages of a read with their records joined to their leads, held back until 300 leads are new (or the read
 * ends), so that a lead call reads a full batch: activity pages hold a few dozen records in the sandbox and up
 * to 300 in Marketo, often of the same leads. `ahead` holds the calls of every page read, also of pages held
 * when the reader stops early.
 */
export async function* joinedPages<P extends { result: unknown[]; callsUsed: number }>(
  pages: AsyncIterable<P>,
  leads: LeadJoin,
  ahead: { calls: number },
): AsyncGenerator<P, void, undefined> {
  let held: P[] = [];
  const fresh = new Set<string>();
  const rows = () => held.flatMap((page) => page.result.filter(isRow));
  for await (const page of pages) {
    ahead.calls = page.callsUsed;
    held.push(page);
    for (const row of page.result.filter(isRow)) {
      const id = leadIdOf(row);
      if (id !== undefined && !leads.has(id)) fresh.add(id);
    }
    if (fresh.size < LEADS_A_CALL) continue;
    await leads.join(rows());
    yield* held;
    held = [];
    fresh.clear();
  }
  if (held.length === 0) return;
  await leads.join(rows());
  yield* held;
}

const isRow = (item: unknown): item is Row =>
  typeof item === "object" && item !== null && !Array.isArray(item);

/** The join of a read, or undefined without lead_fields. */
export const leadJoin = (input: MarketoApiCallInput, reader: NameReader): LeadJoin | undefined =>
  input.lead_fields === undefined ? undefined : new LeadJoin(input.lead_fields, reader);
