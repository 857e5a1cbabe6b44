import nock from "nock";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { GoogleAccounts } from "../../../src/auth/google/accounts.js";
import { ENDPOINTS, MemoryCredentialStore, OAUTH } from "../../helpers/google-auth.js";

// Google refresh tokens look like "1//0g..." and client secrets may hold "+" or "/": a server that
// echoes the request back URL-encoded must not get them into an error message.
const REFRESH = "1//0gCANARYrefresh+token/value-xyz";
const SECRET = "GOCSPX-canary/secret+with=chars";

describe("token endpoint errors that echo the request", () => {
  beforeAll(() => nock.disableNetConnect());
  afterEach(() => nock.cleanAll());

  it.each([
    ["form-encoded", (body: string) => body],
    [
      "JSON-escaped",
      (body: string) => JSON.stringify(Object.fromEntries(new URLSearchParams(body))).replace(/\//g, "\\/"),
    ],
    ["raw", (body: string) => decodeURIComponent(body)],
  ])("withholds an %s echo of the refresh token and client secret", async (_name, echo) => {
    nock(OAUTH)
      .post("/token")
      .reply(400, (_uri, body) => ({
        error: "invalid_request",
        error_description: `you sent ${echo(String(body))}`,
      }));
    const accounts = new GoogleAccounts({
      store: new MemoryCredentialStore(),
      workspace: "default",
      endpoints: ENDPOINTS,
      env: { GOOGLE_OAUTH_CLIENT_ID: "c.apps.googleusercontent.com", GOOGLE_OAUTH_CLIENT_SECRET: SECRET },
    });
    const error = await accounts
      .importAccount({ label: "x", refreshToken: REFRESH })
      .catch((e: unknown) => e as Error);
    const seen = `${String(error)} ${JSON.stringify(error)} ${(error as Error).stack ?? ""}`;
    for (const secret of [REFRESH, SECRET, encodeURIComponent(REFRESH), encodeURIComponent(SECRET)]) {
      expect(seen).not.toContain(secret);
    }
    expect(String(error)).toMatch(/invalid_request/);
  });
});
