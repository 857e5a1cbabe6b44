/**
 * Admin settings Google publishes only in the v1alpha Admin API, through the API Call step (agent trial s10,
 * second run, N73: a v1beta path to Google signals read "is no GA4 Admin API method. Check the path", and the
 * v1alpha retry was refused without saying the setting cannot be read here). Either version is refused before
 * anything is sent, naming the setting, Google's reference and where a person reads it; the setting the
 * refusal offers instead is read by doing what it says; and v1beta really has none of these paths.
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
const SETTINGS = [
  [
    "googleSignalsSettings",
    "Google signals settings",
    "Admin > Data collection and modification > Data collection",
  ],
  ["attributionSettings", "Attribution settings", "Admin > Data display > Attribution settings"],
  ["channelGroups", "Custom channel groups", "Admin > Data display > Channel groups"],
] as const;

describe("Admin settings only in v1alpha", () => {
  let fixture: GoogleFixture;
  let client: Client;
  let close: () => Promise<void>;
  const call = async (args: Record<string, unknown>) =>
    (await client.callTool({ name: "google_analytics_api_call", arguments: args })) as CallToolResult;

  beforeAll(async () => {
    fixture = await googleFixture();
    ({ client, close } = await mcpSession(fixture.workspace));
  });
  afterAll(async () => {
    await close();
    await fixture.sandbox.close();
  });

  it.each(
    SETTINGS.flatMap((setting) => ["v1alpha", "v1beta"].map((version) => [version, ...setting] as const)),
  )(
    "%s %s is refused before it is sent, saying it is v1alpha only and where a person reads it",
    async (version, resource, what, screen) => {
      const before = fixture.sandbox.stats().adminRequests;
      const answer = await call({ method: "GET", endpoint: `${version}/properties/${PROPERTY}/${resource}` });
      expect(answer.isError).toBe(true);
      const said = text(answer);
      expect(said).toContain(`${what} (${resource}) are in Google's Admin API v1alpha only`);
      expect(said).toContain(
        `developers.google.com/analytics/devguides/config/admin/v1/rest/v1alpha/properties`,
      );
      expect(said).toContain(screen);
      expect(said).not.toContain("Check the path");
      expect(said).not.toContain("did you mean");
      expect(fixture.sandbox.stats().adminRequests).toBe(before);
    },
  );

  it("the setting the refusal offers is read by doing what it says", async () => {
    const refused = text(
      await call({ method: "GET", endpoint: `v1beta/properties/${PROPERTY}/googleSignalsSettings` }),
    );
    const offered = /\(GET (v1beta\/properties\/\{id\}\/\w+)\)/.exec(refused)?.[1];
    expect(offered, refused).toBeDefined();
    const read = await call({ method: "GET", endpoint: offered?.replace("{id}", PROPERTY) });
    expect(read.isError, text(read)).toBeFalsy();
    expect(text(read)).toMatch(/eventDataRetention/);
  });

  it.each(["v1alpha", "v1beta"])(
    "%s users' access (accessBindings) of an account or a property is refused the same way (trial s24, N314)",
    async (version) => {
      for (const parent of ["accounts/100001", `properties/${PROPERTY}`]) {
        const before = fixture.sandbox.stats().adminRequests;
        const answer = await call({ method: "GET", endpoint: `${version}/${parent}/accessBindings` });
        expect(answer.isError).toBe(true);
        const said = text(answer);
        expect(said).toContain(
          "Users' access and roles (accessBindings) are in Google's Admin API v1alpha only",
        );
        expect(said).toContain("Account access management");
        expect(said).not.toContain("is no GA4 Admin API method");
        expect(fixture.sandbox.stats().adminRequests).toBe(before);
      }
      // Nor has v1beta such a path (Google's discovery document).
      expect(realPaths(GA4_ADMIN_PATHS).find("/v1beta/accounts/100001/accessBindings")).toBeUndefined();
    },
  );

  it("v1beta has none of these paths (Google's discovery document)", () => {
    const admin = realPaths(GA4_ADMIN_PATHS);
    for (const [resource] of SETTINGS) {
      expect(admin.find(`/v1beta/properties/${PROPERTY}/${resource}`), resource).toBeUndefined();
    }
    expect(admin.find(`/v1beta/properties/${PROPERTY}/dataRetentionSettings`)).toBeDefined();
  });
});
