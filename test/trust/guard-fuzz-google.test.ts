import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolContext } from "../../src/tools/types.js";
import type { Workspace } from "../../src/workspace.js";
import { endpoints, fuzzStep, fuzzWorkspace, GOOGLE_CASES, GOOGLE_PREFIXES } from "./helpers/guard-fuzz.js";
import type { Harness } from "./helpers/harness.js";

describe("google_analytics_api_call endpoint guard under fast-check, judged by what the server received", () => {
  let harness: Harness;
  let workspace: Workspace;
  let context: ToolContext;
  beforeAll(async () => {
    ({ harness, workspace, context } = await fuzzWorkspace());
  });
  afterAll(async () => {
    await workspace.close();
    await harness.close();
  });

  it(`${GOOGLE_CASES} endpoints: each refused before sending, or sent to /v1beta/ of the Data or Admin API`, {
    timeout: 120_000,
  }, async () => {
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
