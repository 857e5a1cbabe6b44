import { randomUUID } from "node:crypto";
import { ConfigurationError, ValidationError } from "../../errors.js";
import { CheckedPath, checkPath, type EndpointRules, joinEndpoint } from "../endpoint-guard.js";
import { checkReservedQuery, type ReservedQuery } from "../reserved-query.js";
import { checkWellFormed } from "../well-formed.js";
import type { CheckedRequest, MarketoRequest, MarketoUpload, QueryValue } from "./types.js";

export const ENDPOINT_RULES: EndpointRules = {
  field: "endpoint",
  allowedPrefixes: ["/rest/", "/bulk/"],
  accepted:
    "a path beginning with /rest/ (Lead DB /rest/v1/..., Asset /rest/asset/v1/...) or /bulk/, e.g. /rest/v1/leads.json",
};

/** Marketo answers HTTP 414 above 8 KB of URI (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/rest-api#limits). */
export const MAX_URI_CHARS = 8 * 1024;

/**
 * Query parameters the connector sets itself. `_method` is what Marketo runs a POST as (its long-URI
 * workaround, https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/leads#query):
 * a caller's `_method=DELETE` before our `_method=GET` would run a write the connector treats as a read
 * (replayed after a 5xx, reported as changing nothing). `access_token` would authenticate in place of
 * the connection's header token; Marketo is removing it from the query (REAL-API A2,
 * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/authentication) and answers
 * 601, which would discard the shared token and blame the credentials.
 */
export const RESERVED_QUERY: ReservedQuery = new Map([
  [
    "_method",
    "the connector sets _method itself. Choose the HTTP method with the method field (GET, POST or DELETE); a GET whose URI is over Marketo's 8 KB limit is sent as a POST with _method=GET automatically.",
  ],
  [
    "access_token",
    "the connection supplies authentication: every call carries its access token in an Authorization header (Marketo is retiring access_token in the query).",
  ],
]);

/** A caller's endpoint as a checked path: checked now, unless the guard accepted it already. */
export function checkMarketoPath(raw: unknown): CheckedPath {
  return CheckedPath.is(raw, ENDPOINT_RULES) ? raw : checkPath(raw, ENDPOINT_RULES);
}

/** Refuses the query parameters of RESERVED_QUERY (any case), before anything is sent. */
export function checkMarketoQuery(query: MarketoRequest["query"]): void {
  checkReservedQuery(query, RESERVED_QUERY);
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * The instance origin from the REST endpoint that Marketo's Admin > Web Services page shows
 * ("https://123-ABC-456.mktorest.com/rest"). The trailing "/rest" is stripped because the
 * identity endpoint sits beside it and joining "/rest/..." to ".../rest" would emit "//rest" or
 * "/rest/rest" (Marketo deprecates double slashes in gateway URLs).
 */
export function parseRestEndpoint(raw: string): URL {
  const refuse = (why: string): never => {
    throw new ConfigurationError(`The Marketo REST endpoint ${why}.`, {
      hint: "Copy the REST API Endpoint from Marketo Admin > Integration > Web Services, e.g. https://123-ABC-456.mktorest.com/rest.",
      details: { field: "restEndpoint" },
    });
  };
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return refuse("is not a valid URL");
  }
  if (url.username || url.password) return refuse("must not contain a user name or password");
  if (url.search || url.hash) return refuse("must not contain a query string or fragment");
  const loopback = LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) {
    return refuse(
      `must use https (http is accepted only for a local sandbox on 127.0.0.1), host ${url.host}`,
    );
  }
  const path = url.pathname
    .replace(/\/+$/, "")
    .replace(/\/rest$/i, "")
    .replace(/\/+$/, "");
  if (path !== "")
    return refuse(`must be the instance host, optionally followed by /rest (got path on ${url.host})`);
  return new URL(url.origin);
}

function encodeValue(value: QueryValue): string {
  const text = Array.isArray(value) ? value.map(String).join(",") : String(value);
  // Commas stay literal: Marketo lists (filterValues, fields, id, activityTypeIds) are comma-separated.
  return encodeURIComponent(text).replace(/%2C/gi, ",");
}

/** Encodes a query; arrays become comma-separated values, undefined entries are left out. */
export function encodeQuery(query: Record<string, QueryValue | undefined> | undefined): string {
  if (!query) return "";
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    pairs.push(`${encodeURIComponent(key)}=${encodeValue(value)}`);
  }
  return pairs.join("&");
}

function formEncodeBody(body: unknown): string {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new ValidationError(
      "body",
      "an Asset API POST takes a flat object of form fields (Marketo's Asset API is form-urlencoded).",
    );
  }
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue;
    // Object-valued fields (folder, tags, ...) travel as JSON text, as Marketo's Asset API expects.
    const text = typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);
    pairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(text)}`);
  }
  return pairs.join("&");
}

/**
 * A bulk import's body: multipart/form-data (RFC 7578) with the file as its one `file` part, as
 * Adobe's bulk import docs show it
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-import/bulk-lead-import#creating-a-job).
 * The boundary is random and checked against the content, so the file can never end the body early.
 */
function multipartBody(
  req: CheckedRequest,
  url: URL,
  query: string,
  headers: Record<string, string>,
): { body: string } {
  const file = req.file as MarketoUpload;
  if (req.method !== "POST" || req.body !== undefined) {
    throw new ValidationError(
      "file",
      "a file is sent alone, with POST: give its parameters in query_parameters.",
    );
  }
  url.search = query;
  const quote = (text: string) => text.replace(/["\r\n]/g, "_");
  let boundary: string;
  do boundary = `----martech-steps-${randomUUID()}`;
  while (file.content.includes(boundary));
  headers["Content-Type"] = `multipart/form-data; boundary=${boundary}`;
  const body =
    `--${boundary}\r\n` +
    `Content-Disposition: form-data; name="file"; filename="${quote(file.name)}"\r\n` +
    `Content-Type: ${quote(file.contentType)}\r\n\r\n` +
    `${file.content}\r\n--${boundary}--\r\n`;
  return { body };
}

/** One HTTP exchange ready to send (without the Authorization header, added per attempt). */
export interface HttpPlan {
  /** The method the caller meant: decides whether a replay is safe. */
  logicalMethod: MarketoRequest["method"];
  method: "GET" | "POST" | "DELETE";
  url: URL;
  headers: Record<string, string>;
  body: string | undefined;
  /** The checked path, for logs and errors (never carries a token). */
  path: string;
  /** A bulk export file download: the answer is file content (CSV), not a Marketo envelope. */
  file?: boolean;
}

const FORM = "application/x-www-form-urlencoded";

export function planRequest(origin: URL, req: CheckedRequest): HttpPlan {
  if (req.method !== "GET" && req.method !== "POST" && req.method !== "DELETE") {
    throw new ValidationError(
      "method",
      `"${String(req.method)}" is not supported. Accepted: GET, POST or DELETE.`,
    );
  }
  const path = req.path.value;
  checkWellFormed(req.query, "query_parameters");
  checkMarketoQuery(req.query);
  checkWellFormed(req.body, "body");
  const url = joinEndpoint(origin, req.path, ENDPOINT_RULES);
  const query = encodeQuery(req.query);
  const headers: Record<string, string> = { Accept: "application/json" };
  const plan = { logicalMethod: req.method, url, headers, path };
  if (req.file !== undefined)
    return { ...plan, method: req.method, ...multipartBody(req, url, query, headers) };

  if (req.method === "GET") {
    if (req.body !== undefined) {
      throw new ValidationError("body", "a GET request has no body. Pass its parameters in query.");
    }
    if (url.pathname.length + 1 + query.length > MAX_URI_CHARS) {
      // Marketo's documented workaround for long URIs: POST the query as a form body with _method=GET
      // (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/leads#query).
      headers["Content-Type"] = FORM;
      return { ...plan, method: "POST", body: `${query}&_method=GET` };
    }
    url.search = query;
    return { ...plan, method: "GET", body: undefined };
  }

  url.search = query;
  if (url.pathname.length + url.search.length > MAX_URI_CHARS) {
    throw new ValidationError(
      "query",
      `the URI is over Marketo's 8 KB limit (HTTP 414). Move the values into the request body (e.g. {"input":[...]}).`,
    );
  }
  if (req.body === undefined) return { ...plan, method: req.method, body: undefined };
  if (req.method === "POST" && path.startsWith("/rest/asset/")) {
    headers["Content-Type"] = FORM;
    return { ...plan, method: req.method, body: formEncodeBody(req.body) };
  }
  // Lead DB POSTs must be JSON; anything else gets 612 "Invalid Content Type".
  headers["Content-Type"] = "application/json";
  return { ...plan, method: req.method, body: JSON.stringify(req.body) };
}
