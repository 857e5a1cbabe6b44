/**
 * The bar finds Run Reports by a report's measures and breakdowns in a marketer's words (newcomer trial s7,
 * finding 5: "sales by country", "sales", "revenue", "purchases" and "country" found no step), saying why;
 * a word no step knows still finds nothing. The words are Google's room's
 * (src/tools/ga/report-search-words.ts), asked through the step's `searchReason`.
 */
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { searchSteps } from "../../src/console/steps.js";
import { searchToolSteps } from "../../src/tools/registry.js";

interface Sent {
  id: string;
  title: string;
  reason?: string;
  start?: { title: string; note?: string; input: Record<string, unknown> };
}

/** The steps searchSteps sends for the query, with their reasons. */
function searched(query: string): Sent[] {
  let body = "";
  const res = {
    setHeader: () => undefined,
    writeHead: () => res,
    end: (text: string) => {
      body = text;
    },
  } as unknown as ServerResponse;
  searchSteps(res, query);
  return (JSON.parse(body) as { steps: Sent[] }).steps;
}

describe("a report's words in the step search", () => {
  it.each([
    ["sales by country", "Purchase revenue by Country"],
    ["sales", "Purchase revenue"],
    ["revenue", "Purchase revenue"],
    ["purchases", "Ecommerce purchases"],
    ["country", "A measure by Country"],
    ["purchase revenue by countries", "Purchase revenue by Country"],
    ["activeUsers by deviceCategory", "Active users by Device category"],
  ])("%j finds Run Reports, saying %j", (query, reason) => {
    const steps = searched(query);
    expect(steps.map((step) => step.id)).toContain("google_analytics_run_reports");
    const report = steps.find((step) => step.id === "google_analytics_run_reports");
    expect(`${report?.title}: ${report?.reason}`).toBe(`Run Reports: ${reason}`);
    expect(searchToolSteps(query).find((hit) => hit.id === "google_analytics_run_reports")?.reason).toBe(
      reason,
    );
  });

  // Trial s9, finding 1: the line read like a ready report, and a click on it opened an empty form.
  it.each([
    ["sales by country", { metrics: ["purchaseRevenue"], dimensions: ["country"] }],
    ["sessions by channel", { metrics: ["sessions"], dimensions: ["sessionDefaultChannelGroup"] }],
    [
      "visitors and orders per device",
      { metrics: ["activeUsers", "ecommercePurchases"], dimensions: ["deviceCategory"] },
    ],
    ["revenue", { metrics: ["purchaseRevenue"] }],
    ["country", { dimensions: ["country"] }],
  ])("%j opens Run Reports filled with the report its line names", (query, input) => {
    const report = searched(query).find((step) => step.id === "google_analytics_run_reports");
    expect(report?.start).toEqual({
      title: report?.reason,
      note: `Filled from your search: ${report?.reason}.`,
      input,
    });
  });

  it("opens no filled form where the step's own words found it", () => {
    const report = searched("report").find((step) => step.id === "google_analytics_run_reports");
    expect(report?.start).toBeUndefined();
  });

  it("finds nothing for a word no step knows", () => {
    expect(searched("zebra")).toEqual([]);
    expect(searchToolSteps("zebra")).toEqual([]);
  });

  it("gives no reason where the step's own words found it", () => {
    const report = searched("report").find((step) => step.id === "google_analytics_run_reports");
    expect(report).toBeDefined();
    expect(report?.reason).toBeUndefined();
  });
});
