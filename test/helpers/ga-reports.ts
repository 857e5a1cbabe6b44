import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll } from "vitest";
import { type GoogleFixture, googleFixture } from "./fixtures.js";
import { mcpSession } from "./mcp.js";

/** A result's first text part (the summary, or the error's message). */
export const firstText = (r: CallToolResult): string => (r.content[0] as { text: string }).text;

/**
 * google_analytics_run_reports through MCP on the Google sandbox, set up before the calling describe's tests and
 * closed after them; `report` fills in `property` unless the arguments give one.
 */
export function gaReports(
  property = "412345671",
): (args: Record<string, unknown>) => Promise<CallToolResult> {
  let fixture: GoogleFixture;
  let client: Client;
  let close: () => Promise<void>;
  beforeAll(async () => {
    fixture = await googleFixture();
    ({ client, close } = await mcpSession(fixture.workspace));
  });
  afterAll(async () => {
    await close();
    await fixture.sandbox.close();
  });
  return async (args) =>
    (await client.callTool({
      name: "google_analytics_run_reports",
      arguments: { property, ...args },
    })) as CallToolResult;
}
