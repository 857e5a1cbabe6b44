/**
 * The documented shapes of the answers the steps read. Every field of a GA answer is optional
 * (REAL-API B2), but an answer is still a JSON object, and some fields are what the answer is for: an
 * answer without them is Google's (or a proxy's) fault, reported as such, never read as an empty
 * report, a property without metrics (which would blame the caller's field names), or a success.
 * Data API: https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/RunReportResponse,
 * https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/Metadata;
 * Admin API: https://developers.google.com/analytics/devguides/config/admin/v1/rest/v1beta/properties#Property.
 */
import { UpstreamError } from "../../errors.js";

/** Why `body` does not have the shape, or undefined when it has. */
export type ShapeCheck = (body: unknown) => string | undefined;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** An object whose `lists` fields, when present, are arrays. */
function objectWithLists(lists: readonly string[]): ShapeCheck {
  return (body) => {
    if (!isObject(body)) return `it is ${describe(body)}, not an object`;
    for (const key of lists) {
      if (body[key] !== undefined && !Array.isArray(body[key]))
        return `its ${key} is ${describe(body[key])}, not a list`;
    }
    return undefined;
  };
}

export const REPORT: ShapeCheck = objectWithLists(["dimensionHeaders", "metricHeaders", "rows", "totals"]);
const METADATA_LISTS = objectWithLists(["dimensions", "metrics"]);
/** Metadata names itself ("properties/123/metadata") or lists dimensions or metrics: `{}` is neither. */
export const METADATA: ShapeCheck = (body) => {
  const problem = METADATA_LISTS(body);
  if (problem !== undefined || !isObject(body)) return problem;
  const named = typeof body.name === "string" && body.name.endsWith("/metadata");
  return named || body.dimensions !== undefined || body.metrics !== undefined
    ? undefined
    : "it has neither a metadata name nor dimensions or metrics";
};
export const COMPATIBILITY: ShapeCheck = objectWithLists([
  "dimensionCompatibilities",
  "metricCompatibilities",
]);
export const OBJECT: ShapeCheck = objectWithLists([]);

/** A created resource: an object whose `name` is the new resource's ("properties/123", ".../keyEvents/456"). */
export function createdResource(name: RegExp): ShapeCheck {
  return (body) => {
    if (!isObject(body)) return `it is ${describe(body)}, not an object`;
    if (typeof body.name !== "string" || !name.test(body.name)) return "it names no created resource";
    return undefined;
  };
}

/**
 * `body` when it has the documented shape, else an UpstreamError saying the answer did not have it.
 * `hint` says what the caller should do (after a create: look before creating again).
 */
export function documented<T>(body: unknown, what: string, check: ShapeCheck, hint?: string): T {
  const problem = check(body);
  if (problem === undefined) return body as T;
  throw new UpstreamError(
    `Google Analytics answered ${what} with a body that does not have the documented shape (${problem}).`,
    {
      hint:
        hint ??
        "Retry later; if it persists, check GA4_DATA_API_URL / GA4_ADMIN_API_URL point at Google's APIs.",
      details: { shape: problem },
    },
  );
}
