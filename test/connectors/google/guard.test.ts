import nock from "nock";
import { describe, expect, it, vi } from "vitest";
import { EndpointNotAllowedError, ValidationError } from "../../../src/errors.js";
import { ENDPOINTS } from "../../helpers/google-auth.js";
import { ADMIN, DATA, offline, setup } from "../../helpers/google-connector.js";

offline();

describe("endpoint guard", () => {
  it.each([
    "https://evil.example.com/v1beta/properties",
    "http:evil.example.com/v1beta/properties",
    "//evil.example.com/v1beta/properties",
    "/\\evil.example.com/v1beta",
    "v1beta\\..\\admin",
    "v1beta/properties/../../oauth/token",
    "v1beta/properties/%2e%2e/x",
    "v1beta/%2E%2E/x",
    "v1beta/properties/1%2f..",
    "v1alpha/properties/123:runReport",
    "v1alpha/properties/123/metadata",
    "v1alpha/properties/123:runFunnelReport/x",
    "v1/properties/123",
    "oauth/token",
    "v1beta/properties?key=1",
    "v1beta/properties/1\r\nHost: evil",
    "user@evil.example.com/v1beta",
    "",
  ])("refuses %j before any request", async (path) => {
    const fetchSpy = vi.fn<typeof fetch>();
    const { connector } = setup({ fetch: fetchSpy });
    const error = await connector.call({ method: "GET", path }).catch((e) => e);
    expect(error).toBeInstanceOf(EndpointNotAllowedError);
    expect(error.message).toMatch(
      /^Invalid endpoint: .*Accepted: a path such as v1beta\/properties\/123:runReport\.$/,
    );
    await expect(connector.request("admin", { method: "GET", path })).rejects.toBeInstanceOf(
      EndpointNotAllowedError,
    );
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("refuses unknown methods and bodies on GET/DELETE before any request", async () => {
    const fetchSpy = vi.fn<typeof fetch>();
    const { connector } = setup({ fetch: fetchSpy });
    await expect(
      connector.call({ method: "PUT" as "GET", path: "v1beta/properties/1" }),
    ).rejects.toBeInstanceOf(ValidationError);
    await expect(connector.call({ method: "GET", path: "v1beta/properties/1", body: {} })).rejects.toThrow(
      /no body/,
    );
    await expect(connector.runReport("properties/abc", {})).rejects.toThrow(/propertyId/);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("joins to a base that carries a path, sends only a bearer token, and never follows a redirect", async () => {
    const seen: string[] = [];
    const scope = nock("https://sandbox.test")
      .get("/data/v1beta/properties/42/metadata")
      .reply(function () {
        seen.push(String(this.req.headers.authorization));
        return [200, { name: "properties/42/metadata" }];
      })
      .get("/admin/v1beta/accounts")
      .reply(302, "", { location: "https://evil.example.com/steal" });
    const { connector } = setup({
      endpoints: {
        ...ENDPOINTS,
        dataApiUrl: "https://sandbox.test/data",
        adminApiUrl: "https://sandbox.test/admin",
      },
    });
    await expect(connector.getMetadata("42")).resolves.toEqual({ name: "properties/42/metadata" });
    expect(seen).toEqual(["Bearer ya29.token-1"]);
    await expect(connector.call({ method: "GET", path: "/v1beta/accounts" })).rejects.toThrow(
      /redirect \(HTTP 302\)/,
    );
    scope.done();
  });
});

describe("the request on the wire", () => {
  it("a POST carries its body as JSON with its content type and the bearer token; a GET carries neither body nor content type", async () => {
    const seen: Record<string, unknown>[] = [];
    const scope = nock(DATA)
      .post("/v1beta/properties/42:runReport")
      .reply(function (_uri, body) {
        seen.push({ ...this.req.headers, body });
        return [200, { rows: [] }];
      })
      .get("/v1beta/properties/42/metadata")
      .reply(function (_uri, body) {
        seen.push({ ...this.req.headers, body });
        return [200, { name: "properties/42/metadata" }];
      });
    const { connector } = setup();
    await connector.request("data", {
      method: "POST",
      path: "/v1beta/properties/42:runReport",
      body: { metrics: [{ name: "sessions" }] },
    });
    await connector.getMetadata("42");
    expect(seen[0]).toMatchObject({
      authorization: "Bearer ya29.token-1",
      accept: "application/json",
      "content-type": "application/json",
      body: { metrics: [{ name: "sessions" }], returnPropertyQuota: true },
    });
    expect(seen[1]).toMatchObject({ authorization: "Bearer ya29.token-1", body: "" });
    expect(seen[1]).not.toHaveProperty("content-type");
    scope.done();
  });
});

describe("API routing", () => {
  it.each([
    ["v1beta/properties/1:runReport", "data"],
    ["v1beta/properties/1:runRealtimeReport", "data"],
    ["v1beta/properties/1:runPivotReport", "data"],
    ["v1beta/properties/1:batchRunReports", "data"],
    ["v1beta/properties/1:batchRunPivotReports", "data"],
    ["v1beta/properties/1:checkCompatibility", "data"],
    // The funnel report exists in v1alpha only (src/connectors/google/paths.ts).
    ["v1alpha/properties/1:runFunnelReport", "data"],
    ["v1beta/properties/1/metadata", "data"],
    ["v1beta/properties/1/audienceExports", "data"],
    ["v1beta/properties/1/audienceExports/7:query", "data"],
    ["v1beta/properties/1/keyEvents", "admin"],
    ["v1beta/properties", "admin"],
    ["/v1beta/accountSummaries", "admin"],
    ["v1beta/properties/1:runAccessReport", "admin"],
  ])("%s → %s", async (path, api) => {
    const base = api === "data" ? DATA : ADMIN;
    const method = path.includes(":") && !path.endsWith(":query") ? "POST" : "GET";
    const normalized = path.startsWith("/") ? path : `/${path}`;
    nock(base).intercept(normalized, method).reply(200, { ok: api });
    const { connector } = setup();
    const result = await connector.call({ method, path, ...(method === "POST" ? { body: {} } : {}) });
    expect(result).toEqual({ api, body: { ok: api } });
  });

  it("lets the caller name the API, and passes query arrays as repeated parameters", async () => {
    nock(DATA)
      .get("/v1beta/properties/1/keyEvents")
      .query({ a: ["x", "y"], b: "true", c: "3" })
      .reply(200, { routed: "data" });
    const { connector } = setup();
    const result = await connector.call({
      api: "data",
      method: "GET",
      path: "v1beta/properties/1/keyEvents",
      query: { a: ["x", "y"], b: true, c: 3, d: undefined },
    });
    expect(result).toEqual({ api: "data", body: { routed: "data" } });
  });
});
