import { describe, expect, it } from "vitest";
import { GA_SCOPES, googleClientFrom, googleEndpointsFromEnv } from "../../../src/auth/google/config.js";
import { ConfigurationError } from "../../../src/errors.js";

describe("googleEndpointsFromEnv", () => {
  it("defaults to Google's hosts", () => {
    expect(googleEndpointsFromEnv({})).toEqual({
      dataApiUrl: "https://analyticsdata.googleapis.com",
      adminApiUrl: "https://analyticsadmin.googleapis.com",
      oauthUrl: "https://oauth2.googleapis.com",
      authorizeUrl: "https://accounts.google.com/o/oauth2/v2/auth",
    });
  });

  it("accepts loopback http bases with a path (the sandbox) and strips a trailing slash", () => {
    const endpoints = googleEndpointsFromEnv({
      GA4_DATA_API_URL: "http://127.0.0.1:4010/data/",
      GA4_ADMIN_API_URL: "http://localhost:4010/admin",
      GOOGLE_OAUTH_URL: "http://127.0.0.1:4010/oauth",
      GOOGLE_OAUTH_AUTHORIZE_URL: "http://127.0.0.1:4010/oauth/authorize",
    });
    expect(endpoints.dataApiUrl).toBe("http://127.0.0.1:4010/data");
    expect(endpoints.adminApiUrl).toBe("http://localhost:4010/admin");
  });

  it.each([
    ["http://analytics.example.com", /loopback/],
    ["ftp://127.0.0.1/x", /scheme/],
    ["https://user:hunter2@example.com", /credentials/],
    ["https://example.com/?q=1", /query/],
    ["not a url", /does not parse/],
  ])("refuses %s without echoing it", (value, why) => {
    let error: unknown;
    try {
      googleEndpointsFromEnv({ GA4_DATA_API_URL: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(why);
    expect((error as Error).message).toContain("GA4_DATA_API_URL");
    expect((error as Error).message).not.toContain(value);
  });
});

describe("GA_SCOPES and googleClientFrom", () => {
  it("asks for readonly + edit (Admin writes need edit) and openid email (to show the account)", () => {
    expect(GA_SCOPES).toEqual([
      "https://www.googleapis.com/auth/analytics.readonly",
      "https://www.googleapis.com/auth/analytics.edit",
      "openid",
      "email",
    ]);
  });

  it("lets the environment win, needs both variables, and falls back to the workspace client", () => {
    const stored = { googleClient: { clientId: "stored", clientSecret: "s" }, googleAccounts: {} };
    expect(
      googleClientFrom({ GOOGLE_OAUTH_CLIENT_ID: "env", GOOGLE_OAUTH_CLIENT_SECRET: "e" }, stored),
    ).toEqual({
      clientId: "env",
      clientSecret: "e",
    });
    expect(googleClientFrom({}, stored)).toEqual({ clientId: "stored", clientSecret: "s" });
    expect(googleClientFrom({}, { googleAccounts: {} })).toBeUndefined();
    expect(() => googleClientFrom({ GOOGLE_OAUTH_CLIENT_ID: "env" }, stored)).toThrow(ConfigurationError);
  });
});
