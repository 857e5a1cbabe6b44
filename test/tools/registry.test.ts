import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { buildManifest, withToolTable } from "../../src/manifest.js";
import { toJsonSchema } from "../../src/schemas/json-schema.js";
import { getToolStep, searchToolSteps, TOOL_STEPS } from "../../src/tools/registry.js";

const root = new URL("../../", import.meta.url);

describe("registry", () => {
  it("holds the five steps with unique snake_case ids and described fields", () => {
    expect(TOOL_STEPS.map((s) => s.id)).toEqual([
      "marketo_api_call",
      "google_analytics_run_reports",
      "google_analytics_create_key_events",
      "google_analytics_create_properties",
      "google_analytics_api_call",
    ]);
    for (const step of TOOL_STEPS) {
      expect(step.id).toMatch(/^[a-z]+(_[a-z0-9]+)+$/);
      // The reference is docUrl (the manifest's and the console's link); the tool list spends no tokens on it.
      expect(step.docUrl).toMatch(/^https:\/\//);
      const schema = toJsonSchema(step.input({ accounts: ["a", "b"] }), "input") as {
        properties: Record<string, { description?: string }>;
      };
      for (const [name, field] of Object.entries(schema.properties)) {
        expect(field.description, `${step.id}.${name} has a description`).toBeTruthy();
      }
    }
  });

  it("unknown ids get an error listing the known ones", () => {
    expect(() => getToolStep("nope")).toThrow(/Known tool steps: marketo_api_call/);
  });
});

describe("manifest.json and README", () => {
  it("the committed manifest.json is what the registry generates (run npm run manifest)", async () => {
    const committed = JSON.parse(await readFile(new URL("manifest.json", root), "utf8"));
    expect(committed).toEqual(JSON.parse(JSON.stringify(buildManifest())));
  });

  it("the manifest names each connection's admin fields and marks the secrets", () => {
    const marketo = buildManifest().connections.find((c) => c.id === "marketo");
    expect(marketo?.fields.map((f) => [f.label, f.secret])).toEqual([
      ["Client ID", false],
      ["Client Secret", true],
      ["REST API Endpoint", false],
    ]);
  });

  it("the README's tool table is generated from the registry (run npm run manifest)", async () => {
    const readme = await readFile(new URL("README.md", root), "utf8");
    expect(withToolTable(readme)).toBe(readme);
  });
});

describe("catalog search", () => {
  const first = (q: string) => searchToolSteps(q)[0]?.id;
  it.each([
    "marketing automation",
    "Marketo",
    "marketo api",
    "leads",
    "campaign",
    "automation marketing",
    "MARKETO",
    "markteo",
    "lead",
    "campaigns",
  ])("%j puts marketo_api_call first", (q) => {
    expect(first(q)).toBe("marketo_api_call");
  });
  it.each(["analytics", "GA4", "google analytics", "analytcs"])("%j puts a Google step first", (q) => {
    expect(first(q)).toMatch(/^google_analytics_/);
    expect(searchToolSteps(q).findIndex((h) => h.id === "marketo_api_call")).not.toBe(0);
  });
  it.each(["report", "reports", "run report", "reprts"])("%j puts Run Reports first", (q) => {
    expect(first(q)).toBe("google_analytics_run_reports");
  });
  it("key events and properties find their steps", () => {
    expect(first("key event")).toBe("google_analytics_create_key_events");
    expect(first("create property")).toBe("google_analytics_create_properties");
  });
  it("no match is an empty list", () => {
    expect(searchToolSteps("zzzzqqq")).toEqual([]);
  });
});
