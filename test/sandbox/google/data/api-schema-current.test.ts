/**
 * The Data API emulator serves the current edition of Google's API schema page
 * (https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema, kept in api-schema.json
 * with its retrieval date): 373 dimensions with the manual-campaign (utm_*) family, the Campaign Manager
 * 360, Display & Video 360 and Search Ads 360 families in their key-event, session and first-user forms and
 * sessionPrimaryChannelGroup, and purchaserRate / firstTimePurchaserRate in place of the pre-rename
 * …ConversionRate metrics. Every answer is checked against the Data API discovery document
 * (analyticsdata v1beta, Metadata and RunReportResponse). Values: the manual dimensions carry what a tagged
 * link's UTM parameters say, consistent with the session's source and medium ("Traffic-source dimensions,
 * manual tagging, and auto-tagging", https://support.google.com/analytics/answer/11242870); the linked-product
 * families have values only where the property is linked to the product.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApiRow,
  dims,
  nums,
  rowsOf,
  type Sandbox,
  SHOP,
  startSandbox,
  sum,
} from "../../../helpers/ga-data-sandbox.js";
import { expectWireShape } from "../../../helpers/wire/schemas.js";

const RUN = `/v1beta/properties/${SHOP}:runReport`;
const LAST_MONTH = [{ startDate: "28daysAgo", endDate: "yesterday" }];
const schemaFile = JSON.parse(
  readFileSync(new URL("../../../../src/sandbox/google/data/api-schema.json", import.meta.url), "utf8"),
) as { retrieved: string; dimensions: string[][]; metrics: string[][] };

/** Each family's members in the key-event (no prefix), session and first-user forms. */
function family(product: string, members: readonly string[]): string[] {
  const lower = product.charAt(0).toLowerCase() + product.slice(1);
  return ["", "session", "firstUser"].flatMap((scope) =>
    members.map((m) => (scope === "" ? `${lower}${m}` : `${scope}${product}${m}`)),
  );
}

const MANUAL = family("Manual", [
  "AdContent",
  "CampaignId",
  "CampaignName",
  "CreativeFormat",
  "MarketingTactic",
  "Medium",
  "Source",
  "SourceMedium",
  "SourcePlatform",
  "Term",
]);
const CM360 = family("Cm360", ["AccountId", "AccountName", "AdvertiserId", "CampaignName", "SourceMedium"]);
const DV360 = family("Dv360", ["AdvertiserId", "CampaignName", "LineItemName", "PartnerName", "Source"]);
const SA360 = family("Sa360", [
  "AdGroupId",
  "CampaignName",
  "EngineAccountName",
  "ManagerAccountId",
  "Medium",
]);

interface FieldMeta {
  apiName: string;
  deprecatedApiNames?: string[];
  category: string;
}

describe("the current edition of the API schema", () => {
  let s: Sandbox;
  beforeAll(async () => {
    s = await startSandbox();
  });
  afterAll(() => s.close());

  const report = async (body: Record<string, unknown>) => {
    const { status, json } = await s.post(RUN, { dateRanges: LAST_MONTH, limit: 10_000, ...body });
    expect(status, JSON.stringify(json)).toBe(200);
    expectWireShape("ga4-data", "POST /v1beta/properties/{propertiesId}:runReport", json);
    return rowsOf(json);
  };

  it("metadata lists the page's 373 dimensions and 86 metrics (with the 3 of the shop's one key event), the purchaser rates under their current names", async () => {
    expect(schemaFile.retrieved).toBe("2026-12-01");
    const { status, json } = await s.get(`/v1beta/properties/${SHOP}/metadata`);
    expect(status).toBe(200);
    expectWireShape("ga4-data", "GET /v1beta/properties/{propertiesId}/metadata", json);
    const dimensions = json.dimensions as FieldMeta[];
    const metrics = json.metrics as FieldMeta[];
    expect(dimensions).toHaveLength(373);
    // The page's 86, and keyEvents:, sessionKeyEventRate:, userKeyEventRate: of the shop's key event, purchase.
    expect(metrics.filter((m) => !m.apiName.includes(":"))).toHaveLength(86);
    expect(metrics.filter((m) => m.apiName.endsWith(":purchase"))).toHaveLength(3);
    expect(metrics).toHaveLength(89);
    expect(schemaFile.dimensions).toHaveLength(373);
    const names = new Set(dimensions.map((d) => d.apiName));
    for (const name of [...MANUAL, ...CM360, ...DV360, ...SA360, "sessionPrimaryChannelGroup"])
      expect(names.has(name), name).toBe(true);
    const byName = new Map(dimensions.map((d) => [d.apiName, d]));
    expect(byName.get("sessionManualSource")?.category).toBe("Traffic source");
    expect(byName.get("dv360CampaignName")?.category).toBe("Traffic source");
    const metricByName = new Map(metrics.map((m) => [m.apiName, m]));
    expect(metricByName.get("purchaserRate")?.deprecatedApiNames).toEqual(["purchaserConversionRate"]);
    expect(metricByName.get("firstTimePurchaserRate")?.deprecatedApiNames).toEqual([
      "firstTimePurchaserConversionRate",
    ]);
    expect(metricByName.has("purchaserConversionRate")).toBe(false);
    expect(metricByName.has("firstTimePurchaserConversionRate")).toBe(false);
  });

  it("the purchaser rates answer under both names, in 0..1, the same value", async () => {
    const rows = await report({
      metrics: [
        { name: "purchaserRate" },
        { name: "purchaserConversionRate" },
        { name: "firstTimePurchaserRate" },
      ],
    });
    const [rate, old, firstTime] = nums(rows[0] ?? {});
    expect(rate).toBeGreaterThan(0);
    expect(rate).toBeLessThanOrEqual(1);
    expect(old).toBe(rate);
    expect(firstTime).toBeGreaterThan(0);
    expect(firstTime).toBeLessThanOrEqual(rate ?? 0);
  });

  it("manual (utm_*) dimensions match the session's source and medium where the link was tagged", async () => {
    const rows = await report({
      dimensions: [
        { name: "sessionSource" },
        { name: "sessionMedium" },
        { name: "sessionManualSource" },
        { name: "sessionManualMedium" },
        { name: "sessionManualCampaignName" },
        { name: "sessionPrimaryChannelGroup" },
      ],
      metrics: [{ name: "sessions" }],
    });
    const tagged = rows.filter((r: ApiRow) => dims(r)[2] !== "(not set)");
    for (const row of tagged) {
      const [source, medium, manualSource, manualMedium] = dims(row);
      expect([manualSource, manualMedium]).toEqual([source, medium]);
    }
    expect(new Set(tagged.map((r) => `${dims(r)[2]} / ${dims(r)[3]} / ${dims(r)[4]}`))).toEqual(
      new Set(["newsletter / email / monthly_newsletter", "google / cpc / brand_search"]),
    );
    // Untagged traffic (search, direct, social, referral) has no manual values.
    const untagged = rows.filter((r) => dims(r)[2] === "(not set)");
    expect(untagged.some((r) => dims(r)[0] === "google" && dims(r)[1] === "organic")).toBe(true);
    for (const row of untagged) expect(dims(row)[4]).toBe("(not set)");
    for (const row of rows) expect(dims(row)[5]).not.toBe("(not set)");
    const total = sum((await report({ metrics: [{ name: "sessions" }] })).map((r) => nums(r)[0] ?? 0));
    expect(sum(rows.map((r) => nums(r)[0] ?? 0))).toBe(total);
  });

  it("Search Ads 360 fields have values on the linked shop's paid search only; DV360 and CM360 are not linked", async () => {
    const rows = await report({
      dimensions: [
        { name: "sessionMedium" },
        { name: "sessionSa360CampaignName" },
        { name: "sessionDv360CampaignName" },
        { name: "sessionCm360CampaignName" },
      ],
      metrics: [{ name: "sessions" }],
    });
    const sa360 = rows.filter((r) => dims(r)[1] !== "(not set)");
    expect(sa360.length).toBeGreaterThan(0);
    for (const row of sa360) expect(dims(row).slice(0, 2)).toEqual(["cpc", "brand_search"]);
    for (const row of rows) expect(dims(row).slice(2)).toEqual(["(not set)", "(not set)"]);
    // A property without the link (lead generation, an id ending in 4) has no SA360 values at all.
    const leads = "412345674";
    const property = s.world.property;
    s.world.property = (id) =>
      id === leads ? { ...(property(SHOP) as NonNullable<ReturnType<typeof property>>), id } : property(id);
    try {
      const { status, json } = await s.post(`/v1beta/properties/${leads}:runReport`, {
        dateRanges: LAST_MONTH,
        dimensions: [{ name: "sessionMedium" }, { name: "sessionSa360CampaignName" }],
        metrics: [{ name: "sessions" }],
      });
      expect(status).toBe(200);
      expect(rowsOf(json).some((r) => dims(r)[0] === "cpc")).toBe(true);
      for (const row of rowsOf(json)) expect(dims(row)[1]).toBe("(not set)");
    } finally {
      s.world.property = property;
    }
  });
});
