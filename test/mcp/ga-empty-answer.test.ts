/**
 * Issue 27 §4: an empty Admin answer reads "no items", not "1 object". Google omits an empty list from a
 * list answer (proto3 JSON), so listing the custom dimensions of a new property answers {}.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GoogleFixture, googleFixture } from "../helpers/fixtures.js";
import { type McpSession, mcpSession } from "../helpers/mcp.js";

let fixture: GoogleFixture;
let session: McpSession;

beforeAll(async () => {
  fixture = await googleFixture();
  session = await mcpSession(fixture.workspace);
});
afterAll(async () => {
  await session.close();
  await fixture.sandbox.close();
});

const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;

describe("an empty Admin answer", () => {
  it("reads no items, and the list it stands for is empty", async () => {
    const created = (await session.client.callTool({
      name: "google_analytics_create_properties",
      arguments: { display_name: "Empty answers", time_zone: "Europe/Paris", analytics_account: "100001" },
    })) as CallToolResult;
    expect(created.isError, text(created)).toBeFalsy();
    const id = (created.structuredContent as { property: { property_id: string } }).property.property_id;
    const listed = (await session.client.callTool({
      name: "google_analytics_api_call",
      arguments: { method: "GET", endpoint: `v1beta/properties/${id}/customDimensions` },
    })) as CallToolResult;
    expect(listed.isError, text(listed)).toBeFalsy();
    expect((listed.structuredContent as { body: unknown }).body).toEqual({});
    expect(text(listed)).toContain("no items");
    expect(text(listed)).not.toContain("1 object");
  });
});
