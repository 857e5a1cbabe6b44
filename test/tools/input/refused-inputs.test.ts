import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryCredentialStore } from "../../../src/auth/credential-store.js";
import { checkEndpoint } from "../../../src/connectors/endpoint-guard.js";
import { GOOGLE_PATH_RULES } from "../../../src/connectors/google/paths.js";
import { ENDPOINT_RULES } from "../../../src/connectors/marketo/url.js";
import { EndpointNotAllowedError, ValidationError } from "../../../src/errors.js";
import { MemoryState } from "../../../src/state/memory.js";
import { runToolStep } from "../../../src/tools/run.js";
import { Workspace } from "../../../src/workspace.js";
import { type Harness, startHarness } from "../../helpers/fake-services/harness.js";

const LONE = "\ud800";

/** Fakes and a workspace with the Google account "main" around the tests of the calling describe block. */
function withWorkspace(ready: (harness: Harness, workspace: Workspace) => void): void {
  let harness: Harness;
  let workspace: Workspace;
  beforeAll(async () => {
    harness = await startHarness();
    workspace = new Workspace({
      env: harness.env,
      store: new MemoryCredentialStore(),
      state: new MemoryState(),
    });
    await workspace.importAccount({ label: "main", refreshToken: harness.creds.google.refreshToken });
    ready(harness, workspace);
  });
  afterAll(async () => {
    await workspace.close();
    await harness.close();
  });
}

describe("a lone UTF-16 surrogate is a validation error naming the field; nothing is sent", () => {
  let harness: Harness;
  let workspace: Workspace;
  withWorkspace((h, w) => {
    harness = h;
    workspace = w;
  });

  it.each([
    [
      { method: "GET", path: "/rest/v1/leads.json", query: { filterValues: `a${LONE}` } },
      "query_parameters.filterValues",
    ],
    [
      { method: "GET", path: "/rest/v1/leads.json", query: { id: ["1", `\udc00x`] } },
      "query_parameters.id[1]",
    ],
    [
      { method: "POST", path: "/rest/v1/leads.json", body: { input: [{ email: `x${LONE}@y.com` }] } },
      "body.input[0].email",
    ],
    [{ method: "POST", path: "/rest/asset/v1/folders.json", body: { name: LONE } }, "body.name"],
    [
      { method: "POST", path: "/rest/v1/leads.json", body: { input: [{ [`k${LONE}`]: 1 }] } },
      'body.input[0]["k\\ud800"]',
    ],
  ] as const)("Marketo connector: %j → %s", async (req, field) => {
    const marketo = await workspace.connection("marketo");
    const before = harness.marketo.server.seen.length;
    const error = await marketo.call(req as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe(field);
    expect((error as Error).message).toMatch(/surrogate/);
    expect(harness.marketo.server.seen.slice(before).filter((s) => s.path.startsWith("/rest/"))).toEqual([]);
  });

  it.each([
    [
      { method: "GET", path: "v1beta/accountSummaries", query: { pageToken: LONE } },
      "query_parameters.pageToken",
    ],
    [
      { method: "POST", path: "v1beta/properties/1:runReport", body: { dimensions: [{ name: `c${LONE}` }] } },
      "body.dimensions[0].name",
    ],
  ] as const)("GA4 connector: %j → %s", async (req, field) => {
    const ga = await workspace.connection("google", "main");
    const before = harness.google.server.seen.length;
    const error = await ga.call(req as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe(field);
    expect(harness.google.server.seen.length).toBe(before);
  });

  it("through runToolStep (what MCP reported as an internal error)", async () => {
    const context = await workspace.toolContext({});
    const error = await runToolStep(
      "marketo_api_call",
      {
        method: "GET",
        endpoint: "/rest/v1/leads.json",
        query_parameters: { filterType: "email", filterValues: `a${LONE}` },
      },
      context,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).toJSON()).toMatchObject({
      error: "invalid_input",
      field: "query_parameters.filterValues",
    });
    const ga = await runToolStep(
      "google_analytics_api_call",
      { method: "GET", endpoint: "v1beta/accountSummaries", query_parameters: { pageToken: LONE } },
      context,
    ).catch((e: unknown) => e);
    expect(ga).toBeInstanceOf(ValidationError);
  });
});

describe("query parameters that change a request's method or authentication are refused; nothing is sent", () => {
  let harness: Harness;
  let workspace: Workspace;
  withWorkspace((h, w) => {
    harness = h;
    workspace = w;
  });

  const longIds = Array.from({ length: 2_000 }, (_, i) => i + 1).join(",");
  it.each([
    [
      "_method=DELETE on a long GET",
      { _method: "DELETE", id: longIds },
      "query_parameters._method",
      /method field.*automatically/,
    ],
    ["_method=POST", { _method: "POST" }, "query_parameters._method", /_method/],
    ["_METHOD on a long GET", { _METHOD: "DELETE", id: longIds }, "query_parameters._METHOD", /_method/],
    [
      "access_token",
      { access_token: "0123456789abcdef" },
      "query_parameters.access_token",
      /supplies authentication/,
    ],
    [
      "Access_Token",
      { Access_Token: "0123456789abcdef" },
      "query_parameters.Access_Token",
      /supplies authentication/,
    ],
  ])("Marketo: %s", async (_name, query, field, says) => {
    const marketo = await workspace.connection("marketo");
    const before = harness.marketo.server.seen.length;
    const error = await marketo
      .call({ method: "GET", path: "/rest/v1/lists/1001/leads.json", query })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe(field);
    expect((error as Error).message).toMatch(says);
    expect(harness.marketo.server.seen.length).toBe(before);
  });

  it("Marketo: refused before an activity read from a date fetches its paging token", async () => {
    const marketo = await workspace.connection("marketo");
    const before = harness.marketo.server.seen.length;
    const error = await marketo
      .call({
        method: "GET",
        path: "/rest/v1/activities.json",
        query: { activityTypeIds: "1", sinceDatetime: "2024-01-01T00:00:00Z", access_token: "x" },
      })
      .catch((e: unknown) => e);
    expect((error as ValidationError).field).toBe("query_parameters.access_token");
    expect(harness.marketo.server.seen.length).toBe(before);
  });

  it.each([
    [{ access_token: "ya29.abc" }, "query_parameters.access_token"],
    [{ key: "AIzaSyExample" }, "query_parameters.key"],
    [{ $key: "AIzaSyExample" }, "query_parameters.$key"],
    [{ KEY: "AIzaSyExample" }, "query_parameters.KEY"],
  ])("GA4: %j → %s", async (query, field) => {
    const ga = await workspace.connection("google", "main");
    const before = harness.google.server.seen.length;
    const error = await ga
      .call({ method: "GET", path: "v1beta/accountSummaries", query } as never)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe(field);
    expect((error as Error).message).toMatch(/supplies authentication/);
    expect(harness.google.server.seen.length).toBe(before);
  });
});

describe("endpoint guard: look-alikes, overlong and %u escapes, and a ?query", () => {
  it.each([
    "/rest/v1/\uff0e\uff0e/\uff0e\uff0e/identity/oauth/token",
    "/rest/\u2025/identity/oauth/token",
    "/rest/\u2024\u2024/identity",
    "/rest/\ufe52\ufe52/identity",
    "/rest/v1\uff0fleads.json",
    "/rest/%c0%ae%c0%ae/identity/oauth/token",
    "/rest/%e0%80%ae/x",
    "/rest/%u002e%u002e/identity",
    "/rest/v1/%ff/x",
    "/rest/v1/%20x",
    "/rest/v1/%2",
    "/rest/v1/100%",
    "/rest/v1/leads\u200b.json",
  ])("refuses %j", (raw) => {
    expect(() => checkEndpoint(raw, ENDPOINT_RULES)).toThrow(EndpointNotAllowedError);
  });

  it("accepts percent-encoded letters, digits, - _ ~", () => {
    expect(checkEndpoint("/rest/v1/%41b%7e%2D_.json", ENDPOINT_RULES)).toBe("/rest/v1/%41b%7e%2D_.json");
  });

  it("names the character it refuses", () => {
    expect(() => checkEndpoint("/rest/\uff0e\uff0e/x", ENDPOINT_RULES)).toThrow(
      /non-ASCII character U\+FF0E/,
    );
    expect(() => checkEndpoint("/rest/%c0%ae/x", ENDPOINT_RULES)).toThrow(
      /%c0, which is not a percent-encoded letter/,
    );
  });

  it("says to move a query string into query_parameters, and shows the object", () => {
    const error = (() => {
      try {
        checkEndpoint("/rest/v1/leads.json?filterType=email&filterValues=a@x.com", ENDPOINT_RULES);
      } catch (e) {
        return e as EndpointNotAllowedError;
      }
      throw new Error("accepted");
    })();
    expect(error.message).toBe(
      'Invalid endpoint: it carries a query string; give the endpoint as /rest/v1/leads.json and move the query into query_parameters: {"filterType":"email","filterValues":"a@x.com"}. Accepted: ' +
        `${ENDPOINT_RULES.accepted}.`,
    );
    expect(error.details.suggestion).toEqual({
      endpoint: "/rest/v1/leads.json",
      query_parameters: { filterType: "email", filterValues: "a@x.com" },
    });
    expect(() =>
      checkEndpoint(
        "/v1beta/properties?filter=parent%3Aaccounts%2F1&pageSize=5&pageSize=6",
        GOOGLE_PATH_RULES,
      ),
    ).toThrow('move the query into query_parameters: {"filter":"parent:accounts/1","pageSize":["5","6"]}');
    // A bad path is reported as such, before any suggestion.
    expect(() => checkEndpoint("/identity/oauth/token?x=1", ENDPOINT_RULES)).toThrow(
      /outside the allowed API paths/,
    );
  });
});
