/**
 * The OAuth emulator's JWT bearer grant checks what Google checks: the signature against the key it
 * issued, the audience, the lifetime, the scopes; each refusal is Google's error code.
 */
import { generateKeyPairSync } from "node:crypto";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { form, loopbackOnly, withSandbox } from "../../helpers/google-sandbox.js";

loopbackOnly();
const sandbox = withSandbox();
const GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const READONLY = "https://www.googleapis.com/auth/analytics.readonly";

async function assertion(
  key: Record<string, string>,
  claims: { aud?: string; scope?: string; iat?: number; exp?: number },
  signWith?: import("node:crypto").KeyObject,
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const { createPrivateKey } = await import("node:crypto");
  const privateKey = signWith ?? createPrivateKey(key.private_key as string);
  const payload = claims.scope === undefined ? {} : { scope: claims.scope };
  return new SignJWT(payload)
    .setProtectedHeader({ alg: "RS256", typ: "JWT", kid: key.private_key_id as string })
    .setIssuer(key.client_email as string)
    .setAudience(claims.aud ?? (key.token_uri as string))
    .setIssuedAt(claims.iat ?? now)
    .setExpirationTime(claims.exp ?? now + 3600)
    .sign(privateKey);
}

async function exchange(jwt: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${sandbox().oauthUrl}/token`, form({ grant_type: GRANT, assertion: jwt }));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("JWT bearer grant", () => {
  it("issues an access token for a well-formed assertion, and checks each claim", async () => {
    const key = await sandbox().issueServiceAccountKey({ name: "checks" });
    expect(key.token_uri).toBe(`${sandbox().oauthUrl}/token`);
    const ok = await exchange(await assertion(key, { scope: READONLY }));
    expect(ok).toMatchObject({ status: 200, body: { token_type: "Bearer", scope: READONLY } });
    expect(ok.body).not.toHaveProperty("refresh_token");

    const forged = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
    expect(await exchange(await assertion(key, { scope: READONLY }, forged))).toMatchObject({
      status: 400,
      body: { error: "invalid_grant", error_description: "Invalid JWT Signature." },
    });
    expect(
      await exchange(await assertion(key, { scope: READONLY, aud: "https://oauth2.googleapis.com/token" })),
    ).toMatchObject({
      status: 400,
      body: { error: "invalid_grant", error_description: expect.stringMatching(/audience/) },
    });
    const now = Math.floor(Date.now() / 1000);
    expect(
      await exchange(await assertion(key, { scope: READONLY, iat: now, exp: now + 7200 })),
    ).toMatchObject({
      status: 400,
      body: { error: "invalid_grant", error_description: expect.stringMatching(/short-lived token/) },
    });
    expect(await exchange(await assertion(key, {}))).toMatchObject({
      status: 400,
      body: { error: "invalid_scope", error_description: "Empty or missing scope not allowed." },
    });
  });

  it("refuses a disabled and a deleted key", async () => {
    const first = await sandbox().issueServiceAccountKey({ name: "keys" });
    const second = await sandbox().issueServiceAccountKey({ name: "keys" });
    sandbox().disableServiceAccountKey(first.private_key_id as string);
    sandbox().deleteServiceAccountKey(second.private_key_id as string);
    for (const key of [first, second]) {
      expect(await exchange(await assertion(key, { scope: READONLY }))).toMatchObject({
        status: 400,
        body: { error: "invalid_grant", error_description: "Invalid JWT Signature." },
      });
    }
  });
});
