/**
 * Issue 27 (trial s8, N28): a report whose ad metrics are 0 in every row says that GA has ad costs only from
 * linked or imported sources, so the 0 is not a finding ("ROAS 0"); the check it names (the property's Google
 * Ads links) is done here. A report with one ad cost that is not 0, or without ad metrics, says nothing of it.
 */
import { expect, it } from "vitest";
import { adCostNote } from "../../src/tools/ga/report-ad-cost.js";
import { firstText, gaOverMcp } from "../helpers/ga-mcp.js";

const text = firstText;
const PROPERTY = "412345671";

const ga = gaOverMcp();

it("says ad costs of 0 everywhere are most likely none received, and the check it names shows no Ads link", async () => {
  const report = await ga.call("google_analytics_run_reports", {
    property: PROPERTY,
    metrics: ["sessions", "advertiserAdCost", "returnOnAdSpend"],
    dimensions: ["sessionCampaignName"],
    date_ranges: ["last28days"],
  });
  expect(report.isError, text(report)).toBeFalsy();
  const said = text(report);
  expect(said).toContain(
    "Ads cost and Return on ad spend are 0 in every row: Google Analytics has ad costs only from linked ad accounts",
  );
  const check = /GET (v1beta\/properties\/\d+\/googleAdsLinks)\./.exec(said)?.[1];
  expect(check).toBe(`v1beta/properties/${PROPERTY}/googleAdsLinks`);
  const links = await ga.call("google_analytics_api_call", { method: "GET", endpoint: check });
  expect(links.isError, text(links)).toBeFalsy();
  expect(text(links)).toMatch(/no items/i);
});

it("says nothing of ad costs in a report without ad metrics", async () => {
  const report = await ga.call("google_analytics_run_reports", {
    property: PROPERTY,
    metrics: ["sessions"],
    dimensions: ["sessionCampaignName"],
    date_ranges: ["last28days"],
  });
  expect(text(report)).not.toContain("ad costs only");
});

it("says nothing when one ad metric is not 0 somewhere, or when there are no rows", () => {
  const headers = { metricHeaders: [{ name: "advertiserAdCost" }, { name: "sessions" }] };
  const names = { advertiserAdCost: "Ads cost" };
  const row = (cost: number) => ({ sessionCampaignName: "x", advertiserAdCost: cost, sessions: 3 });
  expect(
    adCostNote({ rows: [row(0), row(12.5)], totals: [], rowCount: 2 }, headers, names, PROPERTY),
  ).toBeUndefined();
  expect(adCostNote({ rows: [], totals: [], rowCount: 0 }, headers, names, PROPERTY)).toBeUndefined();
  // Return on ad spend alone is 0 wherever revenue is, whatever the costs: no note without a cost.
  const roas = { metricHeaders: [{ name: "returnOnAdSpend" }] };
  const noRevenue = { rows: [{ returnOnAdSpend: 0 }], totals: [], rowCount: 1 };
  expect(adCostNote(noRevenue, roas, {}, PROPERTY)).toBeUndefined();
  expect(adCostNote({ rows: [row(0)], totals: [row(0)], rowCount: 1 }, headers, names, PROPERTY)).toMatch(
    /^Ads cost is 0 in every row/,
  );
});
