/**
 * The consent screen of the emulator (real: https://accounts.google.com/o/oauth2/v2/auth). It consents at once
 * as the configured user, so an installed-app flow (RFC 8252) can run without a browser.
 * Client and redirect errors are shown as a page (never redirected, as Google does: a bad redirect_uri must not
 * receive anything); every other error is redirected back with `error=` per RFC 6749 §4.1.2.1.
 */
import type { ServerResponse } from "node:http";
import { redirect, sendHtml } from "./http.js";
import { normaliseScopes, type TokenStore } from "./oauth-tokens.js";
import type { GoogleWorld } from "./world.js";

export interface AuthorizeDeps {
  clientId: string;
  tokens: TokenStore;
  world: GoogleWorld;
  consentAs(): string;
}

/**
 * Desktop clients may redirect to any port of the loopback interface
 * (https://developers.google.com/identity/protocols/oauth2/native-app#redirect-uri_loopback).
 */
export function isLoopbackRedirect(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  return (
    url.protocol === "http:" &&
    (url.hostname === "127.0.0.1" || url.hostname === "localhost" || url.hostname === "[::1]") &&
    url.username === "" &&
    url.password === "" &&
    url.hash === ""
  );
}

/** An S256 challenge is base64url(SHA-256) without padding: always 43 characters (RFC 7636 §4.2). */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function handleAuthorize(deps: AuthorizeDeps, res: ServerResponse, url: URL): void {
  const q = url.searchParams;
  const clientId = q.get("client_id") ?? "";
  if (clientId !== deps.clientId) {
    sendHtml(res, 400, "Error 401: invalid_client", "Access blocked: The OAuth client was not found.");
    return;
  }
  const redirectUri = q.get("redirect_uri") ?? "";
  if (!isLoopbackRedirect(redirectUri)) {
    sendHtml(
      res,
      400,
      "Error 400: redirect_uri_mismatch",
      "Access blocked: this app's request is invalid. A desktop client must redirect to a loopback address such as http://127.0.0.1:<port>/.",
    );
    return;
  }
  const state = q.get("state");
  const back = (params: Record<string, string>) => {
    const target = new URL(redirectUri);
    for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
    if (state !== null) target.searchParams.set("state", state);
    redirect(res, target.toString());
  };
  const fail = (error: string, description: string) => back({ error, error_description: description });

  if (q.get("response_type") !== "code") {
    fail("unsupported_response_type", "Only response_type=code is supported for installed applications.");
    return;
  }
  const rawScope = q.get("scope") ?? "";
  if (rawScope.trim() === "") {
    fail("invalid_request", "Missing required parameter: scope");
    return;
  }
  const { scopes, unknown } = normaliseScopes(rawScope);
  if (unknown.length > 0) {
    fail("invalid_scope", `Some requested scopes were invalid. {invalid=[${unknown.join(", ")}]}`);
    return;
  }
  const challenge = q.get("code_challenge") ?? "";
  if (challenge === "") {
    fail("invalid_request", "Missing required parameter: code_challenge");
    return;
  }
  if (q.get("code_challenge_method") !== "S256" || !S256_CHALLENGE.test(challenge)) {
    fail(
      "invalid_request",
      "Invalid code_challenge_method or code_challenge: use S256 with a 43-character challenge.",
    );
    return;
  }

  // login_hint pre-selects an account on the real consent screen; unknown hints fall back to the default user.
  const hint = q.get("login_hint")?.toLowerCase();
  const email = hint && deps.world.hasUser(hint) ? hint : deps.consentAs();
  const offline = q.get("access_type") === "offline";
  const prompts = (q.get("prompt") ?? "").split(/\s+/);
  // Google returns a refresh token only on the first offline consent, or when prompt=consent forces a new one.
  const issueRefresh =
    offline && (prompts.includes("consent") || !deps.tokens.hasOfflineConsent(clientId, email));
  const code = deps.tokens.issueCode({
    clientId,
    redirectUri,
    email,
    scopes,
    challenge,
    offline: issueRefresh,
  });
  back({ code, scope: scopes.join(" ") });
}
