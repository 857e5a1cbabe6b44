import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GoogleFixture, googleFixture } from "../helpers/fixtures.js";
import { mcpSession } from "../helpers/mcp.js";

const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;
const data = (r: CallToolResult) => r.structuredContent as Record<string, unknown>;

describe("GA steps through MCP: a property by its display name", () => {
  let fixture: GoogleFixture;
  let client: Client;
  let close: () => Promise<void>;
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const report = (property: string) =>
    call("google_analytics_run_reports", { property, metrics: ["sessions"], date_ranges: ["last7days"] });

  beforeAll(async () => {
    fixture = await googleFixture();
    ({ client, close } = await mcpSession(fixture.workspace));
  });
  afterAll(async () => {
    await close();
    await fixture.sandbox.close();
  });

  it("finds a property by its name in any case, and the answer names it with its id", async () => {
    const byName = await report("retail WEB store");
    expect(byName.isError, text(byName)).toBeFalsy();
    expect(data(byName).property).toBe("properties/412345671");
    expect(data(byName).property_name).toBe("Retail Web Store");
    expect(text(byName).split("\n")[0]).toContain("Report on Retail Web Store (properties/412345671)");
    const byId = await report("412345671");
    expect(data(byId).property_name).toBe("Retail Web Store");
    expect(data(byId).rows).toEqual(data(byName).rows);
  });

  it("an unknown name lists the properties with their ids, closest first; a listed id works", async () => {
    const refused = await report("store");
    expect(refused.isError).toBe(true);
    const message = text(refused);
    expect(message).toMatch(
      /no property named "store".*: "Retail Web Store" \(properties\/412345671, account Sandbox Retail\)/,
    );
    expect(message).toContain('"Media Video Portal" (properties/423456789');
    const listed = /properties\/(\d+)/.exec(message)![1]!;
    const retried = await report(listed);
    expect(retried.isError, text(retried)).toBeFalsy();
  });

  it("an ambiguous name lists each candidate with its id; each listed id works", async () => {
    const created = await call("google_analytics_create_properties", {
      analytics_account: "accounts/100002",
      display_name: "Retail Help Center",
      time_zone: "Europe/Paris",
      currency_code: "EUR",
    });
    expect(created.isError, text(created)).toBeFalsy();
    const refused = await report("retail help center");
    expect(refused.isError).toBe(true);
    const ids = [...text(refused).matchAll(/"Retail Help Center" \(properties\/(\d+)/g)].map((m) => m[1]!);
    expect(ids).toHaveLength(2);
    expect(ids).toContain("412345674");
    for (const id of ids) {
      const retried = await report(id);
      expect(retried.isError, text(retried)).toBeFalsy();
      expect(data(retried).property).toBe(`properties/${id}`);
    }
  });

  it("Create Key Events takes a name too and names the property in its answer", async () => {
    const result = await call("google_analytics_create_key_events", {
      property: "Retail Web Store",
      event_name: "never_collected_event",
    });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("Retail Web Store (properties/412345671)");
  });

  it("a measurement ID is still refused as one, not looked up as a name", async () => {
    const refused = await report("G-ABC123");
    expect(text(refused)).toContain("measurement ID");
  });

  it("a display name that is a number, or written without its accents, finds the property", async () => {
    for (const display_name of ["2024", "Café Crème"]) {
      const created = await call("google_analytics_create_properties", {
        analytics_account: "accounts/100002",
        display_name,
        time_zone: "Europe/Paris",
        currency_code: "EUR",
      });
      expect(created.isError, text(created)).toBeFalsy();
    }
    const numeric = await report("2024");
    expect(numeric.isError, text(numeric)).toBeFalsy();
    expect(data(numeric).property_name).toBe("2024");
    const plain = await report("cafe creme");
    expect(plain.isError, text(plain)).toBeFalsy();
    expect(data(plain).property_name).toBe("Café Crème");
    // A listed ID is still the ID.
    expect(data(await report("412345671")).property_name).toBe("Retail Web Store");
  });
});
