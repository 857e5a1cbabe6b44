/**
 * Trial s17, N175: five properties' data streams and secrets took ten google_analytics_api_call calls. A GET
 * of a path with {property} reads it once per property of query_parameters.property (ids, names, or "all")
 * in one call. Invariants on the sandbox: the joined list is exactly the union of each property's own read,
 * each item tagged with its property; a non-list answer is one entry per property, equal to its own read; a
 * property Google refuses is named in errors while the others are kept.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { firstText, gaOverMcp } from "../helpers/ga-mcp.js";

const ga = gaOverMcp();
const api = (args: Record<string, unknown>) => ga.call("google_analytics_api_call", args);
const body = (r: CallToolResult) => (r.structuredContent as { body: Record<string, unknown> }).body;

async function propertyIds(): Promise<string[]> {
  const summaries = body(await api({ method: "GET", endpoint: "v1beta/accountSummaries" })) as {
    accountSummaries: { propertySummaries?: { property: string }[] }[];
  };
  return summaries.accountSummaries.flatMap((a) => (a.propertySummaries ?? []).map((p) => p.property));
}

describe("a GET of v1beta/properties/{property}/… over several properties", () => {
  it("joins lists where some properties have none (Google answers {}) (trial s24, N309)", async () => {
    const joined = await api({
      method: "GET",
      endpoint: "v1beta/properties/{property}/customDimensions",
      query_parameters: { property: "all" },
    });
    expect(joined.isError, firstText(joined)).toBeFalsy();
    const ids = await propertyIds();
    const one = async (property: string) =>
      (
        (body(await api({ method: "GET", endpoint: `v1beta/${property}/customDimensions` }))
          .customDimensions ?? []) as object[]
      ).map((dimension) => ({ property, ...dimension }));
    const each = await Promise.all(ids.map(one));
    // Some property has none, and some has some: the case that failed.
    expect(each.some((list) => list.length === 0)).toBe(true);
    expect(each.some((list) => list.length > 0)).toBe(true);
    expect(body(joined).customDimensions).toEqual(each.flat());
  });

  it("a list no property has any of is that list, empty, not one entry per property (review s28, finding 9)", async () => {
    const endpoint = "v1beta/properties/{property}/firebaseLinks";
    const all = await api({ method: "GET", endpoint, query_parameters: { property: "all" } });
    expect(all.isError, firstText(all)).toBeFalsy();
    expect(body(all)).toEqual({ firebaseLinks: [] });
    expect(firstText(all)).toContain("0 firebaseLinks, read for");
  });

  it("a path every property refuses alike is refused once (review s28, finding 15)", async () => {
    const all = await api({
      method: "GET",
      endpoint: "v1beta/properties/{property}/accessBindings",
      query_parameters: { property: "all" },
    });
    expect(all.isError).toBe(true);
    expect(firstText(all).split("v1alpha only")).toHaveLength(2);
    // Refusals alike but for the property's id too: a mistyped collection (review s29, finding 13).
    const mistyped = await api({
      method: "GET",
      endpoint: "v1beta/properties/{property}/bogusThings",
      query_parameters: { property: "all" },
    });
    expect(mistyped.isError).toBe(true);
    expect(firstText(mistyped).split("is no GA4").length).toBe(2);
  });

  it('"all" joins every property\'s list, each item tagged, equal to the reads one by one', async () => {
    const joined = await api({
      method: "GET",
      endpoint: "v1beta/properties/{property}/dataStreams",
      query_parameters: { property: "all" },
    });
    expect(joined.isError, firstText(joined)).toBeFalsy();
    const ids = await propertyIds();
    expect(firstText(joined)).toContain(`read for ${ids.length} properties (${ids.length} calls)`);
    const one = async (property: string) =>
      (
        (body(await api({ method: "GET", endpoint: `v1beta/${property}/dataStreams` })).dataStreams ??
          []) as object[]
      ).map((stream) => ({ property, ...stream }));
    const want = (await Promise.all(ids.map(one))).flat();
    expect(body(joined).dataStreams).toEqual(want);
    expect(body(joined).errors).toBeUndefined();
  });

  it("a non-list answer is one entry per property, and a property Google refuses is named", async () => {
    const joined = await api({
      method: "GET",
      endpoint: "v1beta/properties/{property}/dataRetentionSettings",
      query_parameters: { property: [412345671, "Media News Site", 999] },
    });
    expect(joined.isError, firstText(joined)).toBeFalsy();
    const results = body(joined).results as { property: string }[];
    expect(results.map((r) => r.property)).toEqual(["properties/412345671", "properties/423456787"]);
    for (const result of results) {
      const { property, ...rest } = result;
      expect(rest).toEqual(
        body(await api({ method: "GET", endpoint: `v1beta/${property}/dataRetentionSettings` })),
      );
    }
    expect(body(joined).errors).toEqual([
      { property: "properties/999", error: expect.stringContaining("NOT_FOUND") },
    ]);
  });

  it("is refused without the properties, and the hint's form runs; a write with {property} is refused", async () => {
    const refused = await api({ method: "GET", endpoint: "v1beta/properties/{property}/customDimensions" });
    expect(refused.isError).toBe(true);
    expect(firstText(refused)).toContain("query_parameters.property");
    const hinted = await api({
      method: "GET",
      endpoint: "v1beta/properties/{property}/customDimensions",
      query_parameters: { property: [412345671, "Retail Web Store"] },
    });
    expect(hinted.isError, firstText(hinted)).toBeFalsy();
    const write = await api({
      method: "POST",
      endpoint: "v1beta/properties/{property}/customDimensions",
      query_parameters: { property: "all" },
      body: { displayName: "x" },
    });
    expect(write.isError).toBe(true);
    expect(firstText(write)).toContain("by GET only");
  });
});
