/**
 * `npm run sandbox:coverage`: the numbers are measured from the reference definitions and the
 * sandboxes (the route table for Marketo, live answers for GA4), and docs/sandbox.md shows the current ones.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type ApiCoverage,
  measureCoverage,
  operationsOf,
  renderCoverage,
  TABLE_END,
  TABLE_START,
  withTable,
} from "../../scripts/sandbox-coverage.js";
import { ROUTES } from "../../src/sandbox/marketo/routes/index.js";

let rows: ApiCoverage[];
beforeAll(async () => {
  rows = await measureCoverage();
});

const shape = (op: string) => op.replace(/\{[^}]+\}/g, "{}");

describe("the sandbox coverage report", () => {
  it("counts every operation of the reference definitions once, in the API it belongs to", () => {
    expect(rows.map((r) => r.api)).toEqual([
      "Marketo Lead DB",
      "Marketo bulk",
      "Marketo asset",
      "GA4 Data",
      "GA4 Admin",
    ]);
    const marketo = rows.slice(0, 3);
    expect(marketo.reduce((sum, r) => sum + r.total, 0)).toBe(
      operationsOf("marketo-mapi").length + operationsOf("marketo-asset").length,
    );
    expect(rows[1]?.served.every((op) => op.includes(" /bulk/"))).toBe(true);
    expect(rows[3]?.total).toBe(operationsOf("ga4-data").length);
    expect(rows[4]?.total).toBe(operationsOf("ga4-admin").length);
  });

  it("counts as served for Marketo exactly the real operations the route table holds", () => {
    const real = new Map(
      [...operationsOf("marketo-mapi"), ...operationsOf("marketo-asset")].map((op) => [shape(op), op]),
    );
    const fromRoutes = new Set(
      ROUTES.map((route) => real.get(shape(`${route.method} ${route.template}`))).filter(
        (op) => op !== undefined,
      ),
    );
    const counted = rows.slice(0, 3).flatMap((r) => r.served);
    expect(new Set(counted)).toEqual(fromRoutes);
    // The bulk lead import is served (POST /bulk/v1/leads.json and its batch status, failures, warnings).
    expect(counted).toEqual(
      expect.arrayContaining([
        "POST /bulk/v1/leads.json",
        "GET /bulk/v1/leads/batch/{batchId}.json",
        "GET /bulk/v1/leads/batch/{batchId}/failures.json",
        "GET /bulk/v1/leads/batch/{batchId}/warnings.json",
      ]),
    );
  });

  it("counts a GA4 method as not served only when the sandbox says it does not emulate it", () => {
    const admin = rows[4] as ApiCoverage;
    const missing = operationsOf("ga4-admin").filter((op) => !admin.served.includes(op));
    expect(admin.served.length + missing.length).toBe(admin.total);
    expect(admin.served).toContain("GET /v1beta/properties/{propertiesId}/keyEvents");
    expect(rows[3]?.served).toContain("POST /v1beta/properties/{propertiesId}:runReport");
  });

  it("renders what it is given: the counts, the Marketo total and the shares", () => {
    const table = renderCoverage([
      { api: "Marketo Lead DB", served: ["a", "b"], total: 3 },
      { api: "Marketo bulk", served: [], total: 1 },
      { api: "GA4 Data", served: ["c"], total: 4 },
    ]);
    expect(table.split("\n")).toEqual([
      "API              served of the reference definitions",
      "Marketo Lead DB    2 of   3 operations (67%)",
      "Marketo bulk       0 of   1 operations (0%)",
      "Marketo (all)      2 of   4 operations (50%)",
      "GA4 Data           1 of   4 operations (25%)",
      "",
    ]);
  });

  it("is what docs/sandbox.md shows (refresh it with npm run sandbox:coverage -- --docs)", () => {
    const doc = readFileSync(new URL("../../docs/sandbox.md", import.meta.url), "utf8");
    const table = renderCoverage(rows);
    expect(doc).toContain(TABLE_START);
    expect(doc).toContain(TABLE_END);
    expect(doc, "run: npm run sandbox:coverage -- --docs").toBe(withTable(doc, table));
    expect(table).toMatch(/^Marketo \(all\) +\d+ of 313 operations/m);
  });
});
