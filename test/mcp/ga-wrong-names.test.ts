import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GoogleFixture, googleFixture } from "../helpers/fixtures.js";
import { mcpSession } from "../helpers/mcp.js";

const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;
const PROPERTY = "412345671";

describe("Run Reports through MCP: Universal Analytics and other wrong names get GA4's name", () => {
  let fixture: GoogleFixture;
  let client: Client;
  let close: () => Promise<void>;
  const report = async (args: Record<string, unknown>) =>
    (await client.callTool({
      name: "google_analytics_run_reports",
      arguments: { property: PROPERTY, date_ranges: ["last7days"], ...args },
    })) as CallToolResult;

  beforeAll(async () => {
    fixture = await googleFixture();
    ({ client, close } = await mcpSession(fixture.workspace));
  });
  afterAll(async () => {
    await close();
    await fixture.sandbox.close();
  });

  // Each wrong name, where it was put, and the GA4 name the error must give: the retry with it must succeed.
  const cases: [string, "metrics" | "dimensions", string][] = [
    ["pageviews", "metrics", "screenPageViews"],
    ["ga:pageviews", "metrics", "screenPageViews"],
    ["page_views", "metrics", "screenPageViews"],
    ["users", "metrics", "totalUsers"],
    ["goalCompletions", "metrics", "keyEvents"],
    ["avgSessionDuration", "metrics", "averageSessionDuration"],
    ["sessionDuration", "metrics", "userEngagementDuration"],
    ["bounces", "metrics", "bounceRate"],
    ["page_path", "dimensions", "pagePath"],
    ["hostname", "dimensions", "hostName"],
  ];

  for (const [wrong, where, ga4] of cases) {
    it(`${wrong} → ${ga4}, and the call with ${ga4} succeeds`, async () => {
      const base = where === "metrics" ? { dimensions: [] } : { metrics: ["sessions"] };
      const refused = await report({ ...base, [where]: [wrong] });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toContain(`GA4's name is "${ga4}"`);
      expect(text(refused)).toContain("reporting-ua-to-ga4-dims-mets");
      const retried = await report({ ...base, [where]: [ga4] });
      expect(retried.isError, text(retried)).toBeFalsy();
    });
  }

  it("a custom dimension by its own name is offered its API name, with which the call succeeds (trial s45, N626)", async () => {
    const refused = await report({ metrics: ["sessions"], dimensions: ["customer_tier"] });
    expect(refused.isError).toBe(true);
    const offered = /did you mean "([^"]+)"/.exec(text(refused))?.[1];
    expect(offered).toBe("customUser:customer_tier");
    const retried = await report({ metrics: ["sessions"], dimensions: [offered] });
    expect(retried.isError, text(retried)).toBeFalsy();
  });

  // GA's screens show names with spaces and "/": the schema let them through to the metadata's offer, where its
  // pattern refused them without one (trial s45, N626 read 22,486 characters of metadata for "Customer tier").
  for (const [shown, kind, apiName] of [
    ["Customer tier", "dimensions", "customUser:customer_tier"],
    ["Session source / medium", "dimensions", "sessionSourceMedium"],
    ["Item revenue", "metrics", "itemRevenue"],
  ] as const) {
    it(`${kind} as GA's screens name them ("${shown}") are offered their API name, which succeeds`, async () => {
      const asked =
        kind === "metrics"
          ? { metrics: [shown], dimensions: [] }
          : { metrics: ["sessions"], dimensions: [shown] };
      const refused = await report(asked);
      expect(refused.isError).toBe(true);
      expect(text(refused)).not.toContain("an API name such as");
      const offered = /did you mean "([^"]+)"/.exec(text(refused))?.[1];
      expect(offered).toBe(apiName);
      const fixed =
        kind === "metrics"
          ? { metrics: [offered], dimensions: [] }
          : { metrics: ["sessions"], dimensions: [offered] };
      const retried = await report(fixed);
      expect(retried.isError, text(retried)).toBeFalsy();
    });
  }

  // Google's API schema lists these as GA4 dimensions too (a key event's attributed source and medium), and
  // `conversions` as a deprecated name of keyEvents: GA accepts them, so the step does, saying so for the old name.
  it("source, medium and sourceMedium are GA4 names too, and conversions is keyEvents' deprecated name", async () => {
    const attributed = await report({
      metrics: ["sessions"],
      dimensions: ["source", "medium", "sourceMedium"],
    });
    expect(attributed.isError, text(attributed)).toBeFalsy();
    const old = await report({ metrics: ["conversions"], dimensions: [] });
    expect(old.isError, text(old)).toBeFalsy();
    expect(text(old)).toContain('"conversions" is a deprecated name of "keyEvents": use the new name.');
    const renamed = await report({ metrics: ["keyEvents"], dimensions: [] });
    expect(renamed.isError, text(renamed)).toBeFalsy();
  });

  it("landingPagePath names landingPage, and says whether this property lists it", async () => {
    const refused = await report({ metrics: ["sessions"], dimensions: ["landingPagePath"] });
    expect(text(refused)).toContain(`GA4's name is "landingPage"`);
    const retried = await report({ metrics: ["sessions"], dimensions: ["landingPage"] });
    if (retried.isError) expect(text(refused)).toContain("which this property's metadata does not list");
    else expect(text(refused)).not.toContain("does not list");
  });

  it("a UA metric put in dimensions is sent to metrics under its GA4 name", async () => {
    const refused = await report({ metrics: ["sessions"], dimensions: ["pageviews"] });
    expect(text(refused)).toContain(`GA4's name is "screenPageViews", a metric: put it in metrics`);
  });

  it("names each problem's field once: no 'Invalid metrics[0]: metrics[0]:'", async () => {
    const refused = await report({ metrics: ["pageviews", "users"], dimensions: ["hostname"] });
    const message = text(refused);
    expect(message).toMatch(/^Invalid metrics\[0\]: "pageviews"/);
    expect(message).not.toMatch(/Invalid (\S+): \1:/);
    expect(message).toContain('metrics[1]: "users"');
    expect(message).toContain('dimensions[0]: "hostname"');
    const fixed = await report({ metrics: ["screenPageViews", "totalUsers"], dimensions: ["hostName"] });
    expect(fixed.isError, text(fixed)).toBeFalsy();
  });

  it("a name with no GA4 equivalent still gets did-you-mean, without the equivalence link", async () => {
    const refused = await report({ metrics: ["sesions"] });
    expect(text(refused)).toContain('did you mean "sessions"');
    expect(text(refused)).not.toContain("reporting-ua-to-ga4-dims-mets");
  });
});
