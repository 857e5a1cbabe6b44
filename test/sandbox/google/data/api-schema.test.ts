/**
 * The Data API emulator knows every dimension and metric of Google's API schema page (the data file
 * with its source), and each of them yields plausible, consistent data: raw Data API calls on loopback.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CITIES, TECH } from "../../../../src/sandbox/google/data/catalog-traits.js";
import { COUNTRIES, PAGES } from "../../../../src/sandbox/google/data/catalog-values.js";
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

const RUN = `/v1beta/properties/${SHOP}:runReport`;
const LAST_MONTH = [{ startDate: "28daysAgo", endDate: "yesterday" }];
const schemaFile = JSON.parse(
  readFileSync(new URL("../../../../src/sandbox/google/data/api-schema.json", import.meta.url), "utf8"),
) as { source: string; retrieved: string; dimensions: string[][]; metrics: string[][] };

const METRIC_TYPES = [
  "TYPE_INTEGER",
  "TYPE_FLOAT",
  "TYPE_SECONDS",
  "TYPE_MILLISECONDS",
  "TYPE_MINUTES",
  "TYPE_HOURS",
  "TYPE_STANDARD",
  "TYPE_CURRENCY",
  "TYPE_FEET",
  "TYPE_MILES",
  "TYPE_METERS",
  "TYPE_KILOMETERS",
];

interface FieldMeta {
  apiName: string;
  uiName: string;
  description: string;
  category: string;
  type?: string;
  deprecatedApiNames?: string[];
  customDefinition?: boolean;
}

describe("the API schema in the Data API emulator", () => {
  let s: Sandbox;
  beforeAll(async () => {
    s = await startSandbox();
  });
  afterAll(() => s.close());

  const report = async (body: Record<string, unknown>) => {
    const { status, json } = await s.post(RUN, { dateRanges: LAST_MONTH, ...body });
    expect(status, JSON.stringify(json)).toBe(200);
    return json;
  };
  const total = async (metric: string): Promise<number> =>
    nums(rowsOf(await report({ metrics: [{ name: metric }] }))[0] ?? {})[0] ?? 0;

  it("metadata lists every field of the schema file, with UI name, description, category and type", async () => {
    expect(schemaFile.source).toBe(
      "https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema",
    );
    expect(schemaFile.retrieved).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const { json } = await s.get("/v1beta/properties/0/metadata");
    const dimensions = json.dimensions as FieldMeta[];
    const metrics = json.metrics as FieldMeta[];
    expect(dimensions).toHaveLength(schemaFile.dimensions.length);
    expect(metrics).toHaveLength(schemaFile.metrics.length);
    expect(dimensions.length).toBeGreaterThan(190);
    expect(metrics.length).toBeGreaterThan(80);
    for (const field of [...dimensions, ...metrics]) {
      expect(field.uiName && field.description && field.category, field.apiName).toBeTruthy();
    }
    for (const m of metrics) expect(METRIC_TYPES, m.apiName).toContain(m.type);
    const names = new Set(dimensions.map((d) => d.apiName));
    for (const wanted of [
      "city",
      "region",
      "browser",
      "landingPage",
      "hour",
      "newVsReturning",
      "firstUserSource",
    ])
      expect(names.has(wanted), wanted).toBe(true);
    // The 2024 rename: key events replace conversions, the old name kept as deprecatedApiNames.
    expect(metrics.find((m) => m.apiName === "keyEvents")?.deprecatedApiNames).toEqual(["conversions"]);
    expect(dimensions.find((d) => d.apiName === "isKeyEvent")?.deprecatedApiNames).toEqual([
      "isConversionEvent",
    ]);
    expect(names.has("isConversionEvent")).toBe(false);
    const byName = new Map(metrics.map((m) => [m.apiName, m]));
    expect(byName.get("bounceRate")?.type).toBe("TYPE_FLOAT");
    expect(byName.get("userEngagementDuration")?.type).toBe("TYPE_SECONDS");
    expect(byName.get("advertiserAdCost")?.type).toBe("TYPE_CURRENCY");
    expect(dimensions.find((d) => d.apiName === "city")?.category).toBe("Geography");
  });

  it("sessions by city: every city lies in its row's country and region, and the cities add up", async () => {
    const json = await report({
      dimensions: [{ name: "country" }, { name: "region" }, { name: "city" }],
      metrics: [{ name: "sessions" }],
      limit: 1000,
    });
    const rows = rowsOf(json);
    expect(rows.length).toBeGreaterThan(15);
    for (const row of rows) {
      const [country, region, city] = dims(row);
      const id = COUNTRIES.find((c) => c.name === country)?.id ?? "";
      expect(CITIES[id]?.find((c) => c.name === city)?.region, `${city}, ${country}`).toBe(region);
    }
    const byCity = rowsOf(
      await report({ dimensions: [{ name: "city" }], metrics: [{ name: "sessions" }], limit: 1000 }),
    );
    expect(sum(byCity.map((r) => nums(r)[0] ?? 0))).toBe(await total("sessions"));
    expect(byCity.map((r) => dims(r)[0])).toContain("Paris");
  });

  it("totalUsers by browser and deviceCategory: browsers fit the device, and the breakdown adds up", async () => {
    const rows = rowsOf(
      await report({
        dimensions: [{ name: "browser" }, { name: "deviceCategory" }],
        metrics: [{ name: "totalUsers" }],
      }),
    );
    expect(rows.length).toBeGreaterThan(5);
    const devices = ["desktop", "mobile", "tablet"];
    for (const row of rows) {
      const [browser, device] = dims(row);
      const allowed = TECH[devices.indexOf(device ?? "")]?.map((t) => t.browser) ?? [];
      expect(allowed, `${browser} on ${device}`).toContain(browser);
    }
    expect(rows.some((r) => dims(r)[1] === "mobile" && dims(r)[0] === "Safari")).toBe(true);
    expect(sum(rows.map((r) => nums(r)[0] ?? 0))).toBe(await total("totalUsers"));
  });

  it("sessions by landingPage and hour: page paths, hours 00-23, consistent totals", async () => {
    const rows = rowsOf(
      await report({
        dimensions: [{ name: "landingPage" }, { name: "hour" }],
        metrics: [{ name: "sessions" }],
        limit: 10_000,
      }),
    );
    const paths = new Set(PAGES.map((p) => p.path));
    const hours = new Set<string>();
    for (const row of rows) {
      const [page, hour] = dims(row);
      expect(paths.has(page ?? ""), page).toBe(true);
      expect(hour).toMatch(/^([01]\d|2[0-3])$/);
      hours.add(hour ?? "");
    }
    expect(hours.size).toBe(24);
    expect(sum(rows.map((r) => nums(r)[0] ?? 0))).toBe(await total("sessions"));
    // The busiest hours are daytime ones, not the small hours.
    const byHour = rowsOf(await report({ dimensions: [{ name: "hour" }], metrics: [{ name: "sessions" }] }));
    const at = (h: string) => nums(byHour.find((r: ApiRow) => dims(r)[0] === h) ?? {})[0] ?? 0;
    expect(at("10")).toBeGreaterThan(at("03"));
  });

  it("rates stay in 0..1 in every row and rolling users grow with the window", async () => {
    const rates = [
      "engagementRate",
      "bounceRate",
      "cartToViewRate",
      "purchaserConversionRate",
      "sessionKeyEventRate",
      "dauPerMau",
      "crashFreeUsersRate",
    ];
    const rows = rowsOf(
      await report({ dimensions: [{ name: "city" }], metrics: rates.map((name) => ({ name })), limit: 1000 }),
    );
    expect(rows.length).toBeGreaterThan(10);
    for (const value of rows.flatMap(nums)) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThanOrEqual(1);
    }
    const [one, seven, twentyEight] = nums(
      rowsOf(
        await report({
          metrics: [{ name: "active1DayUsers" }, { name: "active7DayUsers" }, { name: "active28DayUsers" }],
        }),
      )[0] ?? {},
    );
    expect(one).toBeLessThan(seven ?? 0);
    expect(seven).toBeLessThan(twentyEight ?? 0);
    // The shop sells: purchasers, add-to-carts and checkouts are counted from its events.
    const shop = nums(
      rowsOf(
        await report({
          metrics: [{ name: "totalPurchasers" }, { name: "addToCarts" }, { name: "checkouts" }],
        }),
      )[0] ?? {},
    );
    for (const value of shop) expect(value).toBeGreaterThan(0);
  });

  it("every schema metric computes in a report, and cohort fields are refused without a cohortSpec", async () => {
    const names = schemaFile.metrics
      .map(
        ([name]) =>
          ({
            conversions: "keyEvents",
            sessionConversionRate: "sessionKeyEventRate",
            userConversionRate: "userKeyEventRate",
            advertiserAdCostPerConversion: "advertiserAdCostPerKeyEvent",
          })[name ?? ""] ??
          name ??
          "",
      )
      .filter((name) => !name.startsWith("cohort") && !/^(items?[A-Z]|grossItem)/.test(name));
    for (let i = 0; i < names.length; i += 10) {
      const json = await report({ metrics: names.slice(i, i + 10).map((name) => ({ name })) });
      for (const value of nums(rowsOf(json)[0] ?? {})) expect(Number.isFinite(value)).toBe(true);
    }
    const cohort = await s.post(RUN, {
      dateRanges: LAST_MONTH,
      dimensions: [{ name: "cohort" }],
      metrics: [{ name: "cohortActiveUsers" }],
    });
    expect(cohort.status).toBe(400);
    expect(JSON.stringify(cohort.json)).toContain("cohortSpec");
  });

  it("custom definitions appear in the property's metadata and work in reports with consistent totals", async () => {
    s.world.customDefinitions = () => ({
      dimensions: [
        { parameterName: "payment_type", displayName: "Payment type", scope: "EVENT" },
        { parameterName: "customer_tier", displayName: "Customer tier", scope: "USER" },
      ],
      metrics: [
        {
          parameterName: "discount_amount",
          displayName: "Discount amount",
          scope: "EVENT",
          measurementUnit: "CURRENCY",
        },
      ],
    });
    try {
      const { json } = await s.get(`/v1beta/properties/${SHOP}/metadata`);
      const custom = (json.dimensions as FieldMeta[]).filter((d) => d.customDefinition);
      expect(custom.map((d) => d.apiName)).toEqual(["customEvent:payment_type", "customUser:customer_tier"]);
      expect(custom[0]?.uiName).toBe("Payment type");
      const metric = (json.metrics as FieldMeta[]).find((m) => m.apiName === "customEvent:discount_amount");
      expect(metric).toMatchObject({ type: "TYPE_CURRENCY", customDefinition: true });
      const universal = await s.get("/v1beta/properties/0/metadata");
      expect((universal.json.dimensions as FieldMeta[]).some((d) => d.customDefinition)).toBe(false);

      const byTier = rowsOf(
        await report({ dimensions: [{ name: "customUser:customer_tier" }], metrics: [{ name: "sessions" }] }),
      );
      expect(byTier.length).toBeGreaterThan(1);
      expect(sum(byTier.map((r) => nums(r)[0] ?? 0))).toBe(await total("sessions"));
      const byPayment = rowsOf(
        await report({
          dimensions: [{ name: "customEvent:payment_type" }, { name: "eventName" }],
          metrics: [{ name: "eventCount" }, { name: "customEvent:discount_amount" }],
        }),
      );
      expect(byPayment.some((r) => dims(r)[0] !== "(not set)" && dims(r)[1] === "purchase")).toBe(true);
      // Automatically collected events carry no site-defined parameter.
      for (const r of byPayment.filter((row) => dims(row)[1] === "page_view"))
        expect(dims(r)[0]).toBe("(not set)");
      const unknown = await s.post(RUN, {
        dateRanges: LAST_MONTH,
        dimensions: [{ name: "customEvent:nope" }],
        metrics: [{ name: "sessions" }],
      });
      expect(unknown.status).toBe(400);
      expect(JSON.stringify(unknown.json)).toContain("registered");
    } finally {
      delete s.world.customDefinitions;
    }
  });
});
