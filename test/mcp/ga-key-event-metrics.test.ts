/**
 * Key-event-specific metrics through MCP (agent trial s4, T14): keyEvents:<event> and
 * sessionKeyEventRate:<event> work for a key event of the property; for an event that is not one, the
 * refusal says why and what to run instead, and that works; and once the event is marked as a key event, its
 * metrics are taken at once, though a report just read the property's field list.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GoogleFixture, googleFixture } from "../helpers/fixtures.js";
import { mcpSession } from "../helpers/mcp.js";

const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;
const HELP_CENTER = "412345674"; // generate_lead is one of its key events (sandbox seed)
const WEB_STORE = "412345671"; // add_to_cart is collected, and not a key event

describe("Run Reports with key-event-specific metrics", () => {
  let fixture: GoogleFixture;
  let client: Client;
  let close: () => Promise<void>;
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const report = (property: string, metrics: string[], extra: Record<string, unknown> = {}) =>
    call("google_analytics_run_reports", {
      property,
      metrics,
      dimensions: ["landingPage"],
      date_ranges: ["last28days"],
      ...extra,
    });

  beforeAll(async () => {
    fixture = await googleFixture();
    ({ client, close } = await mcpSession(fixture.workspace));
  });
  afterAll(async () => {
    await close();
    await fixture.sandbox.close();
  });

  it("reports keyEvents:<event> and sessionKeyEventRate:<event> of a key event by landing page", async () => {
    const answer = await report(HELP_CENTER, [
      "sessions",
      "keyEvents:generate_lead",
      "sessionKeyEventRate:generate_lead",
    ]);
    expect(answer.isError, text(answer)).toBeFalsy();
    const rows = (answer.structuredContent as { rows: Record<string, unknown>[] }).rows;
    expect(rows.length).toBeGreaterThan(3);
    expect(rows.some((row) => Number(row["keyEvents:generate_lead"]) > 0)).toBe(true);
    for (const row of rows) {
      expect(Number(row["sessionKeyEventRate:generate_lead"])).toBeGreaterThanOrEqual(0);
      expect(Number(row["sessionKeyEventRate:generate_lead"])).toBeLessThanOrEqual(1);
    }
  });

  it("refuses one of an event that is no key event, says why, and its alternative works; once marked, it is taken at once", async () => {
    const refused = await report(WEB_STORE, ["keyEvents:add_to_cart"]);
    expect(refused.isError).toBe(true);
    const why = text(refused);
    expect(why).toContain('"add_to_cart" is not one of them (its key events: ');
    expect(why).toContain('metric eventCount with the filter eventName == "add_to_cart"');
    expect(why).toContain("google_analytics_create_key_events");
    // Not sent to the metadata: the name's form is right, the event is what is missing.
    expect(why).not.toContain("Use API names from the property's metadata");

    const instead = await report(WEB_STORE, ["eventCount"], { filter: 'eventName == "add_to_cart"' });
    expect(instead.isError, text(instead)).toBeFalsy();
    const rows = (instead.structuredContent as { rows: Record<string, unknown>[] }).rows;
    expect(rows.some((row) => Number(row.eventCount) > 0)).toBe(true);

    const rate = await report(WEB_STORE, ["sessionKeyEventRate:add_to_cart"]);
    expect(text(rate)).toContain('run sessions (or totalUsers) with the filter eventName == "add_to_cart"');
    const withIt = await report(WEB_STORE, ["sessions", "totalUsers"], {
      filter: 'eventName == "add_to_cart"',
    });
    expect(withIt.isError, text(withIt)).toBeFalsy();
    const all = await report(WEB_STORE, ["sessions"]);
    const sessions = (r: CallToolResult) =>
      new Map(
        (r.structuredContent as { rows: Record<string, unknown>[] }).rows.map((row) => [
          row.landingPage,
          Number(row.sessions),
        ]),
      );
    for (const [page, count] of sessions(withIt))
      expect(count).toBeLessThanOrEqual(sessions(all).get(page) ?? 0);

    const marked = await call("google_analytics_create_key_events", {
      property: WEB_STORE,
      event_name: "add_to_cart",
    });
    expect(marked.isError, text(marked)).toBeFalsy();
    const after = await report(WEB_STORE, ["keyEvents:add_to_cart", "sessionKeyEventRate:add_to_cart"]);
    expect(after.isError, text(after)).toBeFalsy();
  });
});
