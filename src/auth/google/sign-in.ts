/**
 * The browser half of connecting an account: authorization code + PKCE (S256) with a loopback
 * redirect, for installed apps (https://developers.google.com/identity/protocols/oauth2/native-app).
 */
import { ConfigurationError } from "../../errors.js";
import { GA_SCOPES } from "./config.js";
import { startLoopback } from "./loopback.js";
import {
  buildAuthorizeUrl,
  createPkcePair,
  exchangeCode,
  type OAuthHttp,
  randomState,
  type TokenResponse,
} from "./oauth.js";
import type { GoogleOAuthClient } from "./stored.js";

export interface SignInOptions {
  client: GoogleOAuthClient;
  authorizeUrl: string;
  http: OAuthHttp;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  port?: number | undefined;
  openBrowser?: ((url: string) => Promise<void> | void) | undefined;
  onUrl?: ((url: string) => void) | undefined;
}

export interface PreparedSignIn {
  /** The consent URL to open in the person's browser. */
  url: string;
  /** Exchanges the code the redirect brought (with the PKCE verifier kept here) for tokens. */
  exchange(code: string): Promise<TokenResponse>;
}

/**
 * The authorization request for a redirect URI and `state` the caller owns (a loopback receiver, or
 * a web page's own callback): a fresh PKCE pair whose verifier never leaves this closure.
 */
export function prepareSignIn(options: {
  client: GoogleOAuthClient;
  authorizeUrl: string;
  http: OAuthHttp;
  redirectUri: string;
  state: string;
}): PreparedSignIn {
  const pkce = createPkcePair();
  const url = buildAuthorizeUrl(options.authorizeUrl, {
    clientId: options.client.clientId,
    redirectUri: options.redirectUri,
    state: options.state,
    codeChallenge: pkce.challenge,
    scopes: GA_SCOPES,
  });
  return {
    url,
    exchange: (code) =>
      exchangeCode(options.http, options.client, {
        code,
        redirectUri: options.redirectUri,
        codeVerifier: pkce.verifier,
      }),
  };
}

/** Returns the consent URL once the loopback receiver listens; `tokens` settles after the code exchange. */
export async function beginSignIn(
  options: SignInOptions,
): Promise<{ url: string; tokens: Promise<TokenResponse> }> {
  const state = randomState();
  const receiver = await startLoopback({
    state,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    port: options.port,
  });
  const { url, exchange } = prepareSignIn({ ...options, redirectUri: receiver.redirectUri, state });
  const tokens = receiver.code.then(exchange);
  options.onUrl?.(url);
  if (options.openBrowser) {
    try {
      await options.openBrowser(url);
    } catch (cause) {
      // With onUrl the person already has the URL to open by hand; without it, nobody can finish.
      if (!options.onUrl) {
        tokens.catch(() => undefined);
        await receiver.close();
        throw new ConfigurationError("The browser could not be opened for the Google sign-in.", {
          hint: "Open the sign-in URL by hand: run the connect command with the option that prints it.",
          cause,
        });
      }
    }
  }
  return { url, tokens };
}
