import { describe, expect, it } from "vitest";
import { ValidationError } from "../../../src/errors.js";
import { capBody } from "../../../src/tools/ga/api-call-checks.js";
import { MAX_RESULT_BYTES } from "../../../src/tools/output-cap.js";
import { runToolStep } from "../../../src/tools/run.js";
import { contextFor, FakeGa } from "./fake-connector.js";

const ID = "google_analytics_api_call";

describe("Google Analytics API Call", () => {
  it.each([
    [{ method: "GET", endpoint: "v1beta/accountSummaries", body: { a: 1 } }, "body"],
    [{ method: "DELETE", endpoint: "v1beta/properties/1/keyEvents/2", body: {} }, "body"],
    [
      { method: "PATCH", endpoint: "v1beta/properties/1", body: { displayName: "x" } },
      "query_parameters.updateMask",
    ],
    [{ method: "GET", endpoint: "v1beta/properties" }, "query_parameters.filter"],
  ])("refuses %j before reaching the connector", async (input, field) => {
    const ga = new FakeGa();
    const error = await runToolStep(ID, input, contextFor(ga)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe(field);
    expect(ga.calls).toHaveLength(0);
  });

  it("passes method, path, api, query and body to the connector and returns its answer", async () => {
    const ga = new FakeGa();
    ga.onCall = () => ({ api: "data", body: { rows: [{ a: 1 }], rowCount: 1 } });
    const input = {
      method: "POST",
      endpoint: "v1beta/properties/123:runPivotReport",
      query_parameters: { alt: "json" },
      body: { dateRanges: [{ startDate: "yesterday", endDate: "today" }] },
    };
    const result = await runToolStep(ID, input, contextFor(ga));
    expect(ga.callsOf("call")[0]?.args[0]).toEqual({
      method: "POST",
      path: "v1beta/properties/123:runPivotReport",
      query: { alt: "json" },
      body: input.body,
      // runToolStep's signal, which carries the call's deadline.
      signal: expect.any(AbortSignal),
    });
    expect(result.data).toEqual({ api: "data", body: { rows: [{ a: 1 }], rowCount: 1 }, warnings: [] });
    expect(result.summary).toMatch(/1 rows/);
  });

  it("warns that deleting a property only trashes it", async () => {
    const ga = new FakeGa();
    const result = await runToolStep(
      ID,
      { method: "DELETE", endpoint: "v1beta/properties/9", api: "admin" },
      contextFor(ga),
    );
    expect(ga.callsOf("call")[0]?.args[0]).toMatchObject({ api: "admin" });
    expect((result.data as { warnings: string[] }).warnings[0]).toMatch(/trash/);
  });

  it("caps a large answer by size, keeping the other fields and saying how to page", async () => {
    const properties = Array.from({ length: 2_000 }, (_, i) => ({
      name: `properties/${i}`,
      displayName: "x".repeat(40),
    }));
    const capped = capBody({ properties, nextPageToken: "abc" });
    const body = capped.body as { properties: unknown[]; nextPageToken: string };
    expect(JSON.stringify(body).length).toBeLessThanOrEqual(MAX_RESULT_BYTES);
    expect(body.properties.length).toBeGreaterThan(100);
    expect(body.properties.length).toBeLessThan(2_000);
    expect(body.nextPageToken).toBe("abc");
    expect(capped.warnings[0]).toMatch(new RegExp(`${body.properties.length} of 2000 properties shown`));
    const blob = capBody({ text: "y".repeat(MAX_RESULT_BYTES * 2) });
    expect(typeof blob.body).toBe("string");
    expect(blob.warnings[0]).toMatch(/cut off/);
    expect(capBody({ small: true })).toEqual({ body: { small: true }, warnings: [] });
  });
});
