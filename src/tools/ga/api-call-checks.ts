import { ValidationError } from "../../errors.js";
import type { GoogleApiCallFields } from "../../schemas/google-analytics.js";
import { capItems, jsonSize, MAX_RESULT_BYTES } from "../output-cap.js";

const pathOf = (endpoint: string) => endpoint.replace(/^\//, "").split("?")[0] ?? "";
const hasParameter = (fields: GoogleApiCallFields, name: string) =>
  fields.query_parameters?.[name] !== undefined || new RegExp(`[?&]${name}=`).test(fields.endpoint);

/**
 * Refuses requests Google is known to reject, before they are sent (REAL-API B7): a body on GET/DELETE,
 * a PATCH without updateMask (required, snake_case), and listing properties without the required filter.
 */
export function checkApiCall(fields: GoogleApiCallFields): void {
  if (fields.body !== undefined && (fields.method === "GET" || fields.method === "DELETE")) {
    throw new ValidationError("body", `a ${fields.method} request carries no body.`, {
      hint: "Move the values into query_parameters, or use POST (create, run a report) or PATCH (update).",
    });
  }
  if (fields.method === "PATCH" && !hasParameter(fields, "updateMask")) {
    throw new ValidationError(
      "query_parameters.updateMask",
      "the Admin API requires updateMask on every PATCH.",
      {
        hint: 'Name the fields to change in snake_case, e.g. query_parameters {"updateMask":"display_name,time_zone"}.',
      },
    );
  }
  if (
    fields.method === "GET" &&
    pathOf(fields.endpoint) === "v1beta/properties" &&
    !hasParameter(fields, "filter")
  ) {
    throw new ValidationError("query_parameters.filter", "listing properties requires a filter.", {
      hint: 'Pass e.g. {"filter":"parent:accounts/123"} (or ancestor:accounts/123), or GET v1beta/accountSummaries.',
    });
  }
}

/** Notes worth knowing about what a call did. */
export function callNotes(fields: GoogleApiCallFields): string[] {
  if (fields.method === "DELETE" && /^v1beta\/properties\/\d+$/.test(pathOf(fields.endpoint))) {
    return [
      "Deleting a property moves it to the trash (deleteTime/expireTime in the answer); it can only be restored " +
        "from the Google Analytics UI before it expires.",
    ];
  }
  return [];
}

/**
 * Keeps a response within the result budget: the largest top-level list is shortened to what fits (with
 * a warning saying how to page); a response that still does not fit is returned as a JSON text prefix.
 */
export function capBody(body: unknown, maxBytes = MAX_RESULT_BYTES): { body: unknown; warnings: string[] } {
  const size = jsonSize(body);
  if (size <= maxBytes) return { body, warnings: [] };
  const kb = Math.round(maxBytes / 1000);
  if (body !== null && typeof body === "object" && !Array.isArray(body)) {
    const record = body as Record<string, unknown>;
    const lists = Object.entries(record).filter((entry): entry is [string, unknown[]] =>
      Array.isArray(entry[1]),
    );
    const largest = lists.sort((a, b) => jsonSize(b[1]) - jsonSize(a[1]))[0];
    if (largest) {
      const [key, list] = largest;
      const rest = jsonSize({ ...record, [key]: [] });
      const { items: kept } = capItems(list, maxBytes - rest);
      if (kept.length > 0 || rest < maxBytes) {
        return {
          body: { ...record, [key]: kept },
          warnings: [
            `Output capped at ${kb} KB: ${kept.length} of ${list.length} ${key} shown. Ask for fewer items ` +
              "(pageSize, limit) and page with pageToken or offset.",
          ],
        };
      }
    }
  }
  const text = JSON.stringify(body);
  return {
    body: text.slice(0, maxBytes - 2_000),
    warnings: [
      `Output capped at ${kb} KB: the response (${Math.round(size / 1000)} KB) is cut off as JSON text.`,
    ],
  };
}
