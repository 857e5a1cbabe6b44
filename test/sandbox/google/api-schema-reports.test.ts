/**
 * The reports a newcomer asks for first, on the whole Google sandbox (OAuth + Admin + Data on one
 * loopback server): through the Run Reports tool step and as raw Data API calls, including a custom
 * dimension created through the Admin API.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryCredentialStore } from "../../../src/auth/credential-store.js";
import {
  type GoogleSandbox,
  SANDBOX_GOOGLE_USER,
  sandboxEnv,
  startGoogleSandbox,
} from "../../../src/sandbox/index.js";
import { MemoryState } from "../../../src/state/memory.js";
import { runToolStep } from "../../../src/tools/run.js";
import { Workspace } from "../../../src/workspace.js";
import { accessToken, admin, call, EDITOR, loopbackOnly } from "../../helpers/google-sandbox.js";

loopbackOnly();

const REPORT = "google_analytics_run_reports";
const PROPERTY = "412345671";
const NOW = Date.UTC(2026, 10, 23, 12);
const LAST_28 = [{ start_date: "28daysAgo", end_date: "yesterday" }];

interface Report {
  rows: Record<string, string | number>[];
  row_count: number;
}

describe("API schema reports on the Google sandbox", () => {
  let google: GoogleSandbox;
  let workspace: Workspace;
  const tool = async (input: Record<string, unknown>): Promise<Report> =>
    (
      await runToolStep(
        REPORT,
        { property: PROPERTY, date_ranges: LAST_28, limit: 10_000, ...input },
        await workspace.toolContext({}),
      )
    ).data as Report;
  const sumOf = (rows: Report["rows"], field: string) => rows.reduce((a, r) => a + Number(r[field] ?? 0), 0);

  beforeAll(async () => {
    google = await startGoogleSandbox({ now: () => NOW });
    workspace = new Workspace({
      env: sandboxEnv({ google }),
      store: new MemoryCredentialStore(),
      state: new MemoryState(),
    });
    await workspace.accounts.importAccount({
      label: "analyst",
      refreshToken: google.issueRefreshToken(SANDBOX_GOOGLE_USER),
    });
  });
  afterAll(async () => {
    await workspace.close();
    await google.close();
  });

  it("sessions by city, totalUsers by browser and deviceCategory, sessions by landingPage and hour (Run Reports)", async () => {
    const total = (await tool({ metrics: ["sessions", "totalUsers"] })).rows[0] ?? {};
    const byCity = await tool({ metrics: ["sessions"], dimensions: ["city"] });
    expect(byCity.rows.map((r) => r.city)).toContain("London");
    expect(sumOf(byCity.rows, "sessions")).toBe(total.sessions);
    const byBrowser = await tool({ metrics: ["totalUsers"], dimensions: ["browser", "deviceCategory"] });
    expect(
      byBrowser.rows.find((r) => r.browser === "Chrome" && r.deviceCategory === "desktop"),
    ).toBeDefined();
    expect(sumOf(byBrowser.rows, "totalUsers")).toBe(total.totalUsers);
    const byLanding = await tool({ metrics: ["sessions"], dimensions: ["landingPage", "hour"] });
    expect(new Set(byLanding.rows.map((r) => r.hour)).size).toBe(24);
    expect(byLanding.rows.every((r) => String(r.landingPage).startsWith("/"))).toBe(true);
    expect(sumOf(byLanding.rows, "sessions")).toBe(total.sessions);
  });

  it("a custom dimension created through the Admin API is in metadata and splits reports (tool and raw call)", async () => {
    const token = await accessToken(google, EDITOR);
    const created = await admin(google, token, "POST", `/v1beta/properties/${PROPERTY}/customDimensions`, {
      parameterName: "plan_name",
      displayName: "Plan name",
      scope: "EVENT",
    });
    expect(created.status).toBe(200);
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const metadata = await call(`${google.dataApiUrl}/v1beta/properties/${PROPERTY}/metadata`, { headers });
    const custom = (
      metadata.body.dimensions as { apiName: string; uiName: string; customDefinition: boolean }[]
    ).filter((d) => d.customDefinition);
    // The seeded payment_type / customer_tier / item_color and the new plan_name.
    expect(custom.map((d) => d.apiName)).toEqual([
      "customEvent:payment_type",
      "customUser:customer_tier",
      "customItem:item_color",
      "customEvent:plan_name",
    ]);
    const raw = await call(`${google.dataApiUrl}/v1beta/properties/${PROPERTY}:runReport`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        dateRanges: [{ startDate: "28daysAgo", endDate: "yesterday" }],
        dimensions: [{ name: "customEvent:plan_name" }],
        metrics: [{ name: "eventCount" }],
      }),
    });
    expect(raw.status).toBe(200);
    const values = (raw.body.rows as { dimensionValues: { value: string }[] }[]).map(
      (r) => r.dimensionValues[0]?.value,
    );
    expect(values).toContain("(not set)");
    expect(values.filter((v) => v !== "(not set)").length).toBeGreaterThan(1);
    const viaTool = await tool({ metrics: ["sessions"], dimensions: ["customUser:customer_tier"] });
    expect(viaTool.rows.length).toBeGreaterThan(1);
    expect(sumOf(viaTool.rows, "sessions")).toBe((await tool({ metrics: ["sessions"] })).rows[0]?.sessions);
    // Archived, it leaves metadata and reports refuse it.
    const id = String(created.body.name).split("/").at(-1);
    expect(
      (
        await admin(
          google,
          token,
          "POST",
          `/v1beta/properties/${PROPERTY}/customDimensions/${id}:archive`,
          {},
        )
      ).status,
    ).toBe(200);
    const after = await call(`${google.dataApiUrl}/v1beta/properties/${PROPERTY}:runReport`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        dateRanges: [{ startDate: "28daysAgo", endDate: "yesterday" }],
        dimensions: [{ name: "customEvent:plan_name" }],
        metrics: [{ name: "eventCount" }],
      }),
    });
    expect(after.status).toBe(400);
  });
});
