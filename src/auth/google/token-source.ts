import { AuthenticationError } from "../../errors.js";
import { Redactor } from "../../redact.js";
import { telemetry } from "../../telemetry.js";
import { TokenManager } from "../token-manager.js";
import { InvalidGrantError, type OAuthHttp, refreshAccessToken, type TokenResponse } from "./oauth.js";
import type { GoogleOAuthClient } from "./stored.js";

/** Access tokens of one connected account, as a connector uses them. Never exposes the refresh token. */
export interface GoogleTokenSource {
  readonly label: string;
  getToken(): Promise<string>;
  /** Drops `token` after Google refused it (401), so the next getToken() refreshes. */
  invalidate(token: string): void;
  /** How many refresh requests this account has sent. */
  tokenRequests(): number;
  /**
   * Knows every credential of this account (refresh token, client secret, each access token issued);
   * the connector redacts Google's answers with it. A source without one gets a connector-owned one.
   */
  readonly redactor?: Redactor;
  /**
   * Who Google Analytics sees calling, when it is not a person who signed in here: a service account
   * (which must be added to each property by its email) or the user it impersonates.
   */
  readonly grantee?: { email: string; serviceAccount: boolean };
}

export function reconnectError(label: string, cause?: unknown): AuthenticationError {
  return new AuthenticationError(
    `Google account '${label}' must be reconnected: its refresh token was revoked or expired (run: martech-steps accounts connect --label ${label}).`,
    { details: { account: label }, cause },
  );
}

export interface AccountTokenSourceOptions {
  label: string;
  refreshToken: string;
  client: GoogleOAuthClient;
  http: OAuthHttp;
  now?: (() => number) | undefined;
  refreshAheadMs?: number | undefined;
  /** An access token fetched moments ago (import validation), served before any refresh. */
  primed?: TokenResponse | undefined;
  /** Persists a refresh token Google rotated; called before the new access token is served. */
  saveRotated(previous: string, next: string): Promise<void>;
}

export interface AccountTokenSource {
  source: GoogleTokenSource;
  /** The refresh token in use now (changes when Google rotates it). */
  refreshToken(): string;
}

/**
 * One TokenManager per account: every caller of this account shares one in-flight refresh, and
 * tokens are refreshed ahead of expiry (Google access tokens live about 3599 s).
 */
export function createAccountTokenSource(options: AccountTokenSourceOptions): AccountTokenSource {
  let refreshToken = options.refreshToken;
  let primed = options.primed;
  // Not the client id: it is public, and Google's errors name its project number (see oauth.ts).
  const redactor = new Redactor().add(refreshToken, options.client.clientSecret, primed?.accessToken);
  const manager = new TokenManager({
    now: options.now,
    refreshAheadMs: options.refreshAheadMs,
    fetchToken: async () => {
      if (primed) {
        const { accessToken, expiresIn } = primed;
        primed = undefined;
        return { accessToken, expiresIn };
      }
      let response: TokenResponse;
      try {
        response = await refreshAccessToken(options.http, options.client, refreshToken, redactor);
      } catch (error) {
        if (error instanceof InvalidGrantError) throw reconnectError(options.label);
        throw error;
      }
      // Google normally keeps the refresh token, but when a response carries a new one the old one
      // may stop working, so it is saved before the access token is used
      // (https://datatracker.ietf.org/doc/html/rfc6749#section-6).
      if (response.refreshToken && response.refreshToken !== refreshToken) {
        const previous = refreshToken;
        refreshToken = response.refreshToken;
        await options.saveRotated(previous, response.refreshToken);
      }
      telemetry.tokenFetched("google_analytics");
      return { accessToken: response.accessToken, expiresIn: response.expiresIn };
    },
  });
  const source: GoogleTokenSource = {
    label: options.label,
    getToken: () => manager.getToken(),
    invalidate: (token) => manager.invalidate(token),
    tokenRequests: () => manager.requestCount,
    redactor,
  };
  return { source, refreshToken: () => refreshToken };
}
