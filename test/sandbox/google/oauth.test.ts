import { describe, expect, it } from "vitest";
import { SCOPE_EDIT, SCOPE_READONLY } from "../../../src/sandbox/google/types.js";
import { authorize, exchange, jwtPayload, refresh } from "../../helpers/google-oauth-flow.js";
import {
  ANALYST,
  admin,
  call,
  EDITOR,
  form,
  loopbackOnly,
  pkcePair,
  READ_EDIT,
  withSandbox,
} from "../../helpers/google-sandbox.js";

loopbackOnly();

describe("Google OAuth emulator: authorization code + PKCE", () => {
  const sandbox = withSandbox();

  it("runs the full flow: authorize → code → tokens → refresh → revoke → refresh fails", async () => {
    const s = sandbox();
    const auth = await authorize(s);
    expect(auth.status).toBe(302);
    expect(auth.location?.origin).toBe("http://127.0.0.1:49152");
    expect(auth.location?.pathname).toBe("/callback");
    expect(auth.location?.searchParams.get("state")).toBe("st-123");
    const code = auth.location?.searchParams.get("code") ?? "";
    expect(code).not.toBe("");

    const tokens = await exchange(s, code, auth.verifier);
    expect(tokens.status).toBe(200);
    expect(tokens.headers.get("cache-control")).toBe("no-store");
    expect(tokens.body).toMatchObject({ expires_in: 3599, token_type: "Bearer" });
    expect(String(tokens.body.scope).split(" ").sort()).toEqual(
      [SCOPE_READONLY, SCOPE_EDIT, "openid", "https://www.googleapis.com/auth/userinfo.email"].sort(),
    );
    const refreshToken = String(tokens.body.refresh_token);
    expect(refreshToken).toMatch(/^1\/\//);
    expect(jwtPayload(String(tokens.body.id_token))).toMatchObject({
      email: ANALYST,
      email_verified: true,
      aud: s.clientId,
      iss: "https://accounts.google.com",
    });
    expect(jwtPayload(String(tokens.body.id_token)).sub).toMatch(/^\d{21}$/);

    const refreshed = await refresh(s, refreshToken);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.access_token).toMatch(/^ya29\./);
    expect(refreshed.body.access_token).not.toBe(tokens.body.access_token);
    expect(refreshed.body).not.toHaveProperty("refresh_token");

    const revoked = await call(`${s.oauthUrl}/revoke?token=${encodeURIComponent(refreshToken)}`, {
      method: "POST",
    });
    expect(revoked).toMatchObject({ status: 200, body: {} });

    const after = await refresh(s, refreshToken);
    expect(after).toMatchObject({
      status: 400,
      body: { error: "invalid_grant", error_description: "Token has been expired or revoked." },
    });
    // Revoking the grant also kills its access tokens.
    const adminCall = await admin(s, String(refreshed.body.access_token), "GET", "/v1beta/accounts");
    expect(adminCall.status).toBe(401);
    expect(s.stats()).toMatchObject({ tokenRequests: 3, refreshRequests: 2, revocations: 1 });
  });

  it("refuses a wrong code_verifier with invalid_grant, and a code is single-use", async () => {
    const s = sandbox();
    const auth = await authorize(s);
    const code = auth.location?.searchParams.get("code") ?? "";
    const wrong = await exchange(s, code, pkcePair().verifier);
    expect(wrong).toMatchObject({ status: 400, body: { error: "invalid_grant" } });

    const again = await authorize(s);
    const code2 = again.location?.searchParams.get("code") ?? "";
    expect((await exchange(s, code2, again.verifier)).status).toBe(200);
    expect(await exchange(s, code2, again.verifier)).toMatchObject({
      status: 400,
      body: { error: "invalid_grant", error_description: "Bad Request" },
    });
  });

  it("checks the redirect_uri and client at the token step", async () => {
    const s = sandbox();
    const a = await authorize(s);
    const mismatch = await exchange(s, a.location?.searchParams.get("code") ?? "", a.verifier, {
      redirect_uri: "http://127.0.0.1:1/other",
    });
    expect(mismatch.body.error).toBe("redirect_uri_mismatch");

    const b = await authorize(s);
    const badSecret = await exchange(s, b.location?.searchParams.get("code") ?? "", b.verifier, {
      client_secret: "wrong",
    });
    expect(badSecret).toMatchObject({ status: 401, body: { error: "invalid_client" } });
    const badClient = await exchange(s, "x", "y", { client_id: "nobody.apps.googleusercontent.com" });
    expect(badClient).toMatchObject({
      status: 401,
      body: { error: "invalid_client", error_description: "The OAuth client was not found." },
    });
    const noGrant = await call(`${s.oauthUrl}/token`, form({ client_id: s.clientId }));
    expect(noGrant.body.error).toBe("unsupported_grant_type");
  });

  it("accepts client credentials by HTTP Basic authentication", async () => {
    const s = sandbox();
    const refreshToken = s.issueRefreshToken(ANALYST, READ_EDIT);
    const basic = Buffer.from(`${s.clientId}:${s.clientSecret}`).toString("base64");
    const reply = await call(`${s.oauthUrl}/token`, {
      ...form({ grant_type: "refresh_token", refresh_token: refreshToken }),
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${basic}` },
    });
    expect(reply.status).toBe(200);
    // No openid/email scope was granted, so no id_token.
    expect(reply.body).not.toHaveProperty("id_token");
  });

  it("returns a refresh token only with access_type=offline, and only on first consent unless prompt=consent", async () => {
    const s = sandbox();
    const online = await authorize(s, { access_type: undefined });
    const onlineTokens = await exchange(s, online.location?.searchParams.get("code") ?? "", online.verifier);
    expect(onlineTokens.status).toBe(200);
    expect(onlineTokens.body).not.toHaveProperty("refresh_token");

    const first = await authorize(s, { prompt: undefined });
    const firstTokens = await exchange(s, first.location?.searchParams.get("code") ?? "", first.verifier);
    expect(firstTokens.body).toHaveProperty("refresh_token");
    const second = await authorize(s, { prompt: undefined });
    const secondTokens = await exchange(s, second.location?.searchParams.get("code") ?? "", second.verifier);
    expect(secondTokens.body).not.toHaveProperty("refresh_token");
    const forced = await authorize(s, { prompt: "consent" });
    const forcedTokens = await exchange(s, forced.location?.searchParams.get("code") ?? "", forced.verifier);
    expect(forcedTokens.body).toHaveProperty("refresh_token");
  });

  it("consents as consentAs, or as the login_hint user", async () => {
    const s = sandbox();
    s.setConsentAs(EDITOR);
    const a = await authorize(s);
    const tokens = await exchange(s, a.location?.searchParams.get("code") ?? "", a.verifier);
    expect(jwtPayload(String(tokens.body.id_token)).email).toBe(EDITOR);
    const hinted = await authorize(s, { login_hint: ANALYST });
    const hintedTokens = await exchange(s, hinted.location?.searchParams.get("code") ?? "", hinted.verifier);
    expect(jwtPayload(String(hintedTokens.body.id_token)).email).toBe(ANALYST);
    expect(() => s.setConsentAs("stranger@example.com")).toThrow(/Unknown sandbox user/);
  });
});
