/**
 * Marketo refuses a filterType that is not a searchable lead field with 1003 "Invalid filterType" on Get Leads
 * by Filter Type (GET /rest/v1/leads.json). The searchable fields are Describe Lead2's searchableFields
 * (GET /rest/v1/leads/describe2.json,
 * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/leads#describe):
 * the refusal names those like the name given (records/similar-names.ts) and lists the others, so the next call
 * needs no describe of its own.
 * They change rarely, so they are kept per connection for 10 minutes, as the activity types are.
 */
import type { MarketoConnector } from "../../connectors/marketo/connector.js";
import { LEAD_FILTER_TYPE_HINT } from "../../connectors/marketo/service-codes.js";
import { UpstreamError, withoutHint } from "../../errors.js";
import type { MarketoApiCallInput } from "../../schemas/marketo.js";
import { alikeFirst } from "../records/similar-names.js";

const KEPT_MS = 10 * 60_000;
const kept = new WeakMap<MarketoConnector, { at: number; fields: string[] }>();
const SHOWN = 15;

async function searchableFields(
  marketo: MarketoConnector,
  signal: AbortSignal | undefined,
): Promise<string[]> {
  const entry = kept.get(marketo);
  if (entry && Date.now() - entry.at < KEPT_MS) return entry.fields;
  const page = await marketo.request({
    method: "GET",
    path: "/rest/v1/leads/describe2.json",
    ...(signal ? { signal } : {}),
  });
  const described = page.result[0] as { searchableFields?: unknown } | undefined;
  const groups = Array.isArray(described?.searchableFields) ? described.searchableFields : [];
  // Each entry is a key of one field or several (a compound key); a filterType names one field.
  const fields = [...new Set(groups.flatMap((group) => (Array.isArray(group) ? group.map(String) : [])))];
  kept.set(marketo, { at: Date.now(), fields });
  return fields;
}

/**
 * The same error with the searchable fields in its hint when it is an invalid filterType on leads.json;
 * else the error unchanged. A failed describe leaves the error as it was.
 */
export async function withSearchableFields(
  error: unknown,
  marketo: MarketoConnector,
  input: MarketoApiCallInput,
  signal: AbortSignal | undefined,
): Promise<unknown> {
  const filterType = input.query_parameters?.filterType;
  const invalid =
    error instanceof UpstreamError &&
    error.serviceCode === "1003" &&
    /invalid filterType/i.test(error.message) &&
    input.method === "GET" &&
    input.endpoint === "/rest/v1/leads.json";
  if (!invalid) return error;
  let fields: string[];
  try {
    fields = await searchableFields(marketo, signal);
  } catch {
    return error;
  }
  if (fields.length === 0) return error;
  const asked = String(filterType ?? "");
  const alike = alikeFirst(asked, fields);
  const others = fields.filter((field) => !alike.includes(field));
  const shown = others.slice(0, SHOWN).join(", ");
  const more = others.length > SHOWN ? ` and ${others.length - SHOWN} more` : "";
  const fieldWords =
    alike.length > 0
      ? `The searchable lead fields named like "${asked}", nearest first: ${alike.join(", ")}; the others: ${shown || "none"}${more}.`
      : `No searchable lead field is named like "${asked}"; the searchable lead fields are: ${shown}${more}.`;
  return new UpstreamError(withoutHint(error), {
    hint: `${fieldWords} ${LEAD_FILTER_TYPE_HINT}`,
    serviceCode: "1003",
    ...(error.status !== undefined ? { status: error.status } : {}),
    details: error.details,
    cause: error,
  });
}
