/**
 * Trial s30, N418: to confirm a refusal an agent read a checkCompatibility answer of 40,534 characters (every
 * field's whole metadata), then 94,000 more of its kept pages. Through google_analytics_api_call the answer is
 * cut to each field's apiName and compatibility, and the summary counts both and names the incompatible ones.
 * Invariants on the sandbox, over the requests below: the cut answer lists every field Google listed, in its order,
 * with its compatibility (the same as with compatibilityFilter, which lists one side only); the summary's counts
 * are the lists' and its names are exactly the INCOMPATIBLE ones.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firstText, gaOverMcp } from "../helpers/ga-mcp.js";

const ga = gaOverMcp();
const api = (args: Record<string, unknown>) => ga.call("google_analytics_api_call", args);
type Entry = { apiName: string; compatibility: string };
type Body = { dimensionCompatibilities?: Entry[]; metricCompatibilities?: Entry[] };
const body = (r: CallToolResult) => (r.structuredContent as { body: Body }).body;
const ENDPOINT = "v1beta/properties/412345671:checkCompatibility";

describe("a checkCompatibility answer through the API call", () => {
  it("lists every field with its compatibility, counts them and names the incompatible ones", {
    timeout: 60_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(["transactionId", "country", "date", "deviceCategory"], { minLength: 1, maxLength: 2 }),
        fc.subarray(["sessions", "purchaseRevenue", "activeUsers"], { maxLength: 2 }),
        async (dimensions, metrics) => {
          const request = {
            dimensions: dimensions.map((name) => ({ name })),
            metrics: metrics.map((name) => ({ name })),
          };
          const all = await api({ method: "POST", endpoint: ENDPOINT, body: request });
          expect(all.isError, firstText(all)).toBeFalsy();
          const text = firstText(all);
          for (const [key, noun] of [
            ["dimensionCompatibilities", "dimension"],
            ["metricCompatibilities", "metric"],
          ] as const) {
            const entries = body(all)[key] ?? [];
            expect(entries.length).toBeGreaterThan(0);
            for (const entry of entries)
              expect(Object.keys(entry).sort()).toEqual(["apiName", "compatibility"]);
            const sides = await Promise.all(
              ["COMPATIBLE", "INCOMPATIBLE"].map(async (filter) => {
                const one = await api({
                  method: "POST",
                  endpoint: ENDPOINT,
                  body: { ...request, compatibilityFilter: filter },
                });
                return (body(one)[key] ?? []).map((entry) => entry.apiName);
              }),
            );
            const [compatible = [], incompatible = []] = sides;
            const want = entries.filter((e) => e.compatibility === "INCOMPATIBLE").map((e) => e.apiName);
            expect(want).toEqual(incompatible);
            expect(entries.filter((e) => e.compatibility === "COMPATIBLE").map((e) => e.apiName)).toEqual(
              compatible,
            );
            const named = want.length === 0 ? "" : `: ${want.slice(0, 40).join(", ")}`;
            // The request's own are among them only when it names some of the kind (review s36, 9).
            const own =
              (noun === "dimension" ? dimensions : metrics).length > 0
                ? ", the request's own among them"
                : "";
            const can = `${compatible.length.toLocaleString("en-US")} ${noun}s are compatible (COMPATIBLE${own})`;
            const cannot = `${want.length.toLocaleString("en-US")} cannot be added (INCOMPATIBLE)${named}`;
            expect(text).toContain(`${can}, ${cannot}`);
            // With compatibilityFilter, the side left out is not said, never as 0 (review s35, 3).
            for (const [filter, said, unsaid] of [
              ["COMPATIBLE", can, "cannot be added"],
              ["INCOMPATIBLE", `${noun}s: ${cannot}`, "are compatible"],
            ] as const) {
              const one = await api({
                method: "POST",
                endpoint: ENDPOINT,
                body: { ...request, compatibilityFilter: filter },
              });
              expect(firstText(one)).toContain(said);
              expect(firstText(one).split("\n")[0]).not.toContain(unsaid);
            }
          }
        },
      ),
      { numRuns: 6 },
    );
  });

  it("answers the question of trial s30, N418 in one call of a fifth of the characters: itemName is incompatible", async () => {
    const answer = await api({
      method: "POST",
      endpoint: ENDPOINT,
      body: { dimensions: [{ name: "transactionId" }] },
    });
    const text = firstText(answer);
    expect(text).toMatch(/cannot be added \(INCOMPATIBLE\): [^;]*\bitemName\b/);
    const whole = JSON.stringify(answer.content);
    expect(whole.length).toBeLessThan(20_000);
    expect(text).toContain("names and descriptions: GET v1beta/properties/{id}/metadata");
  });

  it("an incompatible request is refused with the field to remove, as Google does", async () => {
    const refused = await api({
      method: "POST",
      endpoint: ENDPOINT,
      body: { dimensions: [{ name: "transactionId" }, { name: "itemName" }] },
    });
    expect(refused.isError).toBe(true);
    expect(firstText(refused)).toContain("remove transactionId");
  });
});
