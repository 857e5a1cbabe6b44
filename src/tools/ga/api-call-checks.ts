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

/**
 * The request with updateMask's names in snake_case, as the Admin API requires them (REAL-API B7: "Field names
 * must be in snake case", e.g. https://developers.google.com/analytics/devguides/config/admin/v1/rest/v1beta/properties/patch):
 * the resource's own JSON names are camelCase, and agents wrote `currencyCode` and met Google's refusal, a call
 * lost (trial s23, N295). Says what it changed.
 */
export function snakeCaseMask<F extends GoogleApiCallFields>(fields: F): { fields: F; note?: string } {
  const given = fields.query_parameters?.updateMask;
  // A list of names too, which the schema takes (review s27, finding 11).
  const mask = Array.isArray(given) ? given.join(",") : given;
  if (fields.method !== "PATCH" || typeof mask !== "string") return { fields };
  // A list is sent as one comma-separated mask: as repeated parameters only the first was read, and the other
  // fields silently kept their values (review s28, finding 4).
  if (!/[A-Z]/.test(mask))
    return Array.isArray(given)
      ? { fields: { ...fields, query_parameters: { ...fields.query_parameters, updateMask: mask } } }
      : { fields };
  const snake = mask
    .split(",")
    .map((name) => name.trim().replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`))
    .join(",");
  return {
    fields: { ...fields, query_parameters: { ...fields.query_parameters, updateMask: snake } },
    note: `updateMask "${mask}" was sent as "${snake}": the Admin API names the fields to change in snake_case.`,
  };
}

/** A mask's names, each as Google reads it (snake_case). */
const maskNames = (fields: GoogleApiCallFields) => {
  const mask = fields.query_parameters?.updateMask;
  return String(Array.isArray(mask) ? mask.join(",") : (mask ?? ""))
    .split(",")
    .map((name) => name.trim());
};

/** Notes worth knowing about what a call did. */
export function callNotes(fields: GoogleApiCallFields): string[] {
  const property = /^v1beta\/properties\/\d+$/.test(pathOf(fields.endpoint));
  if (fields.method === "DELETE" && property) {
    return [
      "Deleting a property moves it to the trash (deleteTime/expireTime in the answer); it can only be restored " +
        "from the Google Analytics UI before it expires.",
    ];
  }
  // A "*" mask changes every field the body gives (review s27, finding 11).
  const currency =
    maskNames(fields).includes("currency_code") ||
    (maskNames(fields).includes("*") &&
      typeof fields.body === "object" &&
      fields.body !== null &&
      "currencyCode" in fields.body);
  if (fields.method === "PATCH" && property && currency) {
    // Google's Currency reference: a change of the property's currency "will affect future and historical
    // data, and previous data will be converted" (https://support.google.com/analytics/answer/9796179; the agent
    // of trial s23, N295, told the marketer the opposite).
    return [
      "A change of the property's currency converts its revenue in reports, the past included, into the new " +
        "currency: reports before and after the change are in the same one (Google's Currency reference, " +
        "https://support.google.com/analytics/answer/9796179).",
    ];
  }
  return [];
}
