/**
 * The generated list of real paths (src/real-paths.generated.ts) and the hints built on it: a "not
 * found" from Marketo (610) or Google (404) only calls the path wrong when no real operation has it.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { mapGoogleError } from "../../src/connectors/google/google-errors.js";
import { classifyCode } from "../../src/connectors/marketo/service-codes.js";
import { GA4_ADMIN_PATHS, GA4_DATA_PATHS, MARKETO_PATHS } from "../../src/real-paths.generated.js";
import { realPaths } from "../../src/real-paths.js";

function fixtureOperations(name: string): string[] {
  const text = readFileSync(new URL(`../fixtures/real-api/${name}.json`, import.meta.url), "utf8");
  return Object.keys((JSON.parse(text) as { operations: Record<string, unknown> }).operations);
}

function expand(lines: readonly string[]): string[] {
  return lines.flatMap((line) => {
    const [methods = "", path = ""] = line.split(" ");
    return methods.split(",").map((m) => `${m} ${path}`);
  });
}

describe("the generated real paths", () => {
  it("hold exactly the operations of the schema fixtures they were generated with", () => {
    const marketo = ["marketo-mapi", "marketo-asset", "marketo-identity", "marketo-user"].flatMap(
      fixtureOperations,
    );
    expect(expand(MARKETO_PATHS).sort()).toEqual([...new Set(marketo)].sort());
    expect(expand(GA4_ADMIN_PATHS).sort()).toEqual(fixtureOperations("ga4-admin").sort());
    expect(expand(GA4_DATA_PATHS).sort()).toEqual(fixtureOperations("ga4-data").sort());
    // paths.txt counts 313 Lead DB and Asset operations; the identity endpoint adds GET and POST, and
    // Adobe's user management Swagger 12 more.
    expect(expand(MARKETO_PATHS)).toHaveLength(327);
  });

  it("match concrete paths to templates, fixed segments first, and suggest the nearest for a typo", () => {
    const marketo = realPaths(MARKETO_PATHS);
    const admin = realPaths(GA4_ADMIN_PATHS);
    expect(marketo.find("/rest/v1/lists/1001/leads.json")).toEqual({
      template: "/rest/v1/lists/{listId}/leads.json",
      methods: ["DELETE", "GET", "POST"],
    });
    expect(marketo.find("/rest/v1/leads/describe.json")?.template).toBe("/rest/v1/leads/describe.json");
    expect(marketo.find("/rest/v1/activities/emailbounced.json")).toBeUndefined();
    expect(admin.find("/v1beta/properties/123/customDimensions/456:archive")?.template).toBe(
      "/v1beta/properties/{propertiesId}/customDimensions/{customDimensionsId}:archive",
    );
    expect(marketo.nearest("/rest/v1/list/1001.json")).toBe("/rest/v1/lists/{listId}.json");
    expect(admin.nearest("/v1beta/properties/123/customDimension")).toBe(
      "/v1beta/properties/{propertiesId}/customDimensions",
    );
    expect(marketo.nearest("/rest/v1/completely/unrelated/thing.json")).toBeUndefined();
  });
});

describe("Marketo 610 hint", () => {
  const hint = (path: string) => {
    const verdict = classifyCode("610", "Requested resource not found", {
      path,
      requestId: "a#1",
      status: 200,
    });
    if (verdict.kind !== "fatal") throw new Error(`expected a fatal verdict, got ${verdict.kind}`);
    return verdict.error.message;
  };

  it("does not call a real path wrong", () => {
    const text = hint("/rest/v1/companies.json");
    expect(text).toContain(
      "GET/POST /rest/v1/companies.json is a real Marketo endpoint and the instance answered not found",
    );
    expect(text).not.toMatch(/Check the path/);
  });

  it("says an unknown path is no Marketo endpoint and suggests the nearest one", () => {
    expect(hint("/rest/v1/list/1001.json")).toContain(
      "/rest/v1/list/1001.json is no Marketo endpoint; did you mean /rest/v1/lists/{listId}.json?",
    );
    expect(hint("/rest/v1/nothing-here.json")).toContain(
      "https://developer.adobe.com/marketo-apis/api/mapi/",
    );
  });
});

describe("Google 404 hint", () => {
  const hint = (api: "admin" | "data", method: "GET" | "POST", path: string) =>
    mapGoogleError(
      404,
      { code: 404, status: "NOT_FOUND", message: "Requested entity was not found." },
      {
        api,
        method,
        path,
        account: "main",
        now: 0,
      },
    ).message;

  it("tells a real method with a missing resource from a path the API does not have", () => {
    expect(hint("admin", "GET", "/v1beta/properties/1/customDimensions/2")).toContain(
      "GET /v1beta/properties/{propertiesId}/customDimensions/{customDimensionsId} is a real GA4 Admin API method and Google answered not found",
    );
    expect(hint("data", "POST", "/v1beta/properties/1/audienceExports/9:query")).toContain(
      "is a real GA4 Data API method",
    );
    expect(hint("admin", "POST", "/v1beta/properties/1/customDimensions/2")).toContain(
      "but not for POST: it serves GET, PATCH",
    );
    expect(hint("admin", "GET", "/v1beta/properties/1/customDimension")).toContain(
      "is no GA4 Admin API method; did you mean /v1beta/properties/{propertiesId}/customDimensions?",
    );
  });
});
