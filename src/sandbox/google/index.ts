/**
 * The Google sandbox: Google OAuth 2.0, the GA4 Admin API v1beta and the GA4 Data API v1beta on one loopback
 * port, over one seeded world. Real hosts map to path prefixes:
 *   https://oauth2.googleapis.com            → {url}/oauth   (/token, /revoke, /tokeninfo)
 *   https://accounts.google.com/o/oauth2/v2/auth → {url}/oauth/authorize
 *   https://analyticsadmin.googleapis.com    → {url}/admin
 *   https://analyticsdata.googleapis.com     → {url}/data
 * The Admin API serves accounts (get, list, patch, delete to the trash), account summaries, properties,
 * key events, conversion events, data streams, custom dimensions and metrics (with `:archive`) and data
 * retention settings; the Data API serves the reports, metadata, compatibility checks and audience
 * exports. Any other real method answers NOT_FOUND saying the sandbox does not emulate it. Seed data:
 * seed.ts.
 *
 * Inferred rather than documented: the wording of every error message, the limits on custom
 * definitions answered with FAILED_PRECONDITION, a 360-only retention (and the same rule for user data)
 * refused with INVALID_ARGUMENT, a trashed account that can no longer be changed (its properties stay
 * reachable), conversion events requiring both members of defaultConversionValue, and the audience
 * export details listed in data/audience-exports.ts.
 */
import { createAdminApi } from "./admin/index.js";
import { createDataApi, type DataApiOptions } from "./data/index.js";
import { createOAuthHandler, type OAuthStats } from "./oauth.js";
import {
  type ServiceAccountKeyFile,
  type ServiceAccountOptions,
  ServiceAccounts,
} from "./oauth-service-accounts.js";
import { DEFAULT_GRANT_SCOPES, normaliseScopes, TokenStore } from "./oauth-tokens.js";
import { startServer } from "./server.js";
import type { DataApiContext, SubHandler } from "./types.js";
import { DEFAULT_USERS, type GoogleSandboxUser, GoogleWorld } from "./world.js";

export type { ServiceAccountKeyFile, ServiceAccountOptions } from "./oauth-service-accounts.js";
export type { Role } from "./types.js";
export type { GoogleSandboxUser } from "./world.js";

export const DEFAULT_CLIENT_ID = "sandbox-google-client-id.apps.googleusercontent.com";
export const DEFAULT_CLIENT_SECRET = "sandbox-google-client-secret";

export interface GoogleSandboxOptions {
  /** Interface to bind; default 127.0.0.1. */
  host?: string;
  /** Port; default 0 (an ephemeral port). */
  port?: number;
  /** The one registered OAuth client; defaults DEFAULT_CLIENT_ID / DEFAULT_CLIENT_SECRET. */
  clientId?: string;
  clientSecret?: string;
  /** Users and their per-account roles; default analyst (admin on both accounts), viewer and editor. */
  users?: GoogleSandboxUser[];
  /** The user the authorize endpoint consents as (default the first user); `login_hint` overrides it per request. */
  consentAs?: string;
  /** Access token lifetime; default 3599 s like Google. */
  accessTokenTtlSeconds?: number;
  /** Options of the Data API emulator (quotas, latency, seed). */
  data?: DataApiOptions;
  /** Clock in epoch ms; default Date.now. */
  now?: () => number;
}

type DataStats = ReturnType<ReturnType<typeof createDataApi>["stats"]>;

export interface GoogleSandboxStats extends OAuthStats {
  adminRequests: number;
  data: DataStats;
}

export interface GoogleSandbox {
  /** Origin, e.g. http://127.0.0.1:53123 */
  url: string;
  /** `${url}/data` (real: https://analyticsdata.googleapis.com) */
  dataApiUrl: string;
  /** `${url}/admin` (real: https://analyticsadmin.googleapis.com) */
  adminApiUrl: string;
  /** `${url}/oauth` (real: https://oauth2.googleapis.com → /token, /revoke, /tokeninfo) */
  oauthUrl: string;
  /** `${url}/oauth/authorize` (real: https://accounts.google.com/o/oauth2/v2/auth) */
  authorizeUrl: string;
  clientId: string;
  clientSecret: string;
  /** Mint a refresh token for a user directly (for tests and for `npm start`'s pre-connected account). */
  issueRefreshToken(email: string, scopes?: string[]): string;
  /**
   * Issues a service account's JSON key file (a new key each call; the account is created on first
   * use, with the Google Analytics roles given, as if its email had been added there).
   */
  issueServiceAccountKey(options?: ServiceAccountOptions): Promise<ServiceAccountKeyFile>;
  /** As disabling a key in the Cloud console: assertions it signs are refused with invalid_grant. */
  disableServiceAccountKey(keyId: string): void;
  deleteServiceAccountKey(keyId: string): void;
  setConsentAs(email: string): void;
  /** Makes every access token issued so far expired, so the next API call gets a 401. */
  expireAccessTokens(): void;
  stats(): GoogleSandboxStats;
  close(): Promise<void>;
}

/** What the Data API emulator reads of the sandbox's world and tokens. */
function dataApiContext(world: GoogleWorld, tokens: TokenStore, now: () => number): DataApiContext {
  return {
    authenticate: (authorization) => tokens.authenticate(authorization),
    property: (propertyId) => world.liveProperty(propertyId),
    roleOf: (email, accountId) => world.roleOf(email, accountId),
    keyEventNames: (propertyId) => world.keyEventNames(propertyId),
    customDefinitions: (propertyId) => ({
      dimensions: world.customDimensions.list(propertyId),
      metrics: world.customMetrics.list(propertyId),
    }),
    recordAccess: (access) => world.accesses.push(access),
    now,
  };
}

export async function startGoogleSandbox(options: GoogleSandboxOptions = {}): Promise<GoogleSandbox> {
  const now = options.now ?? Date.now;
  const clientId = options.clientId ?? DEFAULT_CLIENT_ID;
  const clientSecret = options.clientSecret ?? DEFAULT_CLIENT_SECRET;
  const users = options.users ?? [...DEFAULT_USERS];
  if (users.length === 0)
    throw new Error("The Google sandbox needs at least one user: pass users or omit the option.");
  const world = new GoogleWorld(users);
  const tokens = new TokenStore(now, options.accessTokenTtlSeconds ?? 3599);

  const knownUser = (email: string): string => {
    const lower = email.toLowerCase();
    if (!world.hasUser(lower)) {
      throw new Error(`Unknown sandbox user "${email}": choose one of ${world.userEmails().join(", ")}.`);
    }
    return lower;
  };
  let consentAs = knownUser(options.consentAs ?? users[0]?.email ?? "");

  const oauthStats: OAuthStats = { tokenRequests: 0, refreshRequests: 0, revocations: 0 };
  let tokenUrl = "";
  const serviceAccounts = new ServiceAccounts(() => tokenUrl, world);
  const oauth = createOAuthHandler({
    serviceAccounts,
    clientId,
    clientSecret,
    tokens,
    world,
    consentAs: () => consentAs,
    now,
    stats: oauthStats,
  });
  const admin = createAdminApi({ world, tokens, now });
  const data = createDataApi(dataApiContext(world, tokens, now), options.data);

  const mounts = new Map<string, SubHandler>([
    ["/oauth", oauth],
    ["/admin", admin.handle],
    ["/data", data.handle],
  ]);
  const server = await startServer(mounts, options.host ?? "127.0.0.1", options.port ?? 0);
  tokenUrl = `${server.url}/oauth/token`;

  return {
    url: server.url,
    dataApiUrl: `${server.url}/data`,
    adminApiUrl: `${server.url}/admin`,
    oauthUrl: `${server.url}/oauth`,
    authorizeUrl: `${server.url}/oauth/authorize`,
    clientId,
    clientSecret,
    issueRefreshToken(email, scopes = [...DEFAULT_GRANT_SCOPES]) {
      const user = knownUser(email);
      const { scopes: granted, unknown } = normaliseScopes(scopes.join(" "));
      if (unknown.length > 0 || granted.length === 0) {
        throw new Error(
          `Unknown OAuth scope(s) for the Google sandbox: ${unknown.join(", ") || "(none given)"}.`,
        );
      }
      return tokens.issueRefreshToken(user, clientId, granted);
    },
    issueServiceAccountKey: (options) => serviceAccounts.issue(options),
    disableServiceAccountKey: (keyId) => serviceAccounts.setKeyState(keyId, "disabled"),
    deleteServiceAccountKey: (keyId) => serviceAccounts.setKeyState(keyId, "deleted"),
    setConsentAs(email) {
      consentAs = knownUser(email);
    },
    expireAccessTokens: () => tokens.expireAccessTokens(),
    stats: () => ({ ...oauthStats, adminRequests: admin.stats().requests, data: data.stats() }),
    close: () => server.close(),
  };
}
