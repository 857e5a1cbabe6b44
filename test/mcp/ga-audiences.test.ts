/**
 * Audiences through the API Call step (agent trial s4, T18): in v1alpha or v1beta, the answer says plainly
 * that these tools cannot create them and what to do instead, and the sizing it offers (a funnel) runs. A
 * wrong path's "did you mean" names only a path close to it where they differ, never another resource.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GA4_ADMIN_PATHS } from "../../src/real-paths.generated.js";
import { realPaths } from "../../src/real-paths.js";
import { type GoogleFixture, googleFixture } from "../helpers/fixtures.js";
import { mcpSession } from "../helpers/mcp.js";

const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;
const PROPERTY = "412345671";
const AUDIENCE = {
  displayName: "Cart abandoners",
  membershipDurationDays: 30,
  filterClauses: [],
};

describe("audiences and near paths", () => {
  let fixture: GoogleFixture;
  let client: Client;
  let close: () => Promise<void>;
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;

  beforeAll(async () => {
    fixture = await googleFixture();
    ({ client, close } = await mcpSession(fixture.workspace));
  });
  afterAll(async () => {
    await close();
    await fixture.sandbox.close();
  });

  it.each(["v1alpha", "v1beta"])(
    "creating an audience under %s is refused plainly, with what to do instead",
    async (version) => {
      const answer = await call("google_analytics_api_call", {
        method: "POST",
        endpoint: `${version}/properties/${PROPERTY}/audiences`,
        body: AUDIENCE,
      });
      expect(answer.isError).toBe(true);
      const said = text(answer);
      expect(said).toContain("Audiences cannot be created, read or changed with these tools");
      expect(said).toContain("Admin > Data display > Audiences > New audience");
      expect(said).not.toContain("every other method is under v1beta");
      expect(said).not.toContain("did you mean");
    },
  );

  it("the sizing the refusal offers runs: a funnel of the audience's events", async () => {
    const sized = await call("google_analytics_run_reports", {
      property: PROPERTY,
      funnel: { steps: ["add_to_cart", "purchase"] },
      date_ranges: ["last7days"],
    });
    expect(sized.isError, text(sized)).toBeFalsy();
    expect(text(sized)).toContain("add_to_cart");
  });

  it("a path's typo is offered the real path, whose call then works", async () => {
    const typo = await call("google_analytics_api_call", {
      method: "GET",
      endpoint: `v1beta/properties/${PROPERTY}/keyEvent`,
    });
    expect(typo.isError).toBe(true);
    expect(text(typo)).toContain("did you mean /v1beta/properties/{propertiesId}/keyEvents?");
    const listed = await call("google_analytics_api_call", {
      method: "GET",
      endpoint: `v1beta/properties/${PROPERTY}/keyEvents`,
    });
    expect(listed.isError, text(listed)).toBeFalsy();
  });

  it("another resource is never the nearest path, however long the start they share", () => {
    const admin = realPaths(GA4_ADMIN_PATHS);
    expect(admin.nearest("/v1beta/properties/412345671/audiences")).toBeUndefined();
    expect(admin.nearest("/v1beta/properties/412345671/segments")).toBeUndefined();
    expect(admin.nearest("/v1beta/properties/412345671/customDimension")).toBe(
      "/v1beta/properties/{propertiesId}/customDimensions",
    );
  });
});
