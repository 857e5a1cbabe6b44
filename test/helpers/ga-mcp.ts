import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll } from "vitest";
import { type GoogleFixture, googleFixture } from "./fixtures.js";
import { mcpSession } from "./mcp.js";

/**
 * The set-up the tests of the GA4 tools through MCP share: a Google sandbox, an MCP session on its workspace
 * (made in the file's beforeAll, closed in its afterAll), and a call of any tool by name.
 */
export interface GaMcp {
  readonly fixture: GoogleFixture;
  readonly client: Client;
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
}

/**
 * A property's first day (its createTime in its zone) and today there, as the step reads them: the sandbox's
 * properties begin a fixed number of days before today, so their first day moves with the clock.
 */
export async function propertySpan(ga: GaMcp, property: string): Promise<{ first: string; today: string }> {
  const result = await ga.call("google_analytics_api_call", {
    method: "GET",
    endpoint: `v1beta/properties/${property}`,
  });
  const facts = result.structuredContent as { body?: { createTime?: string; timeZone?: string } };
  const zone = facts.body?.timeZone ?? "UTC";
  const day = (at: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: zone }).format(at);
  return { first: day(new Date(String(facts.body?.createTime))), today: day(new Date()) };
}

/** An answer's first text part (the summary, or the error's message). */
export const firstText = (result: CallToolResult): string => (result.content[0] as { text: string }).text;

/** `now`: the sandbox's clock, for a test whose data must not move with the real one. */
export function gaOverMcp(now?: () => number): GaMcp {
  let fixture: GoogleFixture | undefined;
  let session: { client: Client; close: () => Promise<void> } | undefined;
  const up = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("gaOverMcp: used before its beforeAll ran");
    return value;
  };
  beforeAll(async () => {
    fixture = await googleFixture(now);
    session = await mcpSession(fixture.workspace);
  });
  afterAll(async () => {
    await session?.close();
    await fixture?.sandbox.close();
  });
  const on: GaMcp = {
    get fixture() {
      return up(fixture);
    },
    get client() {
      return up(session).client;
    },
    call: async (name, args) => (await on.client.callTool({ name, arguments: args })) as CallToolResult,
  };
  return on;
}
