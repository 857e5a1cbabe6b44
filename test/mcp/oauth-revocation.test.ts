import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type EmbeddedFixture,
  register,
  type SignedIn,
  startEmbeddedFixture,
} from "../helpers/embedded-as.js";

/**
 * Issue 26, item 2: access tokens could not be revoked. The revocation endpoint answered 400
 * unsupported_token_type for an access token, and /mcp kept accepting one for its whole 15 minutes after
 * its refresh token was revoked or its grant was revoked by code-replay detection. Now /mcp refuses a token
 * whose grant is gone on the very next request, and RFC 7009 revokes an access token.
 */
describe("revocation on the embedded authorization server takes effect on /mcp at once", () => {
  let as: EmbeddedFixture;
  beforeAll(async () => {
    as = await startEmbeddedFixture();
  });
  afterAll(async () => {
    await as.close();
  });

  const revoke = (token: string, clientId: string, hint?: string) =>
    fetch(`${as.base}/oauth/token/revocation`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token, client_id: clientId, ...(hint ? { token_type_hint: hint } : {}) }),
    });

  const expectRevoked = async (token: string) => {
    const refused = await as.mcp(token);
    expect(refused.status).toBe(401);
    expect(refused.challenge).toContain('error="invalid_token"');
    expect(refused.challenge).toContain("the token was revoked, or its sign-in has ended");
  };

  it("refuses the access token on the next request once its refresh token is revoked", async () => {
    const client: SignedIn = await as.signIn();
    expect((await as.mcp(client.accessToken)).status).toBe(200);
    const answer = await revoke(client.refreshToken, client.clientId, "refresh_token");
    expect(answer.status).toBe(200);
    await expectRevoked(client.accessToken);
  });

  it("revokes an access token (RFC 7009): 200, and the token is refused while its refresh token still works", async () => {
    const client = await as.signIn();
    const answer = await revoke(client.accessToken, client.clientId, "access_token");
    expect(answer.status, await answer.clone().text()).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    await expectRevoked(client.accessToken);
    // Only that token: oidc-provider's default for an access token (revokeGrantPolicy), RFC 7009 section 2.1.
    const refreshed = await as.token({
      grant_type: "refresh_token",
      refresh_token: client.refreshToken,
      client_id: client.clientId,
    });
    expect(refreshed.status).toBe(200);
    const { access_token } = (await refreshed.json()) as { access_token: string };
    expect((await as.mcp(access_token)).status).toBe(200);
  });

  it("answers 200 to another client's revocation of a token, and the token keeps working (RFC 7009 section 2.1)", async () => {
    const client = await as.signIn();
    const other = (await (await register(as.base)).json()) as { client_id: string };
    expect((await revoke(client.accessToken, other.client_id)).status).toBe(200);
    expect((await as.mcp(client.accessToken)).status).toBe(200);
    // A token that is not this server's (altered signature) is answered 200 too, and changes nothing.
    const forged = `${client.accessToken.slice(0, -4)}AAAA`;
    expect((await revoke(forged, client.clientId)).status).toBe(200);
    expect((await as.mcp(client.accessToken)).status).toBe(200);
  });

  it("refuses the access token once its code is presented again (replay revokes the grant)", async () => {
    const client = await as.signIn();
    expect((await as.mcp(client.accessToken)).status).toBe(200);
    const replay = await as.token({
      grant_type: "authorization_code",
      code: String(client.callback.searchParams.get("code")),
      redirect_uri: client.provider.redirectUrl,
      client_id: client.clientId,
      code_verifier: client.provider.verifier,
    });
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: "invalid_grant" });
    await expectRevoked(client.accessToken);
    // The refresh token went with the grant.
    const refresh = await as.token({
      grant_type: "refresh_token",
      refresh_token: client.refreshToken,
      client_id: client.clientId,
    });
    expect(refresh.status).toBe(400);
  });

  it("refuses the access token once a used refresh token is presented again (replay revokes the grant)", async () => {
    const client = await as.signIn();
    const first = await as.token({
      grant_type: "refresh_token",
      refresh_token: client.refreshToken,
      client_id: client.clientId,
    });
    const { access_token } = (await first.json()) as { access_token: string };
    expect((await as.mcp(access_token)).status).toBe(200);
    const again = await as.token({
      grant_type: "refresh_token",
      refresh_token: client.refreshToken,
      client_id: client.clientId,
    });
    expect(again.status).toBe(400);
    await expectRevoked(access_token);
    await expectRevoked(client.accessToken);
  });
});
