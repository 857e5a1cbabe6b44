/**
 * One GET endpoint read once per id (issue 27): Marketo gives a program's costs only from Get Program by Id
 * (GET /rest/asset/v1/program/{id}.json) and its members only per program (GET
 * /rest/v1/leads/programs/{programId}.json), so ranking 30 programs took 30 calls of a model's turn. An
 * endpoint holding one `{name}` placeholder is read for each value of `query_parameters[name]` (a list of
 * ids). This module checks the request before anything is sent; fan-out-read.ts reads and joins.
 */
import { MARKETO_REAL_PATHS } from "../../connectors/marketo/real-paths.js";
import { ValidationError } from "../../errors.js";
import type { MarketoApiCallInput } from "../../schemas/marketo.js";

/** The most ids one call reads: 200 calls is two of Marketo's 20-second windows (100 calls each). */
export const MAX_FAN_OUT_IDS = 200;

/** A placeholder in an endpoint: {id}, {programId}. */
const PLACEHOLDER = /\{([A-Za-z][A-Za-z0-9_]*)\}/g;
/** An id as a path segment may hold it: no "/", "." or "%" can reach the path. */
const TOKEN = /^[A-Za-z0-9_-]+$/;

type Ids = string | number;

/** A checked fan-out: the endpoint with its placeholder, the name, the ids (distinct, in the order given). */
export interface FanOut {
  template: string;
  name: string;
  ids: Ids[];
  /** The query parameters sent with each read: all but the list. */
  query: NonNullable<MarketoApiCallInput["query_parameters"]>;
}

const EXAMPLE =
  'endpoint /rest/asset/v1/program/{id}.json with query_parameters {"id":[1001,1002]}, or ' +
  '/rest/v1/leads/programs/{programId}.json with {"programId":[1001,1002]}';

/** The path parameters of the real endpoint a concrete path belongs to ({id} of /rest/asset/v1/program/{id}.json). */
function pathParameters(path: string): { template: string; names: string[] } | undefined {
  const real = MARKETO_REAL_PATHS.find(path);
  if (!real) return undefined;
  return {
    template: real.template,
    names: [...real.template.matchAll(PLACEHOLDER)].map((m) => m[1] as string),
  };
}

/** A list given for a path parameter at an endpoint without its placeholder: say where the placeholder goes. */
function refuseListWithoutPlaceholder(input: MarketoApiCallInput, path: string): void {
  const real = pathParameters(path);
  if (!real) return;
  const name = Object.keys(input.query_parameters ?? {}).find(
    (key) => real.names.includes(key) && Array.isArray(input.query_parameters?.[key]),
  );
  if (name === undefined) return;
  throw new ValidationError(
    "endpoint",
    `${name} is a path parameter of ${real.template}, not a query parameter: to read each id of query_parameters.${name}, put {${name}} in the endpoint.`,
    { hint: `Send endpoint ${real.template} with query_parameters.${name} as the list of ids.` },
  );
}

/** The list's values as ids: positive integers or plain tokens, at most MAX_FAN_OUT_IDS. */
function idsOf(name: string, value: unknown): Ids[] {
  const field = `query_parameters.${name}`;
  // "1001,1002" as query_parameters' description says arrays go (review s33: it was refused as one id).
  const values = Array.isArray(value)
    ? value
    : typeof value === "string" && value.includes(",")
      ? value.split(",").map((id) => (/^\s*\d+\s*$/.test(id) ? Number(id) : id.trim()))
      : [value];
  if (values.length === 0) {
    throw new ValidationError(field, "the list is empty: give the ids to read, e.g. [1001,1002].");
  }
  if (values.length > MAX_FAN_OUT_IDS) {
    throw new ValidationError(
      field,
      `${values.length} ids is more than the ${MAX_FAN_OUT_IDS} one call reads.`,
      {
        hint: `Split the ids into calls of at most ${MAX_FAN_OUT_IDS}, or read a list endpoint (e.g. GET /rest/asset/v1/programs.json) with where.`,
      },
    );
  }
  values.forEach((id, index) => {
    const ok =
      (typeof id === "number" && Number.isSafeInteger(id) && id > 0) ||
      (typeof id === "string" && TOKEN.test(id));
    if (!ok) {
      throw new ValidationError(
        `${field}[${index}]`,
        `${JSON.stringify(id)} is not an id: give positive integers or plain ids (letters, digits, - and _ only).`,
      );
    }
  });
  // Once each, 1005 and "1005" alike: read twice, an id's records would be counted and summed twice.
  const seen = new Set<string>();
  return (values as Ids[]).filter((id) => !seen.has(String(id)) && seen.add(String(id)) !== undefined);
}

/** The fan-out an input asks for, checked, or undefined for a plain call. */
export function fanOutOf(input: MarketoApiCallInput, path: string): FanOut | undefined {
  const names = [...path.matchAll(PLACEHOLDER)].map((m) => m[1] as string);
  if (names.length === 0) {
    if (input.method === "GET") refuseListWithoutPlaceholder(input, path);
    return undefined;
  }
  const [name] = names as [string];
  if (names.length > 1) {
    throw new ValidationError("endpoint", `it holds ${names.length} placeholders; one call fills one.`, {
      hint: `Put the other ids in the path itself, e.g. ${EXAMPLE}.`,
    });
  }
  if (input.method !== "GET") {
    throw new ValidationError(
      "method",
      `an endpoint with {${name}} is read once per id: GET only, not ${input.method}.`,
      {
        hint: "Write to one id at a time, with the id in the endpoint.",
      },
    );
  }
  const value = input.query_parameters?.[name];
  if (value === undefined) {
    throw new ValidationError(
      "query_parameters",
      `the endpoint holds {${name}}: give query_parameters.${name} the list of ids to read.`,
      { hint: `E.g. ${EXAMPLE}; or put one id in the endpoint itself.` },
    );
  }
  const ids = idsOf(name, value);
  const query = { ...input.query_parameters };
  delete query[name];
  return { template: path, name, ids, query };
}

/** The endpoint for one id: the placeholder filled (the guard checks the result again). */
export function endpointFor(fan: FanOut, id: Ids): string {
  return fan.template.replace(`{${fan.name}}`, String(id));
}

/** fanOutOf, and what a fan-out does not combine with: a cursor (it has none to give) and a file read. */
export function checkFanOut(input: MarketoApiCallInput, path: string, file: boolean): FanOut | undefined {
  const fan = fanOutOf(input, path);
  if (!fan) return undefined;
  if (file) {
    throw new ValidationError("endpoint", "a file is read one at a time: put its id in the endpoint.");
  }
  if (input.cursor !== undefined) {
    throw new ValidationError(
      "cursor",
      `a read of several ids gives no cursor: leave cursor out, or read one id with it in the endpoint.`,
    );
  }
  return fan;
}
