/** OAuth flow helpers for the Google sandbox tests. */
import type { GoogleSandbox } from "../../src/sandbox/google/index.js";
import { SCOPE_EDIT, SCOPE_READONLY } from "../../src/sandbox/google/types.js";
import { call, form, pkcePair, REDIRECT_URI } from "./google-sandbox.js";

export const SCOPES = `${SCOPE_READONLY} ${SCOPE_EDIT} openid email`;

export async function authorize(
  sandbox: GoogleSandbox,
  overrides: Record<string, string | undefined> = {},
): Promise<{ status: number; location: URL | undefined; text: string; verifier: string }> {
  const { verifier, challenge } = pkcePair();
  const params: Record<string, string | undefined> = {
    client_id: sandbox.clientId,
    redirect_uri: REDIRECT_URI,
    response_type: "code",
    scope: SCOPES,
    state: "st-123",
    code_challenge: challenge,
    code_challenge_method: "S256",
    access_type: "offline",
    prompt: "consent",
    ...overrides,
  };
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) query.set(k, v);
  const res = await fetch(`${sandbox.authorizeUrl}?${query}`, { redirect: "manual" });
  const location = res.headers.get("location");
  return {
    status: res.status,
    location: location ? new URL(location) : undefined,
    text: await res.text(),
    verifier,
  };
}

export function exchange(
  sandbox: GoogleSandbox,
  code: string,
  verifier: string,
  extra: Record<string, string> = {},
) {
  return call(
    `${sandbox.oauthUrl}/token`,
    form({
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT_URI,
      client_id: sandbox.clientId,
      client_secret: sandbox.clientSecret,
      code_verifier: verifier,
      ...extra,
    }),
  );
}

export function refresh(sandbox: GoogleSandbox, refreshToken: string) {
  return call(
    `${sandbox.oauthUrl}/token`,
    form({
      grant_type: "refresh_token",
      refresh_token: refreshToken,
      client_id: sandbox.clientId,
      client_secret: sandbox.clientSecret,
    }),
  );
}

export function jwtPayload(token: string): Record<string, unknown> {
  const part = token.split(".")[1] ?? "";
  return JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as Record<string, unknown>;
}
