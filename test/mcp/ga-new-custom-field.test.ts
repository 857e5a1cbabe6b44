/**
 * A custom dimension created a moment ago, through the API Call step, is a dimension Run Reports takes at
 * once, though a report just read the property's field list; a name the property truly lacks is still
 * refused, and a run of such names reads the field list again at most once per 30 s (counted on the wire).
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type GoogleFixture, googleFixture } from "../helpers/fixtures.js";
import { mcpSession } from "../helpers/mcp.js";

const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;
const PROPERTY = "412345671";

describe("Run Reports and a custom dimension created a moment ago", () => {
  let fixture: GoogleFixture;
  let client: Client;
  let close: () => Promise<void>;
  const metadataReads: string[] = [];
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const report = (dimensions: string[]) =>
    call("google_analytics_run_reports", { property: PROPERTY, metrics: ["eventCount"], dimensions });

  beforeAll(async () => {
    fixture = await googleFixture();
    ({ client, close } = await mcpSession(fixture.workspace));
    const fetch = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.endsWith(`/properties/${PROPERTY}/metadata`)) metadataReads.push(url);
      return fetch(input, init);
    });
  });
  afterEach(() => {
    metadataReads.length = 0;
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await close();
    await fixture.sandbox.close();
  });

  it("takes a custom dimension created after a report read the field list", async () => {
    const before = await report(["eventName"]);
    expect(before.isError, text(before)).toBeFalsy();
    const created = await call("google_analytics_api_call", {
      method: "POST",
      endpoint: `v1beta/properties/${PROPERTY}/customDimensions`,
      body: { parameterName: "plan_tier", displayName: "Plan tier", scope: "EVENT" },
    });
    expect(created.isError, text(created)).toBeFalsy();
    const after = await report(["customEvent:plan_tier"]);
    expect(after.isError, text(after)).toBeFalsy();
    expect(text(after)).toContain("customEvent:plan_tier");
  });

  it("refuses a name the property lacks after reading the list again once, and not again for 30 s", async () => {
    const first = await report(["customEvent:no_such_parameter"]);
    expect(first.isError).toBe(true);
    expect(text(first)).toContain('"customEvent:no_such_parameter" is not a dimension of this property');
    const reads = metadataReads.length;
    expect(reads).toBeLessThanOrEqual(2);
    for (const name of ["customEvent:nope_1", "customEvent:nope_2", "customEvent:nope_3"]) {
      const refused = await report([name]);
      expect(refused.isError).toBe(true);
      expect(text(refused)).toContain(`"${name}" is not a dimension of this property`);
    }
    expect(metadataReads.length).toBe(reads);
  });
});
