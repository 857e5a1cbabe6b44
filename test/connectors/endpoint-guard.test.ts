import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CheckedPath,
  checkEndpoint,
  checkPath,
  type EndpointRules,
  joinEndpoint,
} from "../../src/connectors/endpoint-guard.js";
import { EndpointNotAllowedError } from "../../src/errors.js";

const RULES: EndpointRules = {
  field: "endpoint",
  allowedPrefixes: ["/rest/", "/bulk/"],
  accepted: "a path beginning with /rest/",
};
const BASE = new URL("https://123-abc-456.mktorest.com");

const REFUSED = [
  "https://evil.com/rest/v1/leads.json",
  "http:evil.com/rest/v1",
  "//evil.com/rest/v1/leads.json",
  "/\\evil.com/rest",
  "\\\\evil.com",
  "/rest/../identity/oauth/token",
  "/rest/v1/%2e%2e/%2e%2e/identity",
  "/rest/v1/%2E%2E/x",
  "/rest/v1%2fleads.json",
  "/rest/v1/leads.json?access_token=x",
  "/rest/v1/leads.json#x",
  "/rest/v1/le\r\nads.json",
  "/rest/v1/le\tads.json",
  "/rest/v1/leads.json\u0000",
  "/rest@evil.com/v1",
  "/identity/oauth/token",
  "/rest",
  "rest/v1/leads.json",
  "/rest//v1/leads.json",
  "/rest/./v1",
  "/rest/v1/%5cevil",
  "/rest/v1/%25%32%65",
  "/rest/v1/leads .json",
  "/rest/..;/identity/oauth/token",
  "/rest/v1/..;/..;/identity/oauth/token",
  "/rest/v1/.;/leads.json",
  "",
];

describe("endpoint guard", () => {
  it.each(REFUSED)("refuses %j before any request", (raw) => {
    expect(() => checkEndpoint(raw, RULES)).toThrow(EndpointNotAllowedError);
  });

  it("accepts real Marketo paths and names the field and what is accepted when refusing", () => {
    for (const ok of [
      "/rest/v1/leads.json",
      "/rest/asset/v1/email/byName.json",
      "/bulk/v1/leads/export/create.json",
    ]) {
      expect(checkEndpoint(ok, RULES)).toBe(ok);
    }
    try {
      checkEndpoint("//evil.com", RULES);
    } catch (error) {
      expect((error as EndpointNotAllowedError).field).toBe("endpoint");
      expect((error as Error).message).toMatch(
        /Invalid endpoint: .*Accepted: a path beginning with \/rest\//,
      );
    }
  });

  it("property: whatever passes the check stays on the base origin and under an allowed prefix", () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9._~%:@!$&'()*+,;=\\/?#\r\n\t -]{0,12}$/);
    const raw = fc.oneof(
      fc.array(segment, { maxLength: 6 }).map((parts) => `/rest/${parts.join("/")}`),
      fc.array(segment, { maxLength: 6 }).map((parts) => parts.join("/")),
      fc.string({ maxLength: 40 }),
      fc.string({ unit: "grapheme", maxLength: 40 }).map((s) => `/rest/${s}`),
    );
    fc.assert(
      fc.property(raw, (input) => {
        let checked: CheckedPath;
        try {
          checked = checkPath(input, RULES);
        } catch (error) {
          return error instanceof EndpointNotAllowedError;
        }
        const url = joinEndpoint(BASE, checked, RULES);
        return (
          url.origin === BASE.origin &&
          RULES.allowedPrefixes.some((p) => url.pathname.startsWith(p)) &&
          !url.pathname.split("/").some((seg) => [".", ".."].includes(seg.split(";")[0] ?? "")) &&
          url.search === "" &&
          url.username === ""
        );
      }),
      { numRuns: 3000 },
    );
  });

  it("joins under a base path (sandbox prefixes) and keeps it", () => {
    const rules: EndpointRules = { field: "endpoint", allowedPrefixes: ["/v1beta/"], accepted: "v1beta/..." };
    const url = joinEndpoint(
      new URL("http://127.0.0.1:4020/data"),
      checkPath("/v1beta/properties/1:runReport", rules),
      rules,
    );
    expect(url.href).toBe("http://127.0.0.1:4020/data/v1beta/properties/1:runReport");
  });
});

describe("endpoints already accepted are kept (per rules, by exact string)", () => {
  it("an endpoint one API accepts is still refused by another's rules, however often it was accepted", () => {
    const google: EndpointRules = {
      field: "endpoint",
      allowedPrefixes: ["/v1beta/"],
      accepted: "v1beta/...",
    };
    for (let i = 0; i < 3; i++)
      expect(checkEndpoint("/rest/v1/leads.json", RULES)).toBe("/rest/v1/leads.json");
    expect(() => checkEndpoint("/rest/v1/leads.json", google)).toThrow(EndpointNotAllowedError);
    expect(() => joinEndpoint(BASE, checkPath("/rest/v1/leads.json", RULES), google)).toThrow(
      EndpointNotAllowedError,
    );
  });

  it("a refused endpoint is refused every time, also after a near one was accepted", () => {
    checkEndpoint("/rest/v1/leads.json", RULES);
    for (let i = 0; i < 3; i++) {
      expect(() => checkEndpoint("/rest/v1/../leads.json", RULES)).toThrow(EndpointNotAllowedError);
      expect(() => checkEndpoint("/rest/v1/leads.json?x=1", RULES)).toThrow(EndpointNotAllowedError);
    }
  });

  it("each join gets its own URL, on its own base: changing one never changes the next", () => {
    const leads = checkPath("/rest/v1/leads.json", RULES);
    const first = joinEndpoint(BASE, leads, RULES);
    first.search = "filterType=id";
    const again = joinEndpoint(BASE, leads, RULES);
    expect(again.href).toBe("https://123-abc-456.mktorest.com/rest/v1/leads.json");
    const other = joinEndpoint(new URL("https://999-xyz-000.mktorest.com"), leads, RULES);
    expect(other.host).toBe("999-xyz-000.mktorest.com");
  });
});

describe("a checked path is a type of its own, made only by the guard", () => {
  it("refuses a raw string, a cast and a forged object, at compile time and at run time", () => {
    // @ts-expect-error a raw string is not a checked path: it must go through checkPath first
    expect(() => joinEndpoint(BASE, "//evil.example/rest/x", RULES)).toThrow(EndpointNotAllowedError);
    const cast = "//evil.example/rest/x" as unknown as CheckedPath;
    expect(() => joinEndpoint(BASE, cast, RULES)).toThrow(EndpointNotAllowedError);
    const forged = Object.assign(Object.create(CheckedPath.prototype) as CheckedPath, { value: "//evil" });
    expect(() => joinEndpoint(BASE, forged, RULES)).toThrow(EndpointNotAllowedError);
    expect(() => new CheckedPath(Symbol("CheckedPath"), "//evil", RULES)).toThrow(TypeError);
  });

  it("is the same object each time an endpoint is accepted again, and reads as its text", () => {
    const path = checkPath("/rest/v1/leads.json", RULES);
    expect(checkPath("/rest/v1/leads.json", RULES)).toBe(path);
    expect([String(path), JSON.stringify({ path })]).toEqual([
      "/rest/v1/leads.json",
      '{"path":"/rest/v1/leads.json"}',
    ]);
  });
});
