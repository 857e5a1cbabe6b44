import { googleFailure, marketoFailure } from "./fakes.js";
import { echo, type Handler, type Reply, type Seen } from "./server.js";

/** One failure (or echoing success) path: handlers put in front of the fakes' defaults, and a tool call. */
export interface Scenario {
  name: string;
  marketo?: Handler[];
  google?: Handler[];
  tool: string;
  input: Record<string, unknown>;
}

const IDENTITY = "/identity/oauth/token";
const on =
  (test: (seen: Seen) => boolean, reply: (seen: Seen) => Reply): Handler =>
  (seen) =>
    test(seen) ? reply(seen) : undefined;
const identity = (reply: (seen: Seen) => Reply) => on((s) => s.path === IDENTITY, reply);
const api = (reply: (seen: Seen) => Reply) => on((s) => s.path.startsWith("/rest/"), reply);
const html = (status: number) => (seen: Seen) => ({
  status,
  headers: { "content-type": "text/html" },
  text: `<html><body><h1>${status}</h1><pre>${echo(seen)}</pre></body></html>`,
});

const leads = {
  method: "GET",
  endpoint: "/rest/v1/leads.json",
  query_parameters: { filterType: "id", filterValues: "1" },
};
const trigger = {
  method: "POST",
  endpoint: "/rest/v1/campaigns/1001/trigger.json",
  body: { input: { leads: [{ id: 1 }] } },
};

/**
 * Marketo's failure paths, each echoing the request (the Authorization header, the token form body)
 * in several encodings. The identity failures come first, while no token is cached.
 */
export const MARKETO_SCENARIOS: Scenario[] = [
  {
    name: "identity 401 invalid_client echoing the form",
    marketo: [
      identity((s) => ({ status: 401, json: { error: "invalid_client", error_description: echo(s) } })),
    ],
    tool: "marketo_api_call",
    input: leads,
  },
  {
    name: "identity 401 with the echo in the error code",
    marketo: [identity((s) => ({ status: 401, json: { error: echo(s) } }))],
    tool: "marketo_api_call",
    input: leads,
  },
  {
    name: "identity 500 echoing the form (HTML)",
    marketo: [identity(html(500))],
    tool: "marketo_api_call",
    input: leads,
  },
  {
    name: "identity 503 JSON echo",
    marketo: [
      identity((s) => ({ status: 503, json: { error: "server_error", error_description: echo(s) } })),
    ],
    tool: "marketo_api_call",
    input: leads,
  },
  { name: "API HTTP 401 echo", marketo: [api(html(401))], tool: "marketo_api_call", input: leads },
  {
    name: "API HTTP 403 JSON echo",
    marketo: [api((s) => ({ status: 403, json: { message: echo(s) } }))],
    tool: "marketo_api_call",
    input: leads,
  },
  { name: "API 503 HTML echo on a GET", marketo: [api(html(503))], tool: "marketo_api_call", input: leads },
  {
    name: "API 502 HTML echo on a trigger",
    marketo: [api(html(502))],
    tool: "marketo_api_call",
    input: trigger,
  },
  ...["601", "602", "603", "604", "606", "611", "615", "1003", "610"].map(
    (code): Scenario => ({
      name: `envelope ${code} echoing the token`,
      marketo: [api((s) => marketoFailure(code, s))],
      tool: "marketo_api_call",
      input: code === "606" || code === "615" ? trigger : leads,
    }),
  ),
  {
    name: "record-level 1003 echoing the token",
    marketo: [
      api((s) => ({
        json: {
          requestId: "r#1",
          success: true,
          result: [{ status: "skipped", reasons: [{ code: "1003", message: echo(s) }] }],
        },
      })),
    ],
    tool: "marketo_api_call",
    input: { method: "POST", endpoint: "/rest/v1/leads.json", body: { input: [{ email: "a@example.com" }] } },
  },
  {
    name: "success body echoing the token in result, warnings, extra fields and keys",
    marketo: [
      api((s) => ({
        json: {
          requestId: "r#2",
          success: true,
          result: [{ id: 1, note: echo(s), [s.headers.authorization ?? "k"]: 1 }],
          warnings: [echo(s)],
          echoed: { request: echo(s) },
        },
      })),
    ],
    tool: "marketo_api_call",
    input: leads,
  },
  {
    name: "200 that is no envelope, echo in the body and the content type",
    marketo: [
      api((s) => ({
        status: 200,
        headers: { "content-type": `text/html; x=${encodeURIComponent(s.headers.authorization ?? "")}` },
        text: echo(s),
      })),
    ],
    tool: "marketo_api_call",
    input: leads,
  },
];

const GA_GET = { method: "GET", endpoint: "v1beta/accountSummaries" };
const GA_CREATE = {
  method: "POST",
  endpoint: "v1beta/properties",
  body: { parent: "accounts/1", displayName: "x", timeZone: "Europe/Paris" },
};
const gaApi = (reply: (seen: Seen) => Reply) =>
  on((s) => s.path.startsWith("/data/") || s.path.startsWith("/admin/"), reply);
const oauthToken = (reply: (seen: Seen) => Reply) => on((s) => s.path === "/oauth/token", reply);

/** Google's failure paths; every answer echoes the request (the bearer token, the refresh form). */
export const GOOGLE_SCENARIOS: Scenario[] = [
  {
    name: "GA 401 echo twice",
    google: [gaApi((s) => googleFailure(401, "UNAUTHENTICATED", s))],
    tool: "google_analytics_api_call",
    input: GA_GET,
  },
  {
    name: "GA 403 echo",
    google: [gaApi((s) => googleFailure(403, "PERMISSION_DENIED", s))],
    tool: "google_analytics_api_call",
    input: GA_GET,
  },
  {
    name: "GA 400 echo",
    google: [gaApi((s) => googleFailure(400, "INVALID_ARGUMENT", s))],
    tool: "google_analytics_api_call",
    input: GA_GET,
  },
  {
    name: "GA 500 HTML echo on a GET",
    google: [gaApi(html(500))],
    tool: "google_analytics_api_call",
    input: GA_GET,
  },
  {
    name: "GA 503 echo on a create",
    google: [gaApi((s) => googleFailure(503, "UNAVAILABLE", s))],
    tool: "google_analytics_api_call",
    input: GA_CREATE,
  },
  {
    name: "GA 429 echo",
    google: [gaApi((s) => googleFailure(429, "RESOURCE_EXHAUSTED", s))],
    tool: "google_analytics_api_call",
    input: GA_GET,
  },
  {
    name: "GA success body echoing the token",
    google: [gaApi((s) => ({ json: { echoed: echo(s), [s.headers.authorization ?? "k"]: [echo(s)] } }))],
    tool: "google_analytics_api_call",
    input: GA_GET,
  },
  {
    name: "401, then invalid_grant echoing the refresh form",
    google: [
      gaApi((s) => googleFailure(401, "UNAUTHENTICATED", s)),
      oauthToken((s) => ({ status: 400, json: { error: "invalid_grant", error_description: echo(s) } })),
    ],
    tool: "google_analytics_api_call",
    input: GA_GET,
  },
  {
    name: "401, then invalid_client echoing the refresh form",
    google: [
      gaApi((s) => googleFailure(401, "UNAUTHENTICATED", s)),
      oauthToken((s) => ({ status: 401, json: { error: "invalid_client", error_description: echo(s) } })),
    ],
    tool: "google_analytics_api_call",
    input: GA_GET,
  },
  {
    name: "401, then token endpoint 500 echoing the form",
    google: [gaApi((s) => googleFailure(401, "UNAUTHENTICATED", s)), oauthToken(html(500))],
    tool: "google_analytics_api_call",
    input: GA_GET,
  },
  {
    name: "Run Reports 403 echo",
    google: [gaApi((s) => googleFailure(403, "PERMISSION_DENIED", s))],
    tool: "google_analytics_run_reports",
    input: { property: "123", metrics: ["sessions"], dimensions: ["country"] },
  },
];

/** Token endpoint answers for `accounts import` before the one that succeeds. */
export const IMPORT_FAILURES: { name: string; handler: Handler }[] = [
  {
    name: "import: invalid_grant echo",
    handler: oauthToken((s) => ({
      status: 400,
      json: { error: "invalid_grant", error_description: echo(s) },
    })),
  },
  {
    name: "import: invalid_client echo",
    handler: oauthToken((s) => ({
      status: 401,
      json: { error: "invalid_client", error_description: echo(s) },
    })),
  },
  { name: "import: token endpoint 500 echo", handler: oauthToken(html(500)) },
];

/** `marketo configure` against identity answers that echo the form. */
export const CONFIGURE_FAILURES: { name: string; handler: Handler }[] = [
  {
    name: "configure: invalid_client echo",
    handler: identity((s) => ({
      status: 401,
      json: { error: "invalid_client", error_description: echo(s) },
    })),
  },
  { name: "configure: identity 500 echo", handler: identity(html(500)) },
];
