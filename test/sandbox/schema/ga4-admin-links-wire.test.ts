/**
 * The Admin API's link, secret, data sharing and change history methods answer in the shape of the
 * discovery document's response schemas (closed objects), as ga4-wire.test.ts checks for the others.
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

const clock = Date.parse("2025-03-03T12:00:00.000Z");
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

describe("Admin API link and history answers have the discovery shapes", () => {
  const sandbox = withSandbox({ now: () => clock });

  it("measurement protocol secrets, Google Ads and Firebase links, data sharing, change history", async () => {
    const s = sandbox();
    const t = await accessToken(s, ANALYST);
    const streams = (await admin(s, t, "GET", `${SHOP}/dataStreams`)).body.dataStreams as { name: string }[];
    const S = `${P}/dataStreams/{dataStreamsId}/measurementProtocolSecrets`;
    const base = `/v1beta/${streams[0]?.name ?? ""}/measurementProtocolSecrets`;
    const secret = await adminCheck(s, t, "POST", S, base, { displayName: "Server events" });
    await adminCheck(s, t, "GET", S, base);
    const secretPath = `/v1beta/${String(secret.name)}`;
    await adminCheck(s, t, "GET", `${S}/{measurementProtocolSecretsId}`, secretPath);
    await adminCheck(
      s,
      t,
      "PATCH",
      `${S}/{measurementProtocolSecretsId}`,
      `${secretPath}?updateMask=display_name`,
      {
        displayName: "Backend",
      },
    );
    await adminCheck(s, t, "DELETE", `${S}/{measurementProtocolSecretsId}`, secretPath);
    const ads = await adminCheck(s, t, "POST", `${P}/googleAdsLinks`, `${SHOP}/googleAdsLinks`, {
      customerId: "1234567890",
    });
    await adminCheck(s, t, "GET", `${P}/googleAdsLinks`, `${SHOP}/googleAdsLinks`);
    const adsPath = `/v1beta/${String(ads.name)}`;
    await adminCheck(
      s,
      t,
      "PATCH",
      `${P}/googleAdsLinks/{googleAdsLinksId}`,
      `${adsPath}?updateMask=ads_personalization_enabled`,
      {
        adsPersonalizationEnabled: false,
      },
    );
    await adminCheck(s, t, "DELETE", `${P}/googleAdsLinks/{googleAdsLinksId}`, adsPath);
    const firebase = await adminCheck(s, t, "POST", `${P}/firebaseLinks`, `${SHOP}/firebaseLinks`, {
      project: "projects/my-app-123",
    });
    await adminCheck(s, t, "GET", `${P}/firebaseLinks`, `${SHOP}/firebaseLinks`);
    await adminCheck(
      s,
      t,
      "DELETE",
      `${P}/firebaseLinks/{firebaseLinksId}`,
      `/v1beta/${String(firebase.name)}`,
    );
    await adminCheck(
      s,
      t,
      "GET",
      "/v1beta/accounts/{accountsId}/dataSharingSettings",
      "/v1beta/accounts/100001/dataSharingSettings",
    );
    const history = await adminCheck(
      s,
      t,
      "POST",
      "/v1beta/accounts/{accountsId}:searchChangeHistoryEvents",
      "/v1beta/accounts/100001:searchChangeHistoryEvents",
      { property: "properties/412345671" },
    );
    expect((history.changeHistoryEvents as unknown[]).length).toBeGreaterThanOrEqual(8);
    await call(`${s.dataApiUrl}${SHOP}:runReport`, {
      method: "POST",
      headers: { authorization: `Bearer ${t}`, "content-type": "application/json" },
      body: JSON.stringify({
        dateRanges: [{ startDate: "7daysAgo", endDate: "yesterday" }],
        metrics: [{ name: "sessions" }],
      }),
    });
    const access = {
      dimensions: [{ dimensionName: "userEmail" }, { dimensionName: "accessDateHour" }],
      metrics: [{ metricName: "accessCount" }],
    };
    const byProperty = await adminCheck(
      s,
      t,
      "POST",
      `${P}:runAccessReport`,
      `${SHOP}:runAccessReport`,
      access,
    );
    expect(byProperty.rowCount).toBe(1);
    expect(byProperty.quota).toBeUndefined();
    // returnEntityQuota: the property's AccessQuota, this request included (RunAccessReportRequest,
    // https://developers.google.com/analytics/devguides/config/admin/v1/rest/v1beta/properties/runAccessReport).
    const quotaOf = async () =>
      (
        await adminCheck(s, t, "POST", `${P}:runAccessReport`, `${SHOP}:runAccessReport`, {
          ...access,
          returnEntityQuota: true,
        })
      ).quota;
    expect(await quotaOf()).toEqual({
      tokensPerDay: { consumed: 1, remaining: 249_999 },
      tokensPerHour: { consumed: 1, remaining: 49_999 },
      concurrentRequests: { remaining: 50 },
      serverErrorsPerProjectPerHour: { remaining: 50 },
      tokensPerProjectPerHour: { consumed: 1, remaining: 12_499 },
    });
    expect(await quotaOf()).toMatchObject({ tokensPerHour: { consumed: 1, remaining: 49_998 } });
    // "For account-level requests, this field must be false."
    const refused = await admin(s, t, "POST", "/v1beta/accounts/100001:runAccessReport", {
      ...access,
      returnEntityQuota: true,
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain("returnEntityQuota");
    await adminCheck(
      s,
      t,
      "POST",
      "/v1beta/accounts/{accountsId}:runAccessReport",
      "/v1beta/accounts/100001:runAccessReport",
      access,
    );
  });
});

const EXPECTED = [
  "ga4-admin DELETE /v1beta/properties/{propertiesId}/dataStreams/{dataStreamsId}/measurementProtocolSecrets/{measurementProtocolSecretsId}",
  "ga4-admin DELETE /v1beta/properties/{propertiesId}/firebaseLinks/{firebaseLinksId}",
  "ga4-admin DELETE /v1beta/properties/{propertiesId}/googleAdsLinks/{googleAdsLinksId}",
  "ga4-admin GET /v1beta/accounts/{accountsId}/dataSharingSettings",
  "ga4-admin GET /v1beta/properties/{propertiesId}/dataStreams/{dataStreamsId}/measurementProtocolSecrets",
  "ga4-admin GET /v1beta/properties/{propertiesId}/dataStreams/{dataStreamsId}/measurementProtocolSecrets/{measurementProtocolSecretsId}",
  "ga4-admin GET /v1beta/properties/{propertiesId}/firebaseLinks",
  "ga4-admin GET /v1beta/properties/{propertiesId}/googleAdsLinks",
  "ga4-admin PATCH /v1beta/properties/{propertiesId}/dataStreams/{dataStreamsId}/measurementProtocolSecrets/{measurementProtocolSecretsId}",
  "ga4-admin PATCH /v1beta/properties/{propertiesId}/googleAdsLinks/{googleAdsLinksId}",
  "ga4-admin POST /v1beta/accounts/{accountsId}:runAccessReport",
  "ga4-admin POST /v1beta/accounts/{accountsId}:searchChangeHistoryEvents",
  "ga4-admin POST /v1beta/properties/{propertiesId}/dataStreams/{dataStreamsId}/measurementProtocolSecrets",
  "ga4-admin POST /v1beta/properties/{propertiesId}/firebaseLinks",
  "ga4-admin POST /v1beta/properties/{propertiesId}/googleAdsLinks",
  "ga4-admin POST /v1beta/properties/{propertiesId}:runAccessReport",
];

describe("coverage", () => {
  it(`validated the answers of ${EXPECTED.length} methods against their response schemas`, () => {
    expect([...validated.keys()].sort()).toEqual(EXPECTED);
  });
});
