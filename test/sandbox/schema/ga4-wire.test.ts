/**
 * Every Admin and Data API method the Google sandbox serves answers in the shape of the discovery
 * document's response schema (closed objects: an unknown or misspelt field fails). The last test checks
 * that the list of validated methods did not shrink.
 */
import { describe, expect, it } from "vitest";
import type { GoogleSandbox } from "../../../src/sandbox/google/index.js";
import {
  ANALYST,
  accessToken,
  admin,
  call,
  loopbackOnly,
  withSandbox,
} from "../../helpers/google-sandbox.js";
import { expectWireShape, validated } from "../../helpers/wire/schemas.js";

loopbackOnly();

let clock = Date.parse("2025-03-03T12:00:00.000Z");
const P = "/v1beta/properties/{propertiesId}";
const SHOP = "/v1beta/properties/412345671";

async function adminCheck(
  s: GoogleSandbox,
  token: string,
  method: string,
  operation: string,
  path: string,
  body?: unknown,
) {
  const reply = await admin(s, token, method, path, body);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  expectWireShape("ga4-admin", `${method} ${operation}`, reply.body);
  return reply.body;
}

async function dataCheck(
  s: GoogleSandbox,
  token: string,
  method: string,
  operation: string,
  path: string,
  body?: unknown,
) {
  const reply = await call(`${s.dataApiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  expectWireShape("ga4-data", `${method} ${operation}`, reply.body);
  return reply.body;
}

describe("Admin API answers have the discovery shapes", () => {
  const sandbox = withSandbox({ now: () => clock });

  it("accounts, summaries, properties, key events, data streams", async () => {
    const s = sandbox();
    const t = await accessToken(s, ANALYST);
    await adminCheck(s, t, "GET", "/v1beta/accounts", "/v1beta/accounts");
    await adminCheck(s, t, "GET", "/v1beta/accounts/{accountsId}", "/v1beta/accounts/100001");
    await adminCheck(
      s,
      t,
      "PATCH",
      "/v1beta/accounts/{accountsId}",
      "/v1beta/accounts/100002?updateMask=display_name",
      { displayName: "Renamed" },
    );
    await adminCheck(s, t, "GET", "/v1beta/accountSummaries", "/v1beta/accountSummaries");
    await adminCheck(s, t, "GET", "/v1beta/properties", "/v1beta/properties?filter=parent:accounts/100001");
    const created = await adminCheck(s, t, "POST", "/v1beta/properties", "/v1beta/properties", {
      parent: "accounts/100001",
      displayName: "Wire",
      timeZone: "Europe/Paris",
    });
    const name = String(created.name);
    await adminCheck(s, t, "GET", P, `/v1beta/${name}`);
    await adminCheck(s, t, "PATCH", P, `/v1beta/${name}?updateMask=display_name`, { displayName: "Wire 2" });
    await adminCheck(s, t, "GET", `${P}/keyEvents`, `${SHOP}/keyEvents`);
    const ke = await adminCheck(s, t, "POST", `${P}/keyEvents`, `${SHOP}/keyEvents`, {
      eventName: "add_to_cart",
      countingMethod: "ONCE_PER_EVENT",
    });
    await adminCheck(s, t, "GET", `${P}/keyEvents/{keyEventsId}`, `/v1beta/${String(ke.name)}`);
    await adminCheck(
      s,
      t,
      "PATCH",
      `${P}/keyEvents/{keyEventsId}`,
      `/v1beta/${String(ke.name)}?updateMask=counting_method`,
      { countingMethod: "ONCE_PER_SESSION" },
    );
    await adminCheck(s, t, "DELETE", `${P}/keyEvents/{keyEventsId}`, `/v1beta/${String(ke.name)}`);
    await adminCheck(s, t, "GET", `${P}/dataStreams`, `${SHOP}/dataStreams`);
    const stream = await adminCheck(s, t, "POST", `${P}/dataStreams`, `${SHOP}/dataStreams`, {
      type: "WEB_DATA_STREAM",
      displayName: "Blog",
      webStreamData: { defaultUri: "https://blog.sandbox.example" },
    });
    await adminCheck(s, t, "GET", `${P}/dataStreams/{dataStreamsId}`, `/v1beta/${String(stream.name)}`);
    await adminCheck(
      s,
      t,
      "PATCH",
      `${P}/dataStreams/{dataStreamsId}`,
      `/v1beta/${String(stream.name)}?updateMask=display_name`,
      { displayName: "Blog 2" },
    );
    await adminCheck(s, t, "DELETE", `${P}/dataStreams/{dataStreamsId}`, `/v1beta/${String(stream.name)}`);
    await adminCheck(s, t, "DELETE", P, `/v1beta/${name}`);
    await adminCheck(s, t, "DELETE", "/v1beta/accounts/{accountsId}", "/v1beta/accounts/100002");
  });

  it("custom dimensions and metrics, data retention, conversion events", async () => {
    const s = sandbox();
    const t = await accessToken(s, ANALYST);
    await adminCheck(s, t, "GET", `${P}/customDimensions`, `${SHOP}/customDimensions`);
    const dim = await adminCheck(s, t, "POST", `${P}/customDimensions`, `${SHOP}/customDimensions`, {
      parameterName: "coupon_code",
      displayName: "Coupon code",
      scope: "EVENT",
    });
    await adminCheck(
      s,
      t,
      "GET",
      `${P}/customDimensions/{customDimensionsId}`,
      `/v1beta/${String(dim.name)}`,
    );
    await adminCheck(
      s,
      t,
      "PATCH",
      `${P}/customDimensions/{customDimensionsId}`,
      `/v1beta/${String(dim.name)}?updateMask=description`,
      { description: "From the cart" },
    );
    await adminCheck(
      s,
      t,
      "POST",
      `${P}/customDimensions/{customDimensionsId}:archive`,
      `/v1beta/${String(dim.name)}:archive`,
      {},
    );
    await adminCheck(s, t, "GET", `${P}/customMetrics`, `${SHOP}/customMetrics`);
    const metric = await adminCheck(s, t, "POST", `${P}/customMetrics`, `${SHOP}/customMetrics`, {
      parameterName: "shipping_cost",
      displayName: "Shipping cost",
      measurementUnit: "CURRENCY",
      scope: "EVENT",
      restrictedMetricType: ["COST_DATA"],
    });
    await adminCheck(s, t, "GET", `${P}/customMetrics/{customMetricsId}`, `/v1beta/${String(metric.name)}`);
    await adminCheck(
      s,
      t,
      "PATCH",
      `${P}/customMetrics/{customMetricsId}`,
      `/v1beta/${String(metric.name)}?updateMask=display_name`,
      { displayName: "Shipping" },
    );
    await adminCheck(
      s,
      t,
      "POST",
      `${P}/customMetrics/{customMetricsId}:archive`,
      `/v1beta/${String(metric.name)}:archive`,
    );
    await adminCheck(s, t, "GET", `${P}/dataRetentionSettings`, `${SHOP}/dataRetentionSettings`);
    await adminCheck(
      s,
      t,
      "PATCH",
      `${P}/dataRetentionSettings`,
      `${SHOP}/dataRetentionSettings?updateMask=event_data_retention`,
      { eventDataRetention: "TWO_MONTHS" },
    );
    await adminCheck(s, t, "GET", `${P}/conversionEvents`, `${SHOP}/conversionEvents`);
    const conversion = await adminCheck(s, t, "POST", `${P}/conversionEvents`, `${SHOP}/conversionEvents`, {
      eventName: "begin_checkout",
      defaultConversionValue: { value: 3, currencyCode: "EUR" },
    });
    await adminCheck(
      s,
      t,
      "GET",
      `${P}/conversionEvents/{conversionEventsId}`,
      `/v1beta/${String(conversion.name)}`,
    );
    await adminCheck(
      s,
      t,
      "PATCH",
      `${P}/conversionEvents/{conversionEventsId}`,
      `/v1beta/${String(conversion.name)}?updateMask=counting_method`,
      { countingMethod: "ONCE_PER_SESSION" },
    );
    await adminCheck(
      s,
      t,
      "DELETE",
      `${P}/conversionEvents/{conversionEventsId}`,
      `/v1beta/${String(conversion.name)}`,
    );
  });
});

describe("Data API answers have the discovery shapes", () => {
  const sandbox = withSandbox({ now: () => clock, data: { audienceExportMs: 5_000 } });
  const report = {
    dateRanges: [{ startDate: "7daysAgo", endDate: "yesterday" }],
    dimensions: [{ name: "date" }],
    metrics: [{ name: "activeUsers" }],
  };

  it("reports, metadata, compatibility", async () => {
    const s = sandbox();
    const t = await accessToken(s, ANALYST);
    await dataCheck(s, t, "POST", `${P}:runReport`, `${SHOP}:runReport`, {
      ...report,
      returnPropertyQuota: true,
    });
    await dataCheck(s, t, "POST", `${P}:batchRunReports`, `${SHOP}:batchRunReports`, {
      requests: [report, report],
    });
    const pivot = {
      ...report,
      dimensions: [{ name: "date" }, { name: "country" }],
      pivots: [
        { fieldNames: ["country"], limit: "3" },
        { fieldNames: ["date"], limit: "5" },
      ],
    };
    await dataCheck(s, t, "POST", `${P}:runPivotReport`, `${SHOP}:runPivotReport`, pivot);
    await dataCheck(s, t, "POST", `${P}:batchRunPivotReports`, `${SHOP}:batchRunPivotReports`, {
      requests: [pivot],
    });
    await dataCheck(s, t, "POST", `${P}:runRealtimeReport`, `${SHOP}:runRealtimeReport`, {
      dimensions: [{ name: "country" }],
      metrics: [{ name: "activeUsers" }],
    });
    await dataCheck(s, t, "GET", `${P}/metadata`, `${SHOP}/metadata`);
    await dataCheck(s, t, "POST", `${P}:checkCompatibility`, `${SHOP}:checkCompatibility`, {
      dimensions: [{ name: "date" }],
      metrics: [{ name: "activeUsers" }],
    });
  });

  it("audience exports: create (Operation), get, list, query", async () => {
    const s = sandbox();
    const t = await accessToken(s, ANALYST);
    const operation = await dataCheck(s, t, "POST", `${P}/audienceExports`, `${SHOP}/audienceExports`, {
      audience: "properties/412345671/audiences/1002",
      dimensions: [{ dimensionName: "deviceId" }, { dimensionName: "userId" }],
    });
    const name = String(operation.name).replace(/operations\/audienceExport-/, "audienceExports/");
    await dataCheck(s, t, "GET", `${P}/audienceExports/{audienceExportsId}`, `/v1beta/${name}`);
    clock += 5_000;
    await dataCheck(s, t, "GET", `${P}/audienceExports`, `${SHOP}/audienceExports`);
    await dataCheck(s, t, "POST", `${P}/audienceExports/{audienceExportsId}:query`, `/v1beta/${name}:query`, {
      limit: "10",
    });
  });
});

/** The methods validated above: a shrinking list fails the last test. */
const EXPECTED = [
  "ga4-admin DELETE /v1beta/accounts/{accountsId}",
  "ga4-admin DELETE /v1beta/properties/{propertiesId}",
  "ga4-admin DELETE /v1beta/properties/{propertiesId}/conversionEvents/{conversionEventsId}",
  "ga4-admin DELETE /v1beta/properties/{propertiesId}/dataStreams/{dataStreamsId}",
  "ga4-admin DELETE /v1beta/properties/{propertiesId}/keyEvents/{keyEventsId}",
  "ga4-admin GET /v1beta/accountSummaries",
  "ga4-admin GET /v1beta/accounts",
  "ga4-admin GET /v1beta/accounts/{accountsId}",
  "ga4-admin GET /v1beta/properties",
  "ga4-admin GET /v1beta/properties/{propertiesId}",
  "ga4-admin GET /v1beta/properties/{propertiesId}/conversionEvents",
  "ga4-admin GET /v1beta/properties/{propertiesId}/conversionEvents/{conversionEventsId}",
  "ga4-admin GET /v1beta/properties/{propertiesId}/customDimensions",
  "ga4-admin GET /v1beta/properties/{propertiesId}/customDimensions/{customDimensionsId}",
  "ga4-admin GET /v1beta/properties/{propertiesId}/customMetrics",
  "ga4-admin GET /v1beta/properties/{propertiesId}/customMetrics/{customMetricsId}",
  "ga4-admin GET /v1beta/properties/{propertiesId}/dataRetentionSettings",
  "ga4-admin GET /v1beta/properties/{propertiesId}/dataStreams",
  "ga4-admin GET /v1beta/properties/{propertiesId}/dataStreams/{dataStreamsId}",
  "ga4-admin GET /v1beta/properties/{propertiesId}/keyEvents",
  "ga4-admin GET /v1beta/properties/{propertiesId}/keyEvents/{keyEventsId}",
  "ga4-admin PATCH /v1beta/accounts/{accountsId}",
  "ga4-admin PATCH /v1beta/properties/{propertiesId}",
  "ga4-admin PATCH /v1beta/properties/{propertiesId}/conversionEvents/{conversionEventsId}",
  "ga4-admin PATCH /v1beta/properties/{propertiesId}/customDimensions/{customDimensionsId}",
  "ga4-admin PATCH /v1beta/properties/{propertiesId}/customMetrics/{customMetricsId}",
  "ga4-admin PATCH /v1beta/properties/{propertiesId}/dataRetentionSettings",
  "ga4-admin PATCH /v1beta/properties/{propertiesId}/dataStreams/{dataStreamsId}",
  "ga4-admin PATCH /v1beta/properties/{propertiesId}/keyEvents/{keyEventsId}",
  "ga4-admin POST /v1beta/properties",
  "ga4-admin POST /v1beta/properties/{propertiesId}/conversionEvents",
  "ga4-admin POST /v1beta/properties/{propertiesId}/customDimensions",
  "ga4-admin POST /v1beta/properties/{propertiesId}/customDimensions/{customDimensionsId}:archive",
  "ga4-admin POST /v1beta/properties/{propertiesId}/customMetrics",
  "ga4-admin POST /v1beta/properties/{propertiesId}/customMetrics/{customMetricsId}:archive",
  "ga4-admin POST /v1beta/properties/{propertiesId}/dataStreams",
  "ga4-admin POST /v1beta/properties/{propertiesId}/keyEvents",
  "ga4-data GET /v1beta/properties/{propertiesId}/audienceExports",
  "ga4-data GET /v1beta/properties/{propertiesId}/audienceExports/{audienceExportsId}",
  "ga4-data GET /v1beta/properties/{propertiesId}/metadata",
  "ga4-data POST /v1beta/properties/{propertiesId}/audienceExports",
  "ga4-data POST /v1beta/properties/{propertiesId}/audienceExports/{audienceExportsId}:query",
  "ga4-data POST /v1beta/properties/{propertiesId}:batchRunPivotReports",
  "ga4-data POST /v1beta/properties/{propertiesId}:batchRunReports",
  "ga4-data POST /v1beta/properties/{propertiesId}:checkCompatibility",
  "ga4-data POST /v1beta/properties/{propertiesId}:runPivotReport",
  "ga4-data POST /v1beta/properties/{propertiesId}:runRealtimeReport",
  "ga4-data POST /v1beta/properties/{propertiesId}:runReport",
];

describe("coverage", () => {
  it(`validated the answers of ${EXPECTED.length} methods against their response schemas`, () => {
    expect([...validated.keys()].sort()).toEqual(EXPECTED);
  });
});
