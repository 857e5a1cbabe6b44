/**
 * Marketo's Lead Database reads return only the fields named in `fields`, a few standard ones when it is
 * left out (id, email, firstName, lastName, updatedAt, createdAt: "fields: Comma-separated list of field
 * names to return ... If omitted, the following default fields will be returned",
 * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/leads#query).
 * So where/order_by/count_by on a field the call did not ask for finds no record with it: the refusal says to
 * add it to query_parameters.fields, with the call's fields and it (agent trial on new tasks, N07).
 */
import { withoutHint as messageWithoutHint, ValidationError } from "../../errors.js";
import type { MarketoApiCallInput } from "../../schemas/marketo.js";

/** The reads that take `fields`: leads by filter or id, a list's members, a program's members. */
const FIELDS_READS = [
  /^\/rest\/v1\/leads\.json$/,
  /^\/rest\/v1\/lists?\/\d+\/leads\.json$/,
  /^\/rest\/v1\/lead\/\d+\.json$/,
  /^\/rest\/v1\/leads\/programs\/\d+\.json$/,
  /^\/rest\/v1\/programs\/\d+\/members\.json$/,
];

function givenFields(value: unknown): string[] {
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list
    .flatMap((item) => String(item).split(","))
    .map((part) => part.trim())
    .filter(Boolean);
}

/** The refusal of a field no record read has, with "add it to query_parameters.fields" on such a read; else the error. */
export function withLeadFieldsAdvice(error: unknown, input: MarketoApiCallInput): unknown {
  if (!(error instanceof ValidationError) || input.method !== "GET" || input.run_to_completion) return error;
  const missing = error.details.unknown_field;
  // A spaced bucket ("leadScore: 25") is no field to add to fields: its refusal offers the bucket (review s41, 11).
  if (typeof missing !== "string" || missing.includes(".") || /:\s/.test(missing)) return error;
  if (!FIELDS_READS.some((read) => read.test(input.endpoint))) return error;
  const given = givenFields(input.query_parameters?.fields);
  if (given.includes(missing)) return error;
  const pathId = pathIdAdvice(missing, input.endpoint);
  if (pathId)
    return new ValidationError(error.field, withoutHint(error), {
      hint: pathId,
      details: error.details,
      cause: error,
    });
  const fields = [...(given.length > 0 ? given : ["id", "email"]), missing].join(",");
  const now = given.length > 0 ? `here ${given.join(", ")}` : "a few standard ones when none are given";
  const message = withoutHint(error);
  // The names the records have stay first: a misspelt name (emial) is fixed by them, not by fields.
  return new ValidationError(error.field, message, {
    hint:
      `${error.hint ?? ""} If ${missing} is a field this read did not ask for: it returns only those named in ` +
      `query_parameters.fields (${now}), so add ${missing} to them, e.g. query_parameters {"fields":"${fields}"}.`,
    details: error.details,
    cause: error,
  });
}

/** The error's own message, without its "Invalid field: " head and its hint. */
function withoutHint(error: ValidationError): string {
  const prefix = `Invalid ${error.field}: `;
  const own = messageWithoutHint(error);
  return own.startsWith(prefix) ? own.slice(prefix.length) : own;
}

/** The reads of one program's or list's members whose id is in the path, and the form that reads several. */
const ONE_OF = [
  {
    tag: "programId",
    one: /^\/rest\/v1\/leads\/programs\/(\d+)\.json$/,
    many: "/rest/v1/leads/programs/{programId}.json",
  },
  {
    tag: "listId",
    one: /^\/rest\/v1\/lists?\/(\d+)\/leads\.json$/,
    many: "/rest/v1/lists/{listId}/leads.json",
  },
];

/**
 * programId on a read of one program's members is no lead field: the path names the program, and the per-id form
 * tags each record with it (fan-out-read.ts). "Add programId to fields" sent the agent the wrong way (trial s24,
 * N315).
 */
function pathIdAdvice(missing: string, endpoint: string): string | undefined {
  const read = ONE_OF.find((candidate) => candidate.tag === missing && candidate.one.test(endpoint));
  const id = read?.one.exec(endpoint)?.[1];
  if (!read || !id) return undefined;
  return (
    `${missing} is not a field of these records: all of them are of ${id}, the id in the path. To count by it over ` +
    `several, read ${read.many} with query_parameters {"${missing}":[${id}, …]}: each record then carries its ${missing}.`
  );
}
