/**
 * The Marketo endpoint's `pattern` in the published input schema states the endpoint guard's rule, so a
 * client (an MCP client, the console's form) can check an endpoint before sending it. Both must accept and
 * refuse the same endpoints: a table of the guard's cases, then many generated paths.
 */
import { describe, expect, it } from "vitest";
import { checkEndpoint } from "../../src/connectors/endpoint-guard.js";
import { ENDPOINT_RULES } from "../../src/connectors/marketo/url.js";
import { MARKETO_ENDPOINT_PATTERN } from "../../src/schemas/marketo.js";
import { PATTERN_MESSAGES } from "../../src/schemas/patterns.js";
import { listedSteps } from "../../src/tools/listing.js";

const guardAccepts = (endpoint: string): boolean => {
  try {
    checkEndpoint(endpoint, ENDPOINT_RULES);
    return true;
  } catch {
    return false;
  }
};
// JSON Schema patterns are ECMA-262 regular expressions; ajv compiles them with the "u" flag.
const pattern = new RegExp(MARKETO_ENDPOINT_PATTERN, "u");

const TABLE: [string, boolean][] = [
  ["/rest/v1/leads.json", true],
  ["/rest/v1/lists/1001/leads.json", true],
  ["/rest/v1/campaigns/1001/trigger.json", true],
  ["/rest/asset/v1/programs.json", true],
  ["/bulk/v1/leads/export/3f1b-77/file.json", true],
  ["/rest/v1/leads/describe2.json", true],
  ["/rest/", true],
  ["/rest/v1/", true],
  ["/rest/asset/v1/program/byName.json", true],
  ["/rest/v1/a%41b.json", true],
  ["/rest/v1/x~y_z-1.json", true],
  ["/rest/v1/a:b", true],
  ["/rest/v1/.hidden", true],
  ["/rest/v1/...", true],
  ["/rest", false],
  ["/bulk", false],
  ["rest/v1/leads.json", false],
  ["/identity/oauth/token", false],
  ["/restx/v1/leads.json", false],
  ["//evil.example/rest/v1/leads.json", false],
  ["https://evil.example/rest/v1/leads.json", false],
  ["/rest/v1/leads.json?filterType=email", false],
  ["/rest/v1/leads.json#x", false],
  ["/rest/v1/../../identity/oauth/token", false],
  ["/rest/./v1/leads.json", false],
  ["/rest/v1/.", false],
  ["/rest/v1/..", false],
  ["/rest//v1/leads.json", false],
  ["/rest/v1/lead s.json", false],
  ["/rest/v1/leads.json\n", false],
  ["/rest/v1/\u0000", false],
  ["/rest/v1/\u007f", false],
  ["/rest/v1/l\u00e9ads.json", false],
  ["/rest/v1\uff0fleads.json", false],
  ["/rest/v1\\leads.json", false],
  ["/rest/v1/a@b", false],
  ["/rest/v1/..;/identity", false],
  ["/rest/v1/a;b", false],
  ["/rest/v1/%2e%2e/identity", false],
  ["/rest/v1/%2F", false],
  ["/rest/v1/%25", false],
  ["/rest/v1/%4", false],
  ["/rest/v1/%zz", false],
  ["/rest/v1/%c0%ae", false],
  ["", false],
];

describe("the Marketo endpoint pattern and the endpoint guard", () => {
  it("is published in the step's input schema", () => {
    const step = listedSteps().find((listed) => listed.name === "marketo_api_call");
    const published = step?.inputSchema as { properties: { endpoint: { pattern?: string } } };
    expect(published.properties.endpoint.pattern).toBe(MARKETO_ENDPOINT_PATTERN);
  });

  it("has the form's words, registered by the schema that publishes it, as every published pattern's are", () => {
    expect(PATTERN_MESSAGES[MARKETO_ENDPOINT_PATTERN]).toMatch(
      /^use a path beginning with \/rest\/ or \/bulk\//,
    );
    // Each registered message belongs to a pattern a listed step's schema states.
    const schemas = JSON.stringify(listedSteps().map((step) => step.inputSchema));
    for (const registered of Object.keys(PATTERN_MESSAGES))
      expect(schemas).toContain(JSON.stringify(registered));
  });

  it.each(TABLE)("agree on %j (accepted: %s)", (endpoint, accepted) => {
    expect({ guard: guardAccepts(endpoint), pattern: pattern.test(endpoint) }).toEqual({
      guard: accepted,
      pattern: accepted,
    });
  });

  it("agree on 20,000 generated paths built from the characters that matter", () => {
    // A seeded generator: the same paths on every run, so a disagreement can be reproduced.
    let seed = 19;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const parts = [
      "/",
      "rest",
      "bulk",
      "v1",
      ".",
      "..",
      "%2e",
      "%41",
      "%7E",
      "%",
      "a",
      ";",
      "@",
      "?",
      "#",
      " ",
      "\\",
      ":",
      "~",
      "é",
      "\t",
      "json",
    ];
    const disagreements: string[] = [];
    for (let i = 0; i < 20_000; i += 1) {
      const head = ["/rest/", "/bulk/", "/", ""][next(4)] ?? "";
      let path = head;
      for (let j = next(8); j > 0; j -= 1) path += parts[next(parts.length)];
      if (guardAccepts(path) !== pattern.test(path)) disagreements.push(JSON.stringify(path));
    }
    expect(disagreements.slice(0, 10)).toEqual([]);
  });
});
