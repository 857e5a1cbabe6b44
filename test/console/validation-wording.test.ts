import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { issuesFromAjv } from "../../src/console/validation-wording.js";
import { toJsonSchema } from "../../src/schemas/json-schema.js";
import { PATTERN_MESSAGES } from "../../src/schemas/patterns.js";
import { describeIssues } from "../../src/tools/input/errors.js";
import { inputError } from "../../src/tools/input/words.js";
import { getToolStep, TOOL_STEPS } from "../../src/tools/registry.js";
import { type LoadedForm, loadForm } from "../helpers/console-form.js";

const ACCOUNTS = { accounts: ["marketing", "web"] };

/**
 * The server's wording: runToolStep's ValidationError for an input its schema refuses, or "valid".
 * Refinements (a time zone or currency from ICU's lists) have no JSON Schema form: the browser
 * cannot see them, and the console shows them on their field when the server answers. Other
 * spellings (aliases) are not involved: the form only ever builds the schema's own fields.
 */
function serverSays(id: string, input: unknown): string {
  const schema = getToolStep(id).input(ACCOUNTS);
  const parsed = schema.safeParse(input, { reportInput: true });
  if (parsed.success) return "valid";
  const representable = parsed.error.issues.filter((issue) => issue.code !== "custom");
  if (representable.length === 0) return "valid";
  const { problems, more } = describeIssues(new z.ZodError(representable), schema);
  return inputError(problems, more).message;
}

/**
 * The browser's wording: ajv's errors mapped into the same ValidationError. A pattern the schema only
 * publishes (the Marketo endpoint's) is checked on the server by the endpoint guard, in its own words,
 * after zod: such errors are left out here (test/connectors/endpoint-pattern.test.ts proves the pattern
 * and the guard agree, and test/e2e/console-forms.test.ts shows the form's message).
 */
function browserSays(form: LoadedForm, raw: unknown): string {
  const input = form.normalise(raw);
  const errors = form
    .validate(input)
    .filter((error) => !(error.keyword === "pattern" && String(error.params.pattern) in PATTERN_MESSAGES));
  if (errors.length === 0) return "valid";
  const { problems, more } = issuesFromAjv(errors, form.schema, input, form.hints, raw);
  return inputError(problems, more).message;
}

const CASES: Record<string, unknown[]> = {
  marketo_api_call: [
    {},
    { method: "PUT", endpoint: "" },
    { method: "GET", endpoint: "/rest/v1/leads.json", max_pages: 0, max_items: 1.5, paginate: "yes" },
    { method: "GET", endpoint: "/rest/v1/leads.json", max_pages: "20", max_items: 100_001 },
    { method: "GET", endpoint: "/rest/v1/leads.json", query_parameters: { "": "x", a: { b: 1 } } },
    { method: "GET", endpoint: "/rest/v1/leads.json", query_parameters: { ids: Array(10_001).fill("1") } },
    { method: "POST", endpoint: "/rest/v1/leads.json", body: "not an object" },
    { method: "POST", endpoint: "/rest/v1/leads.json", body: [1, 2] },
    { method: "GET", endpoint: "x".repeat(2049) },
    { method: null, endpoint: 12 },
    "not an object",
    // A missing enum is "required (one of …)", and left out when an unknown key's suggestion names it.
    { endpoint: "/rest/v1/leads.json" },
    { Method: "GET", endpoint: "/rest/v1/leads.json" },
    // Key names escaped and cut; DEL and C1 controls in values escaped; prototype names are unknown keys.
    { method: "GET", endpoint: "/rest/v1/leads.json", "a\nerror: forged\u001b[31m": 1 },
    { method: "GET", endpoint: "/rest/v1/leads.json", ["k".repeat(200)]: 1, constructor: 1 },
    { method: "G\u009bET\u007f", endpoint: "/rest/v1/leads.json", query_parameters: { "x\ny": { b: 1 } } },
    { method: "GET", endpoint: "/rest/v1/leads.json", toString: {}, ["__proto__"]: 1 },
    // Nothing that holds a secret-looking name at any depth is shown.
    { method: "GET", endpoint: "/rest/v1/leads.json", paginate: { nested: [{ refresh_token: "ya29.x" }] } },
    { method: "POST", endpoint: "/rest/v1/leads.json", body: [{ bearer: "x" }] },
    // Past 50 problems the rest are only counted.
    {
      method: "GET",
      endpoint: "/rest/v1/leads.json",
      query_parameters: Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`p${i}`, { b: i }])),
    },
  ],
  google_analytics_run_reports: [
    {},
    { account: "nobody", property: "1", metrics: [], date_ranges: ["bogus"] },
    { property: "1", metrics: ["1bad"], date_ranges: [{ start_date: "x", end_date: "today" }], limit: -1 },
    { property: "1", metrics: ["sessions"], date_ranges: [{ start_date: "x" }] },
    { property: "1", metrics: { apiKey: "x" }, date_ranges: [{ access_token: "x" }], order_by: null },
    { property: "1", metrics: ["sessions"], dateRanges: ["last7days"] },
    { property: "1", metrics: ["sessions"], date_ranges: ["last7days"], dimensions: Array(10).fill("date") },
    { property: "", metrics: "sessions", date_ranges: "last7days", order_by: [7] },
    {
      property: "1",
      metrics: ["sessions"],
      date_ranges: [{ start_date: "2025-01-01", end_date: "today", name: "RESERVED_x" }],
    },
    { account: "web", property: "1", metrics: Array(11).fill("sessions"), date_ranges: ["last7days"] },
  ],
  google_analytics_create_key_events: [{}, { property: "1", event_name: "9lives" }, { event_name: 3 }],
  google_analytics_create_properties: [{}, { display_name: "" }],
  google_analytics_api_call: [
    {},
    { method: "PUT", endpoint: "" },
    { method: "GET", endpoint: "v1beta/x", body: 1 },
  ],
};

describe("the form's validation says what the server says", () => {
  const forms = new Map<string, LoadedForm>();
  beforeAll(async () => {
    for (const step of TOOL_STEPS) forms.set(step.id, await loadForm(step.id, ACCOUNTS));
  });

  it("serves the same JSON Schema as manifest.json and the MCP tool list", () => {
    for (const step of TOOL_STEPS) {
      expect(forms.get(step.id)?.schema).toEqual(toJsonSchema(step.input(ACCOUNTS), "input"));
    }
  });

  for (const [id, inputs] of Object.entries(CASES)) {
    it(`${id}: the same message for each invalid input`, async () => {
      const form = forms.get(id) as LoadedForm;
      for (const input of inputs) {
        const server = serverSays(id, input);
        expect(server).not.toBe("valid");
        expect({ input, message: browserSays(form, input) }).toEqual({ input, message: server });
      }
    });
  }

  const BASES: Record<string, Record<string, unknown>> = {
    marketo_api_call: { method: "GET", endpoint: "/rest/v1/leads.json" },
    google_analytics_run_reports: {
      account: "web",
      property: "412345671",
      metrics: ["sessions"],
      date_ranges: ["last7days"],
    },
    google_analytics_create_key_events: { account: "web", property: "412345671", event_name: "sign_up" },
    google_analytics_create_properties: { account: "web", display_name: "Shop", time_zone: "Europe/Paris" },
    google_analytics_api_call: { account: "web", method: "GET", endpoint: "v1beta/properties/1" },
  };
  for (const [id, base] of Object.entries(BASES)) {
    it(`${id}: the same message for any JSON in any field (property-based)`, () => {
      const form = forms.get(id) as LoadedForm;
      const fields = [...Object.keys(form.schema.properties as object), "unknown_field"];
      fc.assert(
        fc.property(
          fc.dictionary(fc.constantFrom(...fields), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }),
          (changes) => {
            const input = { ...base, ...changes };
            expect(browserSays(form, input)).toBe(serverSays(id, input));
          },
        ),
        { numRuns: Number(process.env.WORDING_RUNS ?? 300) },
      );
    });
  }

  it("a valid input is valid on both sides", async () => {
    const input = { method: "GET", endpoint: "/rest/v1/leads.json", query_parameters: { filterType: "id" } };
    expect(browserSays(forms.get("marketo_api_call") as LoadedForm, input)).toBe("valid");
    expect(getToolStep("marketo_api_call").input(ACCOUNTS).safeParse(input).success).toBe(true);
  });
});
