/**
 * Trial s17, N168: creating a measurement protocol secret through google_analytics_api_call put its
 * secretValue (which lets anyone send hits into the property) into the tool's result and the trial's call log.
 * DESIGN.md: no secret in any tool result. Created and listed, the value is in Google (the sandbox answers it
 * to a direct call) but in no part of the MCP answers: text, structured content, or the kept full result.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { WITHHELD_SECRET } from "../../src/tools/ga/api-call-secrets.js";
import { firstText, gaOverMcp } from "../helpers/ga-mcp.js";

const ga = gaOverMcp();
const api = (args: Record<string, unknown>) => ga.call("google_analytics_api_call", args);
const everything = (result: CallToolResult) => JSON.stringify(result);

/** The secrets as Google itself lists them, read with a token of the sandbox's own. */
async function secretsInGoogle(stream: string): Promise<string[]> {
  const { sandbox } = ga.fixture;
  const refresh = sandbox.issueRefreshToken("editor@sandbox.example");
  const token = await fetch(`${sandbox.oauthUrl}/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "refresh_token",
      refresh_token: refresh,
      client_id: sandbox.clientId,
      client_secret: sandbox.clientSecret,
    }),
  }).then((r) => r.json() as Promise<{ access_token: string }>);
  const listed = await fetch(`${sandbox.adminApiUrl}/v1beta/${stream}/measurementProtocolSecrets`, {
    headers: { authorization: `Bearer ${token.access_token}` },
  }).then((r) => r.json() as Promise<{ measurementProtocolSecrets?: { secretValue: string }[] }>);
  return (listed.measurementProtocolSecrets ?? []).map((s) => s.secretValue);
}

describe("a measurement protocol secret", () => {
  it("is created and listed with its value withheld from every part of the answer", async () => {
    const streams = await api({ method: "GET", endpoint: "v1beta/properties/412345671/dataStreams" });
    const stream = (streams.structuredContent as { body: { dataStreams: { name: string }[] } }).body
      .dataStreams[0]?.name as string;
    const created = await api({
      method: "POST",
      endpoint: `v1beta/${stream}/measurementProtocolSecrets`,
      body: { displayName: "server hits" },
    });
    expect(created.isError, firstText(created)).toBeFalsy();
    const listed = await api({ method: "GET", endpoint: `v1beta/${stream}/measurementProtocolSecrets` });
    const values = await secretsInGoogle(stream);
    expect(values.length).toBeGreaterThan(0);
    for (const answer of [created, listed]) {
      for (const value of values) expect(everything(answer)).not.toContain(value);
      expect(everything(answer)).toContain(WITHHELD_SECRET);
      expect(everything(answer)).toContain("secret value was withheld");
    }
    const body = (created.structuredContent as { body: { displayName: string; name: string } }).body;
    expect(body.displayName).toBe("server hits");
    expect(body.name).toContain("/measurementProtocolSecrets/");
  });
});
