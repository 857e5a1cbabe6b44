import { ValidationError } from "../../errors.js";
import { checkPath } from "../endpoint-guard.js";
import { ignoredQueryWarning } from "./real-paths.js";
import type { CheckedRequest, QueryValue } from "./types.js";
import { checkMarketoQuery, ENDPOINT_RULES } from "./url.js";

/**
 * Activity reads page with date tokens: a token for a start date comes from pagingtoken.json, and
 * activities.json / leadchanges.json / deletedleads.json REQUIRE nextPageToken
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/activities).
 */
export const PAGING_TOKEN_PATH = "/rest/v1/activities/pagingtoken.json";
/** The connector's own paths, checked once when the module loads (not per call). */
export const PAGING_TOKEN = checkPath(PAGING_TOKEN_PATH, ENDPOINT_RULES);
const ACTIVITIES = checkPath("/rest/v1/activities.json", ENDPOINT_RULES);
const SEEDED_PATHS = new Set([
  "/rest/v1/activities.json",
  "/rest/v1/activities/leadchanges.json",
  "/rest/v1/activities/deletedleads.json",
]);

/**
 * Seed-only paths that do not exist on Marketo (absent from the REST reference; Marketo answers
 * 610), translated to the activities they stand for: 8 Email Bounced + 27 Email Bounced Soft, 10 Open Email.
 */
const TRANSLATED: Record<string, { activityTypeIds: string; what: string }> = {
  "/rest/v1/activities/emailbounced.json": { activityTypeIds: "8,27", what: "email bounces" },
  "/rest/v1/activities/emailopened.json": { activityTypeIds: "10", what: "email opens" },
};

const STATS_PATHS: { pattern: RegExp; instead: string }[] = [
  {
    pattern: /^\/rest\/asset\/v1\/program\/[^/]+\/stats\.json$/,
    instead:
      "for email performance read activities (GET /rest/v1/activities.json with activityTypeIds 6,7,8,9,10,11: " +
      "send, delivered, bounced, unsubscribed, opened, clicked) or start a bulk activity export (/bulk/v1/activities/export/create.json); " +
      "for API usage call /rest/v1/stats/usage.json",
  },
  {
    pattern: /^\/rest\/asset\/v1\/landingPage\/[^/]+\/stats\.json$/,
    instead:
      "for landing page visits read activities with activityTypeIds 1 (Visit Webpage) via /rest/v1/activities.json; " +
      "for API usage call /rest/v1/stats/usage.json",
  },
];

const DEFAULT_LOOKBACK_MS = 30 * 24 * 60 * 60 * 1000;

export interface PreparedRequest {
  req: CheckedRequest;
  translatedFrom?: string;
  warnings: string[];
  /** Set when a paging token must be fetched for this start date before the first page. */
  seedSince?: string;
}

function withoutKeys(
  query: Record<string, QueryValue | undefined>,
  keys: string[],
): Record<string, QueryValue | undefined> {
  const copy = { ...query };
  for (const key of keys) delete copy[key];
  return copy;
}

/** Refuses nonexistent stats paths, translates seed-only activity paths, and spots token seeding. */
export function prepareRequest(req: CheckedRequest, now: number): PreparedRequest {
  const path = req.path.value;
  // Checked here too: an activity read from a date fetches its paging token before the request is planned.
  checkMarketoQuery(req.query);
  for (const stats of STATS_PATHS) {
    if (stats.pattern.test(path)) {
      throw new ValidationError(
        "endpoint",
        `${path} does not exist on Marketo: there are no program or landing page statistics endpoints. Instead, ${stats.instead}.`,
      );
    }
  }
  const query = { ...(req.query ?? {}) };
  // The REST reference spells it sinceDatetime; the prose writes sinceDateTime. Accept both, and send the
  // reference's spelling to Get Paging Token, which refused the other as blank (review s21, finding 7).
  const since = query.sinceDatetime ?? query.sinceDateTime;
  if (path === PAGING_TOKEN_PATH && query.sinceDatetime === undefined && since !== undefined) {
    query.sinceDatetime = since;
    delete query.sinceDateTime;
  }
  const hasToken = query.nextPageToken !== undefined && query.nextPageToken !== "";
  const warnings: string[] = [];
  let translatedFrom: string | undefined;
  let target = req.path;

  const translation = TRANSLATED[path];
  if (translation && req.method === "GET") {
    translatedFrom = path;
    target = ACTIVITIES;
    query.activityTypeIds = translation.activityTypeIds;
    const sinceText =
      since === undefined && !hasToken ? new Date(now - DEFAULT_LOOKBACK_MS).toISOString() : since;
    if (sinceText !== undefined)
      query.sinceDatetime = typeof sinceText === "string" ? sinceText : String(sinceText);
    delete query.sinceDateTime;
    warnings.push(
      `${path} does not exist on Marketo; called ${target} with activityTypeIds=${translation.activityTypeIds} ` +
        `(${translation.what}) instead${since === undefined && !hasToken ? ", since 30 days ago" : ""}.`,
    );
  }

  const seeded = req.method === "GET" && SEEDED_PATHS.has(target.value);
  if (seeded && !hasToken) {
    const start = query.sinceDatetime ?? query.sinceDateTime;
    if (start === undefined) {
      throw new ValidationError(
        "query_parameters.sinceDatetime",
        `${target} needs a start: give sinceDatetime (ISO 8601, e.g. 2024-01-31T00:00:00Z) or a nextPageToken from an earlier call.`,
      );
    }
    const sent = withoutKeys(query, ["sinceDatetime", "sinceDateTime"]);
    const ignored = ignoredQueryWarning(target.value, sent);
    if (ignored) warnings.push(ignored);
    return {
      req: { ...req, path: target, query: sent },
      ...(translatedFrom ? { translatedFrom } : {}),
      warnings,
      seedSince: Array.isArray(start) ? start.join(",") : String(start),
    };
  }
  // With a token, the token alone positions the read; a start date beside it would be ignored or refused.
  const finalQuery = seeded ? withoutKeys(query, ["sinceDatetime", "sinceDateTime"]) : query;
  if (req.method === "GET") {
    const ignored = ignoredQueryWarning(target.value, finalQuery);
    if (ignored) warnings.push(ignored);
  }
  return {
    req: { ...req, path: target, query: finalQuery },
    ...(translatedFrom ? { translatedFrom } : {}),
    warnings,
  };
}
