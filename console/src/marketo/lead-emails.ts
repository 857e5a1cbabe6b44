/**
 * Leads typed as a person knows them (trial C07/C08: "lead196@example.com is not a lead ID"): email
 * addresses or lead IDs, one a line or separated by commas. The emails are looked up with Get Leads by
 * filterType email (comma-separated filterValues, "up to 300":
 * https://developer.adobe.com/marketo-apis/api/mapi/#tag/Leads/operation/getLeadsByFilterUsingGET), one
 * read per 300 emails, all of them (a longer list is never cut), and replaced by the ids found; the leads read are kept by id, so the confirm and the result name them
 * without reading them again; an email no lead has is said, not sent. A form keeps its reads by the
 * emails asked (`Lookups`): its REST call preview and its Run ask once for the same emails.
 */
import { type ErrorInfo, runStep } from "../api.ts";

export type Lead = Record<string, unknown>;

export interface LeadsTyped {
  /** The leads as ids, for the task's own check ("7, 3"). */
  ids: string;
  /** The leads read, by id (those typed as emails). */
  leads: Map<string, Lead>;
  /** The emails no lead has, as typed. */
  unknown: string[];
}

/** Get Leads by Filter Type takes up to 300 values (see above). */
const FILTER_VALUES_MAX = 300;
const LEAD_FIELDS = "id,email,firstName,lastName";

export const typedLeads = (text: string) => text.split(/[\s,;]+/).filter(Boolean);
const isEmail = (part: string) => part.includes("@");

/** A form's reads of leads by email, by the emails asked (sorted, lower case). */
export type Lookups = Map<string, Promise<Lead[]>>;

/** Consecutive parts of at most 300 values: one Get Leads by Filter Type read each. */
export function filterValueParts<T>(values: readonly T[]): T[][] {
  const parts: T[][] = [];
  for (let at = 0; at < values.length; at += FILTER_VALUES_MAX)
    parts.push(values.slice(at, at + FILTER_VALUES_MAX));
  return parts;
}

/** The leads' ids for what was typed: emails looked up (one read per 300 emails), ids kept. */
export async function leadsFromEmails(
  step: string,
  text: string,
  signal: AbortSignal,
  lookups: Lookups = new Map(),
): Promise<LeadsTyped> {
  const parts = typedLeads(text);
  const emails = [...new Set(parts.filter(isEmail).map((email) => email.toLowerCase()))].sort();
  const leads = new Map<string, Lead>();
  if (emails.length === 0) return { ids: parts.join(", "), leads, unknown: [] };
  const key = emails.join(",");
  let read = lookups.get(key);
  if (!read) {
    read = readByEmail(step, emails, signal);
    lookups.set(key, read);
    read.catch(() => lookups.delete(key));
  }
  const byEmail = new Map<string, string>();
  for (const lead of await read) {
    leads.set(String(lead.id), lead);
    // Two leads may share an email (Marketo allows duplicates): the first one read stands for it.
    const email = typeof lead.email === "string" ? lead.email.toLowerCase() : "";
    if (email && !byEmail.has(email)) byEmail.set(email, String(lead.id));
  }
  const unknown = parts.filter((part) => isEmail(part) && !byEmail.has(part.toLowerCase()));
  const ids = parts.flatMap((part) => {
    if (!isEmail(part)) return [part];
    const id = byEmail.get(part.toLowerCase());
    return id ? [id] : [];
  });
  return { ids: [...new Set(ids)].join(", "), leads, unknown };
}

/** Get Leads by email for all the emails: one read per 300, one after another (Marketo's rate window). */
async function readByEmail(step: string, emails: string[], signal: AbortSignal): Promise<Lead[]> {
  const leads: Lead[] = [];
  for (const part of filterValueParts(emails)) {
    const input = {
      method: "GET",
      endpoint: "/rest/v1/leads.json",
      query_parameters: { filterType: "email", filterValues: part.join(","), fields: LEAD_FIELDS },
    };
    for await (const event of runStep(step, input, signal)) {
      if (event.type === "error") throw new LeadLookupError(event.error);
      if (event.type === "result" && Array.isArray(event.data.result))
        leads.push(...(event.data.result as Lead[]));
    }
  }
  return leads;
}

/** The lookup itself failed (the connection, say): its error as the step gave it. */
export class LeadLookupError extends Error {
  readonly info: ErrorInfo;
  constructor(info: ErrorInfo) {
    super(info.message);
    this.info = info;
  }
}

/** "No lead has the email a@x.com" / "…the emails a@x.com and b@x.com". */
export function unknownEmails(unknown: readonly string[]): string {
  const list =
    unknown.length <= 1 ? (unknown[0] ?? "") : `${unknown.slice(0, -1).join(", ")} and ${unknown.at(-1)}`;
  return `No lead has the email${unknown.length === 1 ? "" : "s"} ${list}`;
}
