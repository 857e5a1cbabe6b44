import { AuthenticationError, ConfigurationError, ValidationError } from "../../errors.js";
import { GA_SCOPES, SCOPE_ANALYTICS, SCOPE_ANALYTICS_READONLY } from "./config.js";
import { InvalidGrantError, type OAuthHttp, refreshAccessToken, type TokenResponse } from "./oauth.js";
import type { GoogleOAuthClient } from "./stored.js";

const CONNECT_COMMAND = "martech-steps accounts connect";

/** One refresh with an imported refresh token: its refusals say what to do. */
export async function validateImportedToken(
  http: OAuthHttp,
  client: GoogleOAuthClient,
  refreshToken: string,
  ownClient: boolean,
): Promise<TokenResponse> {
  const tokens = await refreshOnce(http, client, refreshToken, ownClient);
  if (tokens.scopes && !hasAnalyticsScope(tokens.scopes)) {
    throw new ValidationError("refreshToken", "this refresh token was not granted Google Analytics access.", {
      hint: `Create it with the analytics.readonly and analytics.edit scopes (gcloud auth application-default login --scopes=...), or run ${CONNECT_COMMAND}.`,
    });
  }
  return tokens;
}

async function refreshOnce(
  http: OAuthHttp,
  client: GoogleOAuthClient,
  refreshToken: string,
  ownClient: boolean,
): Promise<TokenResponse> {
  try {
    return await refreshAccessToken(http, client, refreshToken);
  } catch (error) {
    if (ownClient && error instanceof ConfigurationError && error.details.oauthError !== undefined) {
      // The client is the file's own (gcloud authorized_user), not GOOGLE_OAUTH_CLIENT_*: say so.
      throw new ConfigurationError(
        `Google does not accept the OAuth client of the imported file, its client_id and client_secret (${String(error.details.oauthError)}).`,
        {
          hint: `Check its client_id and client_secret, or make the file again (gcloud auth application-default login), or run ${CONNECT_COMMAND}.`,
          details: error.details,
        },
      );
    }
    if (!(error instanceof InvalidGrantError)) throw error;
    throw new AuthenticationError(
      "Google refused the imported token: this refresh token is expired or revoked.",
      {
        hint: `Get a new one, or connect the account in the browser (${CONNECT_COMMAND}).`,
      },
    );
  }
}

export function hasAnalyticsScope(scopes: readonly string[]): boolean {
  return scopes.includes(SCOPE_ANALYTICS_READONLY) || scopes.includes(SCOPE_ANALYTICS);
}

/** A browser sign-in's tokens are usable: a refresh token, and Google Analytics among the scopes granted. */
export function checkSignIn(tokens: TokenResponse): { scopes: string[]; refreshToken: string } {
  if (!tokens.refreshToken) {
    throw new AuthenticationError("Google returned no refresh token for this sign-in.", {
      hint: `Remove the app's access at https://myaccount.google.com/permissions, then run ${CONNECT_COMMAND} again.`,
    });
  }
  const scopes = tokens.scopes ?? [...GA_SCOPES];
  if (!hasAnalyticsScope(scopes)) {
    throw new AuthenticationError("The consent did not grant Google Analytics access.", {
      hint: `Run ${CONNECT_COMMAND} again and tick the Google Analytics permissions on the consent screen.`,
    });
  }
  return { scopes, refreshToken: tokens.refreshToken };
}

/** No account to use: how to connect one. */
export function noAccount(workspace: string): ConfigurationError {
  return new ConfigurationError(`No Google account is connected to workspace "${workspace}".`, {
    hint: `Connect one with: ${CONNECT_COMMAND} (or, on a server, import a service account key or a refresh token with: martech-steps accounts import --label <name> --key-file <file>).`,
    // Lets the MCP adapter offer the sign-in URL to clients that support URL elicitation.
    details: { connection: "google" },
  });
}
