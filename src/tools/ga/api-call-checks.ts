import { ValidationError } from "../../errors.js";
import type { GoogleApiCallFields } from "../../schemas/google-analytics-admin.js";

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
