import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuzzStep, GOOGLE_CASES, useFuzzWorkspace } from "../../helpers/fake-services/guard-fuzz.js";
import { endpoints, GOOGLE_PREFIXES } from "../../helpers/fake-services/hostile-paths.js";

describe("google_analytics_api_call endpoint guard under fast-check, judged by what the server received", () => {
  const opened = useFuzzWorkspace();

  it(`${GOOGLE_CASES} endpoints: each refused before sending, or sent to /v1beta/ of the Data or Admin API`, {
    timeout: 120_000,
  }, async () => {
    const { harness, context } = opened();
    const fake = harness.google.server;
    const result = await fuzzStep({
      tool: "google_analytics_api_call",
      context,
      server: fake,
      // The fake serves OAuth on the same host as both APIs: no endpoint may reach it.
      judge: { host: fake.host, prefixes: ["/data/v1beta/", "/admin/v1beta/"], identity: "/oauth/token" },
      input: fc.record({
        method: fc.constantFrom("GET", "POST", "PATCH", "DELETE"),
        endpoint: endpoints(GOOGLE_PREFIXES),
        query_parameters: fc.constant({ updateMask: "display_name", filter: "parent:accounts/1" }),
      }),
      numRuns: GOOGLE_CASES,
    });
    // Figures for the README: cases, requests the server received, endpoints refused before sending.
    console.log(`GA4 guard: ${GOOGLE_CASES} cases, ${result.sent} sent, ${result.refused} refused`);
    expect(result.sent).toBeGreaterThan(1_000);
    expect(result.refused).toBeGreaterThan(1_000);
    // Only the import's refresh reached the token endpoint: the access token was cached throughout.
    expect(fake.to("/oauth/").length).toBe(1);
  });
});
