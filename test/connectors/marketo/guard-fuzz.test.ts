import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuzzStep, MARKETO_CASES, useFuzzWorkspace } from "../../helpers/fake-services/guard-fuzz.js";
import { endpoints, MARKETO_PREFIXES } from "../../helpers/fake-services/hostile-paths.js";

describe("marketo_api_call endpoint guard under fast-check, judged by what the server received", () => {
  const opened = useFuzzWorkspace();

  it(`${MARKETO_CASES} endpoints: each refused before sending, or sent to /rest/ or /bulk/ of the instance`, {
    timeout: 120_000,
  }, async () => {
    const { harness, context } = opened();
    const fake = harness.marketo.server;
    const result = await fuzzStep({
      tool: "marketo_api_call",
      context,
      server: fake,
      judge: { host: fake.host, prefixes: ["/rest/", "/bulk/"], identity: "/identity/oauth/token" },
      input: fc.record({
        method: fc.constantFrom("GET", "POST", "DELETE"),
        endpoint: endpoints(MARKETO_PREFIXES),
      }),
      numRuns: MARKETO_CASES,
    });
    // Both outcomes are exercised, and the identity endpoint saw only the connector's own token requests.
    // Figures for the README: cases, requests the server received, endpoints refused before sending.
    console.log(`Marketo guard: ${MARKETO_CASES} cases, ${result.sent} sent, ${result.refused} refused`);
    expect(result.sent).toBeGreaterThan(1_000);
    expect(result.refused).toBeGreaterThan(1_000);
    const identity = fake.to("/identity");
    expect(identity.length).toBeGreaterThan(0);
    for (const seen of identity) {
      expect(seen.path).toBe("/identity/oauth/token");
      expect(seen.headers.authorization).toBeUndefined();
      expect(seen.body).toMatch(/^grant_type=client_credentials&/);
    }
  });
});
