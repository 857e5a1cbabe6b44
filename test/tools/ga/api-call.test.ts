import { describe, expect, it } from "vitest";
import { ValidationError } from "../../../src/errors.js";
import { pageBody } from "../../../src/tools/ga/api-call-paging.js";
import { MAX_RESULT_BYTES } from "../../../src/tools/output-cap.js";
import { runToolStep } from "../../../src/tools/run.js";
import { contextFor, FakeGa } from "../../helpers/ga-fake-connector.js";

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
    expect(result.summary).toMatch(/1 row\b/);
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
    const fields = {
      method: "GET",
      endpoint: "v1beta/properties",
      query_parameters: { filter: "parent:accounts/1" },
    } as const;
    const capped = pageBody(fields, { properties, nextPageToken: "abc" });
    const body = capped.body as { properties: unknown[]; nextPageToken: string };
    expect(JSON.stringify(body).length).toBeLessThanOrEqual(MAX_RESULT_BYTES);
    expect(body.properties.length).toBeGreaterThan(100);
    expect(body.properties.length).toBeLessThan(2_000);
    expect(body.nextPageToken).toBe("abc");
    expect(capped.warnings[0]).toMatch(
      new RegExp(`${body.properties.length} of the 2,000 properties read are shown`),
    );
    expect(capped.warnings[0]).toMatch(/cursor = next_cursor/);
    const blob = pageBody(fields, { text: "y".repeat(MAX_RESULT_BYTES * 2) });
    expect(typeof blob.body).toBe("string");
    expect(blob.warnings[0]).toMatch(/cut off/);
    expect(pageBody(fields, { small: true })).toEqual({ body: { small: true }, warnings: [] });
    // A list whose first item alone is over the cap shows it, with the cursor to the next: cut as text, the items
    // after it could not be reached (review s31, finding 3: a batch's second report).
    const huge = pageBody(fields, { reports: [{ text: "z".repeat(MAX_RESULT_BYTES * 2) }, { text: "a" }] });
    expect((huge.body as { reports: unknown[] }).reports).toHaveLength(1);
    expect(huge.nextCursor).toBeDefined();
  });

  it("continues a capped list with its cursor: every item once, none repeated", async () => {
    const properties = Array.from({ length: 2_000 }, (_, i) => ({
      name: `properties/${i}`,
      displayName: "x".repeat(40),
    }));
    const ga = new FakeGa();
    ga.onCall = () => ({ api: "admin", body: { properties, nextPageToken: "abc" } });
    const input = {
      method: "GET",
      endpoint: "v1beta/properties",
      query_parameters: { filter: "parent:accounts/1" },
    };
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let round = 0; round < 20; round += 1) {
      const { data } = await runToolStep(ID, { ...input, ...(cursor ? { cursor } : {}) }, contextFor(ga));
      const out = data as {
        body: { properties: { name: string }[]; nextPageToken: string };
        next_cursor?: string;
      };
      seen.push(...out.body.properties.map((p) => p.name));
      cursor = out.next_cursor;
      if (!cursor) break;
    }
    expect(seen).toEqual(properties.map((p) => p.name));
    const other = await runToolStep(
      ID,
      { ...input, query_parameters: { filter: "parent:accounts/2" }, cursor: "c1.e30" },
      contextFor(ga),
    ).catch((e: unknown) => e);
    expect(other).toBeInstanceOf(ValidationError);
  });

  it("says which items of Google's page each part holds, and that nextPageToken comes after all of them", async () => {
    const properties = Array.from({ length: 2_000 }, (_, i) => ({
      name: `properties/${i}`,
      displayName: "x".repeat(40),
    }));
    const ga = new FakeGa();
    ga.onCall = () => ({ api: "admin", body: { properties, nextPageToken: "abc" } });
    const input = {
      method: "GET",
      endpoint: "v1beta/properties",
      query_parameters: { filter: "parent:accounts/1" },
    };
    let cursor: string | undefined;
    let next = 1;
    for (let round = 0; round < 20; round += 1) {
      const { data, summary } = await runToolStep(
        ID,
        { ...input, ...(cursor ? { cursor } : {}) },
        contextFor(ga),
      );
      const out = data as { body: { properties: unknown[] }; next_cursor?: string; warnings: string[] };
      const last = next + out.body.properties.length - 1;
      expect(summary).toBe(
        `GET v1beta/properties (admin API): properties ${next.toLocaleString("en-US")}–${last.toLocaleString("en-US")} of the 2,000 Google answered.`,
      );
      const token = out.warnings.find((warning) => warning.startsWith("nextPageToken starts"));
      cursor = out.next_cursor;
      if (!cursor) {
        expect(last).toBe(2_000);
        expect(token).toBeUndefined();
        break;
      }
      expect(token).toBe(
        `nextPageToken starts Google's next page, after all of this page's properties: read the ${(2_000 - last).toLocaleString("en-US")} not shown with next_cursor first, then pass nextPageToken as query_parameters.pageToken.`,
      );
      next = last + 1;
    }
    expect(cursor).toBeUndefined();
  });
});
