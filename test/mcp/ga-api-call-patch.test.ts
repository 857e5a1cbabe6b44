/**
 * Trial s23, N295: the agent wrote updateMask in the resource's own camelCase (`currencyCode`), met Google's
 * refusal, and told the marketer that past revenue stays in the old currency. A PATCH's updateMask goes to Google in
 * snake_case, saying so; a currency change says that Google converts past revenue too.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { firstText, gaOverMcp } from "../helpers/ga-mcp.js";

const ga = gaOverMcp();
const api = (args: Record<string, unknown>) => ga.call("google_analytics_api_call", args);
const data = (r: CallToolResult) =>
  r.structuredContent as { body: Record<string, unknown>; warnings: string[] };

describe("a PATCH of a property through google_analytics_api_call", () => {
  it("sends a camelCase updateMask in snake_case, says so, and says a currency change converts the past", async () => {
    const endpoint = "v1beta/properties/423456789";
    const patched = await api({
      method: "PATCH",
      endpoint,
      query_parameters: { updateMask: "currencyCode,displayName" },
      body: { currencyCode: "USD", displayName: "Media Video Portal (USD)" },
    });
    expect(patched.isError, firstText(patched)).toBeFalsy();
    const { warnings } = data(patched);
    expect(warnings).toContain(
      'updateMask "currencyCode,displayName" was sent as "currency_code,display_name": the Admin API names the fields to change in snake_case.',
    );
    expect(warnings.join(" ")).toContain("converts its revenue in reports, the past included");
    const read = data(await api({ method: "GET", endpoint })).body;
    expect(read).toMatchObject({ currencyCode: "USD", displayName: "Media Video Portal (USD)" });
  });

  it("says nothing of currency for another field, and sends a snake_case mask as it is", async () => {
    const patched = await api({
      method: "PATCH",
      endpoint: "v1beta/properties/423456787",
      query_parameters: { updateMask: "display_name" },
      body: { displayName: "Media News Site" },
    });
    expect(patched.isError, firstText(patched)).toBeFalsy();
    expect(data(patched).warnings).toEqual([]);
  });

  it("takes a list of names in camelCase too (review s27, finding 11)", async () => {
    const patched = await api({
      method: "PATCH",
      endpoint: "v1beta/properties/412345674",
      query_parameters: { updateMask: ["currencyCode", "displayName"] },
      body: { currencyCode: "EUR", displayName: "Retail Help Center" },
    });
    expect(patched.isError, firstText(patched)).toBeFalsy();
    expect(data(patched).warnings.join(" ")).toContain('was sent as "currency_code,display_name"');
  });

  it("changes every field of a list of snake_case names, not only the first (review s28, finding 4)", async () => {
    const endpoint = "v1beta/properties/412345674";
    const patched = await api({
      method: "PATCH",
      endpoint,
      query_parameters: { updateMask: ["display_name", "time_zone"] },
      body: { timeZone: "Europe/Berlin", displayName: "Retail Help Center X" },
    });
    expect(patched.isError, firstText(patched)).toBeFalsy();
    expect(data(await api({ method: "GET", endpoint })).body).toMatchObject({
      timeZone: "Europe/Berlin",
      displayName: "Retail Help Center X",
    });
  });

  it('says a currency change converts the past with a "*" mask too (review s27, finding 11)', async () => {
    const endpoint = "v1beta/properties/423456787";
    const patched = await api({
      method: "PATCH",
      endpoint,
      query_parameters: { updateMask: "*" },
      body: { ...data(await api({ method: "GET", endpoint })).body, currencyCode: "GBP" },
    });
    expect(patched.isError, firstText(patched)).toBeFalsy();
    expect(data(patched).warnings.join(" ")).toContain("converts its revenue in reports, the past included");
    expect(data(await api({ method: "GET", endpoint })).body).toMatchObject({ currencyCode: "GBP" });
  });
});
