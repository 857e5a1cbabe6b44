import { EndpointNotAllowedError, ValidationError } from "../../errors.js";
import { CheckedPath, checkPath, type EndpointRules } from "../endpoint-guard.js";
import type { ReservedQuery } from "../reserved-query.js";
import { alphaOnlyRefusal } from "./alpha-only.js";
import type { GoogleApi, GoogleRequest } from "./types.js";

/**
 * Both the Data API and the Admin API are addressed under v1beta (REAL-API B1); v1alpha only for the Data
 * API's runFunnelReport, which has no v1beta version
 * (https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1alpha/properties/runFunnelReport).
 */
export const GOOGLE_PATH_RULES: EndpointRules = Object.freeze({
  field: "endpoint",
  allowedPrefixes: ["/v1beta/", "/v1alpha/"],
  accepted: "a path such as v1beta/properties/123:runReport",
});

const AUTHENTICATED =
  "the connection supplies authentication: every call carries the connected account's OAuth token in an Authorization header.";

/**
 * Query parameters that would authenticate a call in place of the connected account: Google APIs take
 * an OAuth token as `access_token` (https://developers.google.com/identity/protocols/oauth2#4.-send-the-access-token-to-an-api.)
 * and an API key as `key` or `$key` (system parameters, https://cloud.google.com/apis/docs/system-parameters).
 */
export const RESERVED_QUERY: ReservedQuery = new Map([
  ["access_token", AUTHENTICATED],
  ["key", `key is Google's API key parameter, and ${AUTHENTICATED}`],
  ["$key", `$key is Google's API key parameter, and ${AUTHENTICATED}`],
]);

const ABSOLUTE = /^[a-z][a-z0-9+.-]*:/i;

/**
 * Accepts "v1beta/..." as the spec writes paths, and "/v1beta/...". A leading "/" is added only to a
 * relative path: "//host" and absolute URLs reach the guard unchanged so it refuses them as such.
 * A path the guard accepted already is not checked again.
 */
export function checkGooglePath(raw: unknown): CheckedPath {
  if (CheckedPath.is(raw, GOOGLE_PATH_RULES)) return raw;
  const path =
    typeof raw === "string" && raw !== "" && !raw.startsWith("/") && !ABSOLUTE.test(raw) ? `/${raw}` : raw;
  const checked = checkPath(path, GOOGLE_PATH_RULES);
  if (AUDIENCES_PATH.test(checked.value)) {
    throw new EndpointNotAllowedError(GOOGLE_PATH_RULES.field, AUDIENCES_REFUSAL, {
      details: { accepted: GOOGLE_PATH_RULES.accepted },
    });
  }
  const alphaOnly = alphaOnlyRefusal(checked.value);
  if (alphaOnly) {
    throw new EndpointNotAllowedError(GOOGLE_PATH_RULES.field, alphaOnly, {
      details: { accepted: GOOGLE_PATH_RULES.accepted },
    });
  }
  if (checked.value.startsWith("/v1alpha/") && !FUNNEL_PATH.test(checked.value)) {
    throw new EndpointNotAllowedError(
      GOOGLE_PATH_RULES.field,
      "v1alpha serves only v1alpha/properties/{id}:runFunnelReport here: call the other methods under " +
        "v1beta; a method Google has only in v1alpha cannot be called with these tools. " +
        `Accepted: ${GOOGLE_PATH_RULES.accepted}.`,
      { details: { accepted: GOOGLE_PATH_RULES.accepted } },
    );
  }
  return checked;
}

const FUNNEL_PATH = /^\/v1alpha\/properties\/[^/:]+:runFunnelReport$/;

/**
 * Audiences are an Admin API v1alpha resource only (properties.audiences:
 * https://developers.google.com/analytics/devguides/config/admin/v1/rest/v1alpha/properties.audiences;
 * the Admin API v1beta discovery document, /work/shared/spec/real-api/google-analytics/analyticsadmin.v1beta.json,
 * has no audiences), and these tools send v1alpha only to the Data API's runFunnelReport: said plainly, in
 * either version, rather than a 404 whose nearest path is another resource (agent trial s4, T18). The Data
 * API's audienceExports are another path and stay callable.
 */
const AUDIENCES_PATH = /^\/v1(?:alpha|beta)\/properties\/[^/:]+\/audiences(?:[/:]|$)/;
const AUDIENCES_REFUSAL =
  "Audiences cannot be created, read or changed with these tools: they are in the Admin API v1alpha " +
  "(properties.audiences), which is not called here, and v1beta has none. Create the audience in Google " +
  "Analytics (Admin > Data display > Audiences > New audience). To size it first, run " +
  'google_analytics_run_reports with a funnel of its events, e.g. funnel {"steps":["add_to_cart","purchase"]}: ' +
  "the users who left after the first step are those who did it and not the second.";

const DATA_METHOD =
  /:(runReport|runRealtimeReport|runPivotReport|batchRunReports|batchRunPivotReports|checkCompatibility|runFunnelReport)$/;
const DATA_RESOURCE = /(\/metadata$|\/audienceExports(\/|:|$))/;

/** Which API serves a (checked) path: the Data API's methods and resources, else the Admin API. */
export function apiForPath(path: string): GoogleApi {
  return DATA_METHOD.test(path) || DATA_RESOURCE.test(path) ? "data" : "admin";
}

/** The numeric property id a path addresses, if any. */
export function propertyOf(path: string): string | undefined {
  return /^\/v1(?:beta|alpha)\/properties\/(\d+)(?=[/:]|$)/.exec(path)?.[1];
}

/** Accepts "123" or "properties/123" (the tool steps' form) and returns "123". */
export function checkPropertyId(raw: unknown): string {
  const match = typeof raw === "string" ? /^(?:properties\/)?(\d{1,20})$/.exec(raw.trim()) : null;
  if (!match?.[1]) {
    throw new ValidationError(
      "propertyId",
      'a GA4 property ID is numeric, given as "123456789" or "properties/123456789".',
    );
  }
  return match[1];
}

export const REPORT_METHOD = /:(runReport|runRealtimeReport|runPivotReport|runFunnelReport)$/;
export const BATCH_REPORT_METHOD = /:(batchRunReports|batchRunPivotReports)$/;

/** POST methods that only read (reports, compatibility checks, access reports, audience export queries). */
const READ_ONLY_POST =
  /:(runReport|runRealtimeReport|runPivotReport|runFunnelReport|batchRunReports|batchRunPivotReports|checkCompatibility|runAccessReport|searchChangeHistoryEvents|query)$/;

/**
 * Whether a request may be sent again after a 5xx or a lost connection. GET only reads and PATCH
 * carries an updateMask with the full new values, so a replay lands on the same state. A POST that
 * creates (properties, keyEvents, dataStreams...) could create a duplicate, and a replayed DELETE
 * could answer 404 for a deletion that happened: neither is ever replayed. Google's Admin client
 * retries CreateProperty on UNKNOWN and can create two properties; we do not copy that.
 */
export function isReplaySafe(method: GoogleRequest["method"], path: string): boolean {
  if (method === "GET" || method === "PATCH") return true;
  return method === "POST" && READ_ONLY_POST.test(path);
}

/** The GA4 role a refused call needs, for the 403 message (analytics.md "Required access levels"). */
export function requiredRole(api: GoogleApi, method: GoogleRequest["method"], path: string): string {
  if (api === "data") return "the Viewer role on the property (reading reports needs Viewer)";
  if (method === "GET") return "at least the Viewer role on the property or account";
  if (
    /^\/v1beta\/properties$/.test(path) ||
    (method === "DELETE" && /^\/v1beta\/properties\/\d+$/.test(path))
  ) {
    return "the Administrator role on the Google Analytics account (creating or deleting properties needs Administrator)";
  }
  if (path.startsWith("/v1beta/accounts")) return "the Administrator role on the Google Analytics account";
  return "the Editor role on the property (key events, data streams and property settings need Editor)";
}
