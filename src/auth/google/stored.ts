/**
 * The Google room's part of a workspace's stored document, on the auth floor: the account types, and the
 * part's default and shape check that the store applies through SECRETS_PARTS (src/auth/secrets-parts.ts).
 * The type merging into WorkspaceSecrets is in src/connections/google/secrets.ts.
 */
import type { SecretsPart, WorkspaceSecrets } from "../secrets-document.js";

/** The Google OAuth client (Desktop app) used to connect accounts. */
export interface GoogleOAuthClient {
  clientId: string;
  clientSecret: string;
}

/**
 * A Google service account's key (the JSON key file's fields that are used), and the user it acts as
 * under domain-wide delegation. `privateKey` is the secret; the rest is safe to show.
 */
export interface GoogleServiceAccountKey {
  clientEmail: string;
  privateKeyId: string;
  /** PKCS #8 PEM, as Google's key files hold it. */
  privateKey: string;
  /** The OAuth client id of the service account (the one domain-wide delegation is granted to). */
  clientId?: string | undefined;
  /** The user impersonated (the JWT's `sub` claim), when domain-wide delegation is used. */
  subject?: string | undefined;
}

/**
 * One connected Google account: a user's (`refreshToken` is the secret) or a service account's
 * (`serviceAccount.privateKey` is the secret); exactly one of the two is set. The rest is safe to show.
 */
export interface GoogleAccountRecord {
  label: string;
  email?: string | undefined;
  scopes: string[];
  addedAt: string;
  refreshToken?: string | undefined;
  serviceAccount?: GoogleServiceAccountKey | undefined;
  /**
   * The OAuth client that issued the token, when it is not the workspace's (gcloud authorized_user
   * files): a refresh token only works with the client that obtained it.
   */
  client?: GoogleOAuthClient | undefined;
  /**
   * The Google endpoints the account was connected against: its refresh token is only ever sent
   * there. Absent in records written before it was recorded; those are taken as connected to
   * Google's own endpoints (the migration rule in google/service.ts).
   */
  service?: GoogleService | undefined;
  /**
   * The embedded sandbox's account (the pre-connected one, or one connected on its consent page):
   * shown as the sandbox's. Such an account lives only in the sandbox's own store or in memory,
   * never in the user's store.
   */
  sandbox?: boolean | undefined;
}

/** Where a Google account's token was issued and may be used (GoogleEndpoints minus the browser page). */
export interface GoogleService {
  oauthUrl: string;
  dataApiUrl: string;
  adminApiUrl: string;
}

/**
 * A new workspace has no accounts (`googleAccounts: {}`); a document whose accounts are not an object is
 * damaged; an opened document's accounts are copied, so a change never edits the parsed original.
 */
export const GOOGLE_SECRETS_PART: SecretsPart = {
  empty: () => ({ googleAccounts: {} }),
  valid(document) {
    const accounts = (document as { googleAccounts?: unknown }).googleAccounts;
    return accounts === undefined || (accounts !== null && typeof accounts === "object");
  },
  opened: (secrets: WorkspaceSecrets) => ({ ...secrets, googleAccounts: { ...secrets.googleAccounts } }),
};
