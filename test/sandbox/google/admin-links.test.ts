/**
 * The Admin API's measurement protocol secrets, Google Ads and Firebase links, data sharing settings
 * and change history on the Google sandbox: field rules, roles, and history filters.
 */
import { describe, expect, it } from "vitest";
import {
  ANALYST,
  accessToken,
  admin,
  call,
  EDITOR,
  loopbackOnly,
  VIEWER,
  withSandbox,
} from "../../helpers/google-sandbox.js";

loopbackOnly();

const NOW = Date.parse("2025-03-01T12:00:00.000Z");
const SHOP = "/v1beta/properties/412345671";

describe("Admin API links, secrets, sharing and change history", () => {
  let clock = NOW;
  const sandbox = withSandbox({ now: () => clock });

  it("measurement protocol secrets live under a stream: displayName required, secretValue generated", async () => {
    const s = sandbox();
    const t = await accessToken(s, EDITOR);
    const streams = (await admin(s, t, "GET", `${SHOP}/dataStreams`)).body.dataStreams as { name: string }[];
    const base = `/v1beta/${streams[0]?.name}/measurementProtocolSecrets`;
    expect((await admin(s, t, "POST", base, {})).status).toBe(400);
    const created = await admin(s, t, "POST", base, { displayName: "Server" });
    expect(created.status).toBe(200);
    expect(String(created.body.secretValue)).toMatch(/^[\w-]{20,}$/);
    expect(
      (await admin(s, t, "POST", base, { displayName: "x", secretValue: "mine", extra: 1 })).status,
    ).toBe(400);
    const listed = (await admin(s, t, "GET", base)).body.measurementProtocolSecrets as { name: string }[];
    expect(listed.map((x) => x.name)).toEqual([created.body.name]);
    expect((await admin(s, t, "GET", `${SHOP}/dataStreams/999/measurementProtocolSecrets`)).status).toBe(404);
    const viewer = await accessToken(s, VIEWER);
    expect((await admin(s, viewer, "POST", base, { displayName: "No" })).status).toBe(403);
  });

  it("Google Ads links need a 10-digit customer ID once per property; only ads personalization changes", async () => {
    const s = sandbox();
    const t = await accessToken(s, EDITOR);
    expect((await admin(s, t, "POST", `${SHOP}/googleAdsLinks`, { customerId: "12-34" })).status).toBe(400);
    const link = await admin(s, t, "POST", `${SHOP}/googleAdsLinks`, { customerId: "123-456-7890" });
    expect(link.body).toMatchObject({
      customerId: "1234567890",
      adsPersonalizationEnabled: true,
      canManageClients: false,
      creatorEmailAddress: EDITOR,
    });
    expect((await admin(s, t, "POST", `${SHOP}/googleAdsLinks`, { customerId: "1234567890" })).status).toBe(
      409,
    );
    const path = `/v1beta/${link.body.name}`;
    expect(
      (await admin(s, t, "PATCH", `${path}?updateMask=customer_id`, { customerId: "1111111111" })).status,
    ).toBe(400);
    const patched = await admin(s, t, "PATCH", `${path}?updateMask=ads_personalization_enabled`, {
      adsPersonalizationEnabled: false,
    });
    expect(patched.body.adsPersonalizationEnabled).toBe(false);
    expect((await admin(s, t, "DELETE", path)).status).toBe(200);
    expect((await admin(s, t, "GET", `${SHOP}/googleAdsLinks`)).body.googleAdsLinks).toBeUndefined();
  });

  it("a property has at most one Firebase link; a project id comes back as a project number", async () => {
    const s = sandbox();
    const t = await accessToken(s, EDITOR);
    expect((await admin(s, t, "POST", `${SHOP}/firebaseLinks`, { project: "my-app" })).status).toBe(400);
    const link = await admin(s, t, "POST", `${SHOP}/firebaseLinks`, { project: "projects/my-app-123" });
    expect(String(link.body.project)).toMatch(/^projects\/\d+$/);
    const second = await admin(s, t, "POST", `${SHOP}/firebaseLinks`, { project: "projects/42" });
    expect(second.status).toBe(409);
    expect(JSON.stringify(second.body)).toContain("at most one FirebaseLink");
  });

  it("data sharing settings belong to the account and need a role on it", async () => {
    const s = sandbox();
    const t = await accessToken(s, ANALYST);
    const settings = await admin(s, t, "GET", "/v1beta/accounts/100001/dataSharingSettings");
    expect(settings.body).toMatchObject({
      name: "accounts/100001/dataSharingSettings",
      sharingWithOthersEnabled: false,
    });
    const viewer = await accessToken(s, VIEWER);
    expect((await admin(s, viewer, "GET", "/v1beta/accounts/100002/dataSharingSettings")).status).toBe(403);
  });

  it("change history records writes with actor and time, newest first, filtered and paged", async () => {
    const s = sandbox();
    const t = await accessToken(s, EDITOR);
    clock = NOW;
    await admin(s, t, "POST", `${SHOP}/googleAdsLinks`, { customerId: "2222222222" });
    clock = NOW + 60_000;
    const dim = await admin(s, t, "POST", `${SHOP}/customDimensions`, {
      parameterName: "plan",
      displayName: "Plan",
      scope: "EVENT",
    });
    clock = NOW + 120_000;
    await admin(s, t, "POST", `/v1beta/${dim.body.name}:archive`, {});
    const analyst = await accessToken(s, ANALYST);
    const search = (body: Record<string, unknown>) =>
      admin(s, analyst, "POST", "/v1beta/accounts/100001:searchChangeHistoryEvents", body);
    const all = (await search({ property: "properties/412345671" })).body.changeHistoryEvents as {
      changeTime: string;
      userActorEmail: string;
      changes: { resource: string; action: string; resourceAfterChange?: Record<string, unknown> }[];
    }[];
    expect(all.map((e) => e.changes[0]?.action)).toEqual(["UPDATED", "CREATED", "CREATED"]);
    expect(all[2]?.userActorEmail).toBe(EDITOR);
    expect(all[2]?.changeTime).toBe("2025-03-01T12:00:00.000Z");
    expect(Object.keys(all[2]?.changes[0]?.resourceAfterChange ?? {})).toEqual(["googleAdsLink"]);
    const ads = await search({ resourceType: ["GOOGLE_ADS_LINK"] });
    expect((ads.body.changeHistoryEvents as unknown[]).length).toBe(1);
    const paged = await search({ pageSize: 2 });
    expect((paged.body.changeHistoryEvents as unknown[]).length).toBe(2);
    const rest = await search({ pageSize: 2, pageToken: paged.body.nextPageToken });
    expect((rest.body.changeHistoryEvents as unknown[]).length).toBe(1);
    expect((await search({ actorEmail: ["someone@else.example"] })).body.changeHistoryEvents).toBeUndefined();
    expect((await search({ resourceType: ["NOPE"] })).status).toBe(400);
    const late = await search({ earliestChangeTime: "2025-03-01T12:01:30Z" });
    expect((late.body.changeHistoryEvents as unknown[]).length).toBe(1);
    const viewer = await accessToken(s, VIEWER);
    expect(
      (await admin(s, viewer, "POST", "/v1beta/accounts/100001:searchChangeHistoryEvents", {})).status,
    ).toBe(403);
  });

  it("data access reports count the Data API report reads per user and property, for administrators", async () => {
    const s = sandbox();
    clock = NOW;
    const reader = await accessToken(s, VIEWER);
    const runReport = (token: string) =>
      call(`${s.dataApiUrl}${SHOP}:runReport`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({
          dateRanges: [{ startDate: "7daysAgo", endDate: "yesterday" }],
          metrics: [{ name: "sessions" }],
        }),
      });
    expect((await runReport(reader)).status).toBe(200);
    expect((await runReport(reader)).status).toBe(200);
    const analyst = await accessToken(s, ANALYST);
    expect((await runReport(analyst)).status).toBe(200);
    const body = {
      dimensions: [{ dimensionName: "userEmail" }, { dimensionName: "accessedPropertyName" }],
      metrics: [{ metricName: "accessCount" }],
      dateRanges: [{ startDate: "yesterday", endDate: "today" }],
    };
    const report = await admin(s, analyst, "POST", `${SHOP}:runAccessReport`, body);
    expect(report.status).toBe(200);
    expect(report.body.rows).toEqual([
      { dimensionValues: [{ value: VIEWER }, { value: "Retail Web Store" }], metricValues: [{ value: "2" }] },
      {
        dimensionValues: [{ value: ANALYST }, { value: "Retail Web Store" }],
        metricValues: [{ value: "1" }],
      },
    ]);
    expect(report.body.rowCount).toBe(2);
    const account = await admin(s, analyst, "POST", "/v1beta/accounts/100001:runAccessReport", {
      metrics: [{ metricName: "accessCount" }],
    });
    expect(account.body.rows).toEqual([{ metricValues: [{ value: "3" }] }]);
    const old = await admin(s, analyst, "POST", `${SHOP}:runAccessReport`, {
      ...body,
      dateRanges: [{ startDate: "2024-01-01", endDate: "2024-01-31" }],
    });
    expect(old.body.rows).toBeUndefined();
    const unknown = await admin(s, analyst, "POST", `${SHOP}:runAccessReport`, {
      dimensions: [{ dimensionName: "city" }],
    });
    expect(unknown.status).toBe(400);
    expect((await admin(s, reader, "POST", `${SHOP}:runAccessReport`, body)).status).toBe(403);
  });
});
