/**
 * Trial s25, N317: the property's custom definitions were on the later pages of a 376-dimension metadata answer,
 * which cost two reads of 30,000 characters. The summary names them, each as the Admin API defines it.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { firstText, gaOverMcp } from "../helpers/ga-mcp.js";

const ga = gaOverMcp();
const api = (args: Record<string, unknown>) => ga.call("google_analytics_api_call", args);
const body = (r: CallToolResult) => (r.structuredContent as { body: Record<string, unknown[]> }).body;
const PREFIX: Record<string, string> = { EVENT: "customEvent", USER: "customUser", ITEM: "customItem" };

describe("a metadata answer's custom definitions", () => {
  it("are named in the summary, each the Admin API's custom dimension or metric", async () => {
    for (const property of ["412345671", "423456787"]) {
      const meta = await api({ method: "GET", endpoint: `v1beta/properties/${property}/metadata` });
      expect(meta.isError, firstText(meta)).toBeFalsy();
      const [summary = ""] = firstText(meta).split("\n");
      for (const kind of ["customDimensions", "customMetrics"]) {
        const defined = await api({ method: "GET", endpoint: `v1beta/properties/${property}/${kind}` });
        for (const item of (body(defined)[kind] ?? []) as {
          parameterName: string;
          displayName: string;
          scope: string;
        }[])
          expect(summary, property).toContain(
            `${PREFIX[item.scope]}:${item.parameterName} (${item.displayName})`,
          );
      }
    }
    const empty = await api({ method: "GET", endpoint: "v1beta/properties/412345680/metadata" });
    expect(firstText(empty)).toContain("The property has no custom definitions");
  });

  it("over several properties, lists each one's custom definitions within the cap (review s30, finding 6: 114,000 characters)", async () => {
    const all = await api({
      method: "GET",
      endpoint: "v1beta/properties/{property}/metadata",
      query_parameters: { property: "all" },
    });
    expect(all.isError, firstText(all)).toBeFalsy();
    const text = (all.content as { text?: string }[]).map((c) => c.text ?? "").join("\n");
    expect(text.length).toBeLessThan(45_000);
    expect(JSON.stringify(all.structuredContent).length).toBeLessThan(45_000);
    // One property through {property} is its own path's answer, names and all (review s31, 6; review s49).
    const one = await api({
      method: "GET",
      endpoint: "v1beta/properties/{property}/metadata",
      query_parameters: { property: "423456787" },
    });
    const own = await api({ method: "GET", endpoint: "v1beta/properties/423456787/metadata" });
    const shown = body(one) as unknown as { dimensions: string[] };
    expect(shown.dimensions.length).toBeGreaterThan(300);
    expect(shown.dimensions).toEqual((body(own) as unknown as { dimensions: string[] }).dimensions);
    expect((one.content as { text?: string }[]).map((c) => c.text ?? "").join("\n").length).toBeLessThan(
      25_000,
    );
    expect(firstText(one)).not.toContain("Each property's custom definitions");
    expect(firstText(one)).toContain("read for 1 property (1 call)");
    // One property refused is refused, as its own path is (review s52, 12).
    const refused = await api({
      method: "GET",
      endpoint: "v1beta/properties/{property}/metadata",
      query_parameters: { property: "999999999" },
    });
    const alone = await api({ method: "GET", endpoint: "v1beta/properties/999999999/metadata" });
    expect(alone.isError).toBe(true);
    expect(refused.isError, firstText(refused)).toBe(true);
    const results = (body(all) as unknown as { results: { property: string; dimensions: unknown[] }[] })
      .results;
    expect(results.length).toBeGreaterThan(1);
    const [summary = ""] = firstText(all).split("\n");
    expect(summary).toContain("Each property's custom definitions");
    // Each property's, as its own metadata answer names them.
    for (const result of results) {
      const id = result.property.replace("properties/", "");
      const one = await api({ method: "GET", endpoint: `v1beta/properties/${id}/metadata` });
      const own = /The property's custom definitions: (.*?)\.(?:\s|$)/.exec(firstText(one))?.[1];
      expect(summary, id).toContain(`${result.property}: ${own ?? "none"}`);
    }
  });

  it("shows one property's dimensions and metrics as names, Google's whole answer a row each in the full result (trials s38 N547, s40 N569: 34,000–42,000 characters)", async () => {
    const meta = await api({ method: "GET", endpoint: "v1beta/properties/412345671/metadata" });
    expect(meta.isError, firstText(meta)).toBeFalsy();
    const text = (meta.content as { text?: string }[]).map((c) => c.text ?? "").join("\n");
    expect(text.length).toBeLessThan(25_000);
    const shown = body(meta) as unknown as { dimensions: string[]; metrics: string[] };
    // The full result's rows, read whole: every one, with Google's fields, named once in the answer (names = whole).
    const link = (meta.content as { type: string; uri?: string; mimeType?: string }[]).find(
      (c) => c.type === "resource_link" && c.mimeType === "application/json",
    )?.uri;
    expect(link, text).toBeDefined();
    const read = await ga.client.readResource({ uri: `${String(link).replace(/\?.*$/, "")}?page=all` });
    const rows = JSON.parse((read.contents[0] as { text: string }).text) as {
      kind: string;
      apiName: string;
      uiName: string;
      description?: string;
      customDefinition?: boolean;
    }[];
    for (const [kind, list] of [
      ["dimension", shown.dimensions],
      ["metric", shown.metrics],
    ] as const) {
      const own = rows.filter((row) => row.kind === kind);
      expect(own.length).toBeGreaterThan(0);
      expect(own.every((row) => typeof row.description === "string")).toBe(true);
      const names = own.map((row) =>
        row.uiName && row.uiName !== row.apiName ? `${row.apiName} (${row.uiName})` : row.apiName,
      );
      expect([...list].sort()).toEqual([...names].sort());
      // The property's own come first.
      const custom = own.filter((row) => row.customDefinition === true).length;
      expect(list.slice(0, custom).every((name) => /^custom/.test(name))).toBe(true);
    }
    expect(firstText(meta)).toContain(
      `${shown.dimensions.length} dimensions, ${shown.metrics.length} metrics`,
    );
  });
});
