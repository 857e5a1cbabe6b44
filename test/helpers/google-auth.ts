import { type CredentialStore, MemoryCredentialStore } from "../../src/auth/credential-store.js";
import type { GoogleEndpoints } from "../../src/auth/google/config.js";

export { MemoryCredentialStore };

export const OAUTH = "https://oauth2.googleapis.com";

export const ENDPOINTS: GoogleEndpoints = {
  dataApiUrl: "https://analyticsdata.googleapis.com",
  adminApiUrl: "https://analyticsadmin.googleapis.com",
  oauthUrl: OAUTH,
  authorizeUrl: "https://accounts.google.com/o/oauth2/v2/auth",
};

export const CLIENT = {
  clientId: "test-client.apps.googleusercontent.com",
  clientSecret: "test-client-secret",
};

/** An unsigned id_token shaped like Google's (header.payload.signature, base64url). */
export function idToken(email: string): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "RS256", typ: "JWT" })}.${part({ iss: "https://accounts.google.com", email, email_verified: true, sub: "1" })}.c2ln`;
}

export const GA_SCOPE_STRING =
  "https://www.googleapis.com/auth/analytics.readonly https://www.googleapis.com/auth/analytics.edit openid https://www.googleapis.com/auth/userinfo.email";

export function form(body: unknown): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(String(body)));
}

/** Seeds a workspace with the OAuth client and, optionally, accounts. */
export async function seed(
  store: CredentialStore,
  workspace: string,
  accounts: { label: string; refreshToken: string; email?: string }[] = [],
): Promise<void> {
  await store.update(workspace, () => ({
    googleClient: CLIENT,
    googleAccounts: Object.fromEntries(
      accounts.map((a) => [
        a.label,
        {
          label: a.label,
          email: a.email,
          scopes: GA_SCOPE_STRING.split(" "),
          addedAt: "2025-01-01T00:00:00.000Z",
          refreshToken: a.refreshToken,
        },
      ]),
    ),
  }));
}
