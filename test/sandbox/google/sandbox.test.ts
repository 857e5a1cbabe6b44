import { describe, expect, it } from "vitest";
import { startGoogleSandbox } from "../../../src/sandbox/google/index.js";
import { SCOPE_READONLY } from "../../../src/sandbox/google/types.js";
import {
  ANALYST,
  accessToken,
  admin,
  call,
  EDITOR,
  form,
  loopbackOnly,
  VIEWER,
  withSandbox,
} from "../../helpers/google-sandbox.js";

loopbackOnly();

const NOW = Date.parse("2025-03-01T12:00:00.000Z");
const REPORT = {
  dateRanges: [{ startDate: "28daysAgo", endDate: "yesterday" }],
  metrics: [{ name: "keyEvents" }, { name: "eventCount" }],
};

function runReport(url: string, token: string, propertyId: string, body: unknown) {
  return call(`${url}/v1beta/properties/${propertyId}:runReport`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

function metricValue(reply: { body: Record<string, unknown> }, index: number): number {
  const rows = reply.body.rows as { metricValues: { value: string }[] }[] | undefined;
  return Number(rows?.[0]?.metricValues[index]?.value ?? 0);
}

describe("Google sandbox: one server for OAuth, Admin and Data", () => {
  const sandbox = withSandbox({ now: () => NOW });

  it("exposes the three API bases on one loopback origin", () => {
    const s = sandbox();
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(s.dataApiUrl).toBe(`${s.url}/data`);
    expect(s.adminApiUrl).toBe(`${s.url}/admin`);
    expect(s.oauthUrl).toBe(`${s.url}/oauth`);
    expect(s.authorizeUrl).toBe(`${s.url}/oauth/authorize`);
    expect(s.clientId).toBe("sandbox-google-client-id.apps.googleusercontent.com");
  });

  it("runs a Data API report with a token from the OAuth side, and 401s without one", async () => {
    const s = sandbox();
    const token = await accessToken(s, VIEWER, [SCOPE_READONLY]);
    const report = await runReport(s.dataApiUrl, token, "412345671", {
      dateRanges: [{ startDate: "7daysAgo", endDate: "yesterday" }],
      dimensions: [{ name: "country" }],
      metrics: [{ name: "sessions" }],
    });
    expect(report.status).toBe(200);
    expect(report.body.kind).toBe("analyticsData#runReport");
    expect((report.body.rows as unknown[]).length).toBeGreaterThan(0);
    // The seeded staging property never collected anything: an empty report omits rows, it is not an error.
    const empty = await runReport(s.dataApiUrl, token, "412345680", REPORT);
    expect(empty.status).toBe(200);
    expect(empty.body).not.toHaveProperty("rows");
    expect((await runReport(s.dataApiUrl, "ya29.bogus", "412345671", REPORT)).status).toBe(401);
    expect(s.stats().data.requests).toBeGreaterThanOrEqual(2);
  });

  it("feeds key events created through the Admin API into the Data API's keyEvents metric", async () => {
    const s = sandbox();
    const token = await accessToken(s, EDITOR);
    const before = await runReport(s.dataApiUrl, token, "412345671", REPORT);
    expect(before.status).toBe(200);
    const created = await admin(s, token, "POST", "/v1beta/properties/412345671/keyEvents", {
      eventName: "add_to_cart",
      countingMethod: "ONCE_PER_EVENT",
    });
    expect(created.status).toBe(200);
    const after = await runReport(s.dataApiUrl, token, "412345671", REPORT);
    expect(metricValue(after, 0)).toBeGreaterThan(metricValue(before, 0));
    expect(metricValue(after, 1)).toBe(metricValue(before, 1));
  });

  it("applies roles and trashing across APIs: a viewer of 100001 cannot read 100002, a trashed property is gone", async () => {
    const s = sandbox();
    const viewer = await accessToken(s, VIEWER);
    expect((await runReport(s.dataApiUrl, viewer, "423456787", REPORT)).status).toBe(403);
    const analyst = await accessToken(s, ANALYST);
    expect((await runReport(s.dataApiUrl, analyst, "423456787", REPORT)).status).toBe(200);
    expect((await admin(s, analyst, "DELETE", "/v1beta/properties/423456787")).status).toBe(200);
    expect((await runReport(s.dataApiUrl, analyst, "423456787", REPORT)).status).toBe(403);
  });

  it("trashes an account's live properties with it, keeps earlier trash dates, and takes no new property", async () => {
    let clock = NOW;
    const s = await startGoogleSandbox({ now: () => clock });
    try {
      const analyst = await accessToken(s, ANALYST);
      expect((await admin(s, analyst, "DELETE", "/v1beta/properties/423456789")).status).toBe(200);
      clock += 60_000;
      expect((await admin(s, analyst, "DELETE", "/v1beta/accounts/100002")).status).toBe(200);
      const list = async (query: string) =>
        (await admin(s, analyst, "GET", `/v1beta/properties?filter=parent:accounts/100002${query}`)).body
          .properties;
      expect(await list("")).toBeUndefined();
      expect(await list("&showDeleted=true")).toEqual([
        expect.objectContaining({
          name: "properties/423456787",
          deleteTime: "2025-03-01T12:01:00.000Z",
          expireTime: "2025-04-05T12:01:00.000Z",
        }),
        expect.objectContaining({ name: "properties/423456789", deleteTime: "2025-03-01T12:00:00.000Z" }),
      ]);
      expect((await runReport(s.dataApiUrl, analyst, "423456787", REPORT)).status).toBe(403);
      const created = await admin(s, analyst, "POST", "/v1beta/properties", {
        parent: "accounts/100002",
        displayName: "After delete",
        timeZone: "Europe/Berlin",
      });
      expect(created).toMatchObject({ status: 404, body: { error: { status: "NOT_FOUND" } } });
    } finally {
      await s.close();
    }
  });

  it("answers 404 in the google.rpc shape outside the three prefixes", async () => {
    const s = sandbox();
    const reply = await call(`${s.url}/v1beta/properties`);
    expect(reply.status).toBe(404);
    expect(reply.body.error).toMatchObject({ code: 404, status: "NOT_FOUND" });
  });
});

describe("Google sandbox: options and determinism", () => {
  it("uses the configured client, users and token lifetime", async () => {
    const s = await startGoogleSandbox({
      clientId: "custom.apps.googleusercontent.com",
      clientSecret: "custom-secret",
      users: [{ email: "solo@sandbox.example", roles: { "100002": "editor" } }],
      accessTokenTtlSeconds: 60,
    });
    try {
      const refreshToken = s.issueRefreshToken("solo@sandbox.example");
      const reply = await call(
        `${s.oauthUrl}/token`,
        form({
          grant_type: "refresh_token",
          refresh_token: refreshToken,
          client_id: s.clientId,
          client_secret: "custom-secret",
        }),
      );
      expect(reply.body.expires_in).toBe(60);
      const accounts = await admin(s, String(reply.body.access_token), "GET", "/v1beta/accounts");
      expect(accounts.body.accounts).toEqual([expect.objectContaining({ name: "accounts/100002" })]);
      expect(() => s.issueRefreshToken(ANALYST)).toThrow(/Unknown sandbox user/);
    } finally {
      await s.close();
    }
    await expect(startGoogleSandbox({ consentAs: "ghost@sandbox.example" })).rejects.toThrow(
      /Unknown sandbox user/,
    );
  });

  it("builds the same world twice: identical ids, measurement ids and bodies", async () => {
    const bodies: string[] = [];
    for (let i = 0; i < 2; i++) {
      const s = await startGoogleSandbox({ now: () => NOW });
      try {
        const token = await accessToken(s, ANALYST);
        const created = await admin(s, token, "POST", "/v1beta/properties", {
          parent: "accounts/100001",
          displayName: "Twin",
          timeZone: "Europe/Paris",
        });
        const stream = await admin(s, token, "POST", `/v1beta/${String(created.body.name)}/dataStreams`, {
          type: "WEB_DATA_STREAM",
          displayName: "Twin web",
          webStreamData: { defaultUri: "https://twin.sandbox.example" },
        });
        const summaries = await admin(s, token, "GET", "/v1beta/accountSummaries");
        bodies.push(JSON.stringify([created.body, stream.body, summaries.body]));
      } finally {
        await s.close();
      }
    }
    expect(bodies[0]).toBe(bodies[1]);
  });

  it("stops listening on close()", async () => {
    const s = await startGoogleSandbox();
    await s.close();
    await expect(fetch(`${s.adminApiUrl}/v1beta/accounts`)).rejects.toThrow();
  });
});
