import { describe, expect, it } from "vitest";
import { SCOPE_READONLY } from "../../../src/sandbox/google/types.js";
import { authorize, refresh } from "../../helpers/google-oauth-flow.js";
import { ANALYST, admin, call, form, loopbackOnly, withSandbox } from "../../helpers/google-sandbox.js";

loopbackOnly();

describe("Google OAuth emulator: authorize errors", () => {
  const sandbox = withSandbox();

  it("shows an error page (no redirect) for an unknown client or a non-loopback redirect_uri", async () => {
    const s = sandbox();
    const badClient = await authorize(s, { client_id: "nobody.apps.googleusercontent.com" });
    expect(badClient.status).toBe(400);
    expect(badClient.location).toBeUndefined();
    expect(badClient.text).toContain("invalid_client");

    for (const uri of [
      "https://evil.example/cb",
      "http://192.168.1.5:8080/cb",
      "http://user@127.0.0.1:1/cb",
    ]) {
      const bad = await authorize(s, { redirect_uri: uri });
      expect(bad.status, uri).toBe(400);
      expect(bad.location).toBeUndefined();
      expect(bad.text).toContain("redirect_uri_mismatch");
    }
    expect((await authorize(s, { redirect_uri: "http://localhost:5000/" })).status).toBe(302);
  });

  it("redirects back with error= for a bad scope, missing PKCE or a plain challenge", async () => {
    const s = sandbox();
    const scope = await authorize(s, { scope: `${SCOPE_READONLY} https://www.googleapis.com/auth/drive` });
    expect(scope.status).toBe(302);
    expect(scope.location?.searchParams.get("error")).toBe("invalid_scope");
    expect(scope.location?.searchParams.get("state")).toBe("st-123");
    expect(scope.location?.searchParams.has("code")).toBe(false);

    const noPkce = await authorize(s, { code_challenge: undefined, code_challenge_method: undefined });
    expect(noPkce.location?.searchParams.get("error")).toBe("invalid_request");
    const plain = await authorize(s, { code_challenge_method: "plain" });
    expect(plain.location?.searchParams.get("error")).toBe("invalid_request");
    const token = await authorize(s, { response_type: "token" });
    expect(token.location?.searchParams.get("error")).toBe("unsupported_response_type");
  });
});

describe("Google OAuth emulator: revoke, tokeninfo, expiry", () => {
  const sandbox = withSandbox({ accessTokenTtlSeconds: 120 });

  it("revokes by form body; an unknown token is invalid_token", async () => {
    const s = sandbox();
    const refreshToken = s.issueRefreshToken(ANALYST);
    expect((await call(`${s.oauthUrl}/revoke`, form({ token: refreshToken }))).status).toBe(200);
    expect(await call(`${s.oauthUrl}/revoke`, form({ token: refreshToken }))).toMatchObject({
      status: 400,
      body: { error: "invalid_token", error_description: "Token expired or revoked" },
    });
  });

  it("tokeninfo describes a live access token and rejects an expired one", async () => {
    const s = sandbox();
    const refreshToken = s.issueRefreshToken(ANALYST);
    const tokens = await refresh(s, refreshToken);
    expect(tokens.body.expires_in).toBe(120);
    const accessToken = String(tokens.body.access_token);
    const info = await call(`${s.oauthUrl}/tokeninfo?access_token=${accessToken}`);
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({
      aud: s.clientId,
      azp: s.clientId,
      email: ANALYST,
      email_verified: "true",
    });
    expect(Number(info.body.expires_in)).toBeGreaterThan(100);
    expect(String(info.body.scope)).toContain(SCOPE_READONLY);

    s.expireAccessTokens();
    expect((await call(`${s.oauthUrl}/tokeninfo?access_token=${accessToken}`)).body.error).toBe(
      "invalid_token",
    );
    expect((await admin(s, accessToken, "GET", "/v1beta/accounts")).status).toBe(401);
    // The refresh token survives: a refresh brings the caller back.
    const again = await refresh(s, refreshToken);
    expect((await admin(s, String(again.body.access_token), "GET", "/v1beta/accounts")).status).toBe(200);
  });

  it("issueRefreshToken refuses unknown users and scopes", () => {
    const s = sandbox();
    expect(() => s.issueRefreshToken("stranger@example.com")).toThrow(/Unknown sandbox user/);
    expect(() => s.issueRefreshToken(ANALYST, ["https://www.googleapis.com/auth/drive"])).toThrow(
      /Unknown OAuth scope/,
    );
  });
});
