import { ConfigurationError } from "../../errors.js";
import type { WorkspaceSecrets } from "../credential-store.js";
import type { GoogleOAuthClient } from "./stored.js";

/** Where the Google services live; the sandbox replaces all four with loopback URLs. */
export interface GoogleEndpoints {
  /** GA4_DATA_API_URL, default "https://analyticsdata.googleapis.com". */
  dataApiUrl: string;
  /** GA4_ADMIN_API_URL, default "https://analyticsadmin.googleapis.com". */
  adminApiUrl: string;
  /** GOOGLE_OAUTH_URL, default "https://oauth2.googleapis.com" (serves /token, /revoke, /tokeninfo). */
  oauthUrl: string;
  /** GOOGLE_OAUTH_AUTHORIZE_URL, default "https://accounts.google.com/o/oauth2/v2/auth". */
  authorizeUrl: string;
}

export const DEFAULT_GOOGLE_ENDPOINTS: Readonly<GoogleEndpoints> = Object.freeze({
  dataApiUrl: "https://analyticsdata.googleapis.com",
  adminApiUrl: "https://analyticsadmin.googleapis.com",
  oauthUrl: "https://oauth2.googleapis.com",
  authorizeUrl: "https://accounts.google.com/o/oauth2/v2/auth",
});

export const SCOPE_ANALYTICS_READONLY = "https://www.googleapis.com/auth/analytics.readonly";
export const SCOPE_ANALYTICS_EDIT = "https://www.googleapis.com/auth/analytics.edit";
export const SCOPE_ANALYTICS = "https://www.googleapis.com/auth/analytics";

/**
 * Admin API v1beta reads need analytics.readonly but create/patch/delete need analytics.edit, and
 * analytics.edit alone does not cover the Data API, so a combined client asks for both
 * (REAL-API B6). "openid email" make the token response carry an id_token with the account's
 * email, so people can tell their connected accounts apart.
 */
export const GA_SCOPES: readonly string[] = Object.freeze([
  SCOPE_ANALYTICS_READONLY,
  SCOPE_ANALYTICS_EDIT,
  "openid",
  "email",
]);

/** The environment variable that sets each endpoint. */
export const GOOGLE_ENDPOINT_VARIABLES: Readonly<Record<keyof GoogleEndpoints, string>> = {
  dataApiUrl: "GA4_DATA_API_URL",
  adminApiUrl: "GA4_ADMIN_API_URL",
  oauthUrl: "GOOGLE_OAUTH_URL",
  authorizeUrl: "GOOGLE_OAUTH_AUTHORIZE_URL",
};

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname.toLowerCase());
}

/**
 * Checks a configured base URL. The value is never echoed in the error: a mistyped URL may carry
 * credentials (`https://user:pass@host`).
 */
function checkBaseUrl(variable: string, raw: string): string {
  const refuse = (why: string): never => {
    throw new ConfigurationError(`${variable} is not a usable base URL: ${why}.`, {
      hint: `Set ${variable} to an https:// URL (http:// is accepted only for 127.0.0.1 or localhost), or unset it to use Google's.`,
    });
  };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse("it does not parse as a URL");
  }
  if (url.username || url.password) refuse("it contains credentials");
  if (url.search || url.hash || raw.includes("?") || raw.includes("#")) refuse("it has a query or fragment");
  if (url.protocol === "http:") {
    if (!isLoopbackHost(url.hostname)) refuse("http:// is allowed only for loopback hosts");
  } else if (url.protocol !== "https:") {
    refuse("its scheme is neither https nor loopback http");
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

export function googleEndpointsFromEnv(env: NodeJS.ProcessEnv = process.env): GoogleEndpoints {
  const endpoints = { ...DEFAULT_GOOGLE_ENDPOINTS };
  for (const key of Object.keys(GOOGLE_ENDPOINT_VARIABLES) as (keyof GoogleEndpoints)[]) {
    const variable = GOOGLE_ENDPOINT_VARIABLES[key];
    const value = env[variable];
    endpoints[key] = checkBaseUrl(variable, value ? value : DEFAULT_GOOGLE_ENDPOINTS[key]);
  }
  return endpoints;
}

/**
 * The OAuth client (a "Desktop app" client from the Google Cloud console) used to connect accounts.
 * GOOGLE_OAUTH_CLIENT_ID/SECRET win over the workspace's stored client; both must be set together.
 */
export function googleClientFrom(
  env: NodeJS.ProcessEnv | undefined,
  secrets: WorkspaceSecrets,
): GoogleOAuthClient | undefined {
  const source = env ?? process.env;
  const clientId = source.GOOGLE_OAUTH_CLIENT_ID;
  const clientSecret = source.GOOGLE_OAUTH_CLIENT_SECRET;
  if (clientId && clientSecret) return { clientId, clientSecret };
  if (clientId || clientSecret) {
    throw new ConfigurationError(
      "Only one of GOOGLE_OAUTH_CLIENT_ID and GOOGLE_OAUTH_CLIENT_SECRET is set.",
      {
        hint: "Set both (from the Desktop app OAuth client in the Google Cloud console) or neither.",
      },
    );
  }
  const stored = secrets.googleClient;
  return stored?.clientId && stored.clientSecret ? stored : undefined;
}

/** The error for "no OAuth client": says exactly how to provide one. */
export function missingClientError(): ConfigurationError {
  return new ConfigurationError("No Google OAuth client is configured for this workspace.", {
    hint: "Create a Desktop app OAuth client in the Google Cloud console and set GOOGLE_OAUTH_CLIENT_ID and GOOGLE_OAUTH_CLIENT_SECRET (or store it as the workspace's Google client).",
  });
}
