import { describe, expect, it } from "vitest";
import { jsonSize } from "../../src/tools/output-cap.js";
import { runToolStep } from "../../src/tools/run.js";
import type { ToolContext } from "../../src/tools/types.js";
import { contextFor, FakeGa } from "../tools/ga/fake-connector.js";

const REPORT = "google_analytics_run_reports";

/** A report of `n` rows, each about 120 bytes of JSON: far past the 45 KB answer cap. */
function wideReport(n: number) {
  return () => ({
    dimensionHeaders: [{ name: "city" }],
    metricHeaders: [{ name: "activeUsers", type: "TYPE_INTEGER" as const }],
    rows: Array.from({ length: n }, (_, i) => ({
      dimensionValues: [{ value: `City number ${i} ${"x".repeat(80)}` }],
      metricValues: [{ value: String(n - i) }],
    })),
    rowCount: n,
  });
}

describe("Run Reports: positions a client can use", () => {
  it("gives no next_offset for a capped realtime report (realtime reports refuse offset)", async () => {
    const ga = new FakeGa();
    ga.metadata = { ...ga.metadata, dimensions: [...(ga.metadata.dimensions ?? []), { apiName: "city" }] };
    ga.onRealtime = wideReport(2_000);
    const args = {
      property: "123",
      metrics: ["activeUsers"],
      dimensions: ["city"],
      realtime: true,
      limit: 2_000,
    };
    const result = await runToolStep(REPORT, args, contextFor(ga));
    const data = result.data as { rows: unknown[]; next_offset?: number; hints: string[] };
    expect(data.rows.length).toBeLessThan(2_000);
    // Following the advice must work: realtime + offset is refused, so none may be offered.
    expect(data.next_offset).toBeUndefined();
    expect(data.hints.join(" ")).not.toMatch(/offset \d/);
    expect(data.hints.join(" ")).toMatch(/realtime/i);
  });

  it("keeps at most fullResults.maxBytes of rows and says where the rest continues", async () => {
    const ga = new FakeGa();
    ga.metadata = { ...ga.metadata, dimensions: [...(ga.metadata.dimensions ?? []), { apiName: "city" }] };
    ga.onRunReport = wideReport(5_000);
    const context: ToolContext = { ...contextFor(ga), fullResults: { maxBytes: 100_000 } };
    const args = { property: "123", metrics: ["activeUsers"], dimensions: ["city"], limit: 5_000 };
    const result = await runToolStep(REPORT, args, context);
    expect(result.full).toBeDefined();
    expect(jsonSize(result.full?.items)).toBeLessThanOrEqual(100_000);
    const kept = result.full?.items.length ?? 0;
    const hints = (result.data as { hints: string[] }).hints.join(" ");
    expect(hints).toContain(`continue with offset ${kept}`);
  });
});

describe("Google API Call: kept items within fullResults.maxBytes", () => {
  it("keeps no more of a huge list than the setting allows", async () => {
    const ga = new FakeGa();
    const items = Array.from({ length: 3_000 }, (_, i) => ({
      name: `properties/${i}`,
      note: "y".repeat(100),
    }));
    ga.onCall = () => ({ api: "admin", body: { properties: items } });
    const context: ToolContext = { ...contextFor(ga), fullResults: { maxBytes: 50_000 } };
    const result = await runToolStep(
      "google_analytics_api_call",
      { method: "GET", endpoint: "/v1beta/properties", query_parameters: { filter: "parent:accounts/1" } },
      context,
    );
    expect(result.full).toBeDefined();
    expect(jsonSize(result.full?.items)).toBeLessThanOrEqual(50_000);
  });
});
