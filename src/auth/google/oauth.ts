/**
 * Google's OAuth 2.0 token, revoke and authorize endpoints for installed apps
 * (https://developers.google.com/identity/protocols/oauth2/native-app), as google-auth-library's
 * OAuth2Client calls them. Refresh tokens and client secrets travel only in POST form bodies: a URL
 * ends up in error messages, proxies and logs.
 */
import { createHash, randomBytes } from "node:crypto";
import { AuthenticationError, ConfigurationError, NetworkError, UpstreamError } from "../../errors.js";
import { Redactor } from "../../redact.js";
import type { GoogleOAuthClient } from "./stored.js";
import { emailOf, scopesOf } from "./token-claims.js";

export interface OAuthHttp {
  /** GoogleEndpoints.oauthUrl: /token and /revoke live under it. */
  oauthUrl: string;
  fetch: typeof fetch;
  /** Per-request timeout. Default 30 s. */
  timeoutMs?: number;
}

export interface TokenResponse {
  accessToken: string;
  expiresIn: number;
  /** Granted scopes, when the response lists them (only well-formed ones that echo no credential). */
  scopes: string[] | undefined;
  /** Present on a code exchange with access_type=offline, and when Google rotates a refresh token. */
  refreshToken: string | undefined;
  /** The id_token's email claim, when it is an email that echoes no credential. */
  email: string | undefined;
}

/** The token endpoint answered `invalid_grant`: the code or refresh token is expired, used or revoked. */
export class InvalidGrantError extends AuthenticationError {}

const base64url = (buffer: Buffer): string => buffer.toString("base64url");

/** RFC 7636 §4.2: code_challenge = BASE64URL(SHA256(ASCII(code_verifier))). */
export function pkceChallenge(verifier: string): string {
  return base64url(createHash("sha256").update(verifier, "ascii").digest());
}

/** A 43-character verifier (32 random bytes), the minimum length RFC 7636 §4.1 allows, and its S256 challenge. */
export function createPkcePair(): { verifier: string; challenge: string } {
  const verifier = base64url(randomBytes(32));
  return { verifier, challenge: pkceChallenge(verifier) };
}

export function randomState(): string {
  return base64url(randomBytes(24));
}

export interface AuthorizeParams {
  clientId: string;
  redirectUri: string;
  state: string;
  codeChallenge: string;
  scopes: readonly string[];
}

export function buildAuthorizeUrl(authorizeUrl: string, params: AuthorizeParams): string {
  const url = new URL(authorizeUrl);
  url.searchParams.set("client_id", params.clientId);
  url.searchParams.set("redirect_uri", params.redirectUri);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("scope", params.scopes.join(" "));
  url.searchParams.set("state", params.state);
  url.searchParams.set("code_challenge", params.codeChallenge);
  url.searchParams.set("code_challenge_method", "S256");
  // A refresh token comes only with access_type=offline, and only on first consent unless
  // prompt=consent forces the consent screen again (REAL-API B6).
  url.searchParams.set("access_type", "offline");
  url.searchParams.set("prompt", "consent");
  return url.toString();
}

function endpoint(http: OAuthHttp, path: string): string {
  return `${http.oauthUrl.replace(/\/+$/, "")}${path}`;
}

async function postForm(http: OAuthHttp, path: string, form: Record<string, string>): Promise<Response> {
  try {
    return await http.fetch(endpoint(http, path), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams(form).toString(),
      redirect: "manual",
      signal: AbortSignal.timeout(http.timeoutMs ?? 30_000),
    });
  } catch (cause) {
    // The cause is a fetch TypeError or an abort: neither carries the form body.
    throw new NetworkError("Google's OAuth endpoint could not be reached.", {
      hint: "Check the network connection (and GOOGLE_OAUTH_URL if set), then try again.",
      retryable: true,
      cause,
    });
  }
}

async function readJson(response: Response): Promise<Record<string, unknown>> {
  try {
    const parsed: unknown = JSON.parse(await response.text());
    return parsed !== null && typeof parsed === "object" ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const str = (value: unknown): string | undefined => (typeof value === "string" && value ? value : undefined);

/**
 * Maps an RFC 6749 §5.2 error response. Google's `error_description` never holds a secret, but a
 * misconfigured GOOGLE_OAUTH_URL could echo the form back, so what we sent is redacted from it (and
 * from the error code, which an echo could fill too).
 */
function tokenEndpointError(status: number, body: Record<string, unknown>, redactor: Redactor): Error {
  // RFC 6749 error codes are short ASCII words (Google's are lowercase with underscores); anything else is not quoted.
  const error = str(body.error);
  const code = error && /^[a-z_]{1,64}$/.test(error) && !redactor.leaks(error) ? error : `HTTP ${status}`;
  const raw = str(body.error_description);
  const description = raw === undefined ? undefined : redactor.text(raw).slice(0, 300);
  const said = description ? `${code}: ${description}` : code;
  if (code === "invalid_grant") {
    return new InvalidGrantError(`Google refused the grant (${said}).`, { details: { oauthError: code } });
  }
  if (code === "invalid_client" || code === "unauthorized_client") {
    return new ConfigurationError(`Google does not accept the OAuth client (${said}).`, {
      hint: "Check GOOGLE_OAUTH_CLIENT_ID and GOOGLE_OAUTH_CLIENT_SECRET (a Desktop app client of the Cloud project).",
      details: { oauthError: code },
    });
  }
  const transient = status === 429 || status >= 500;
  return new UpstreamError(`Google's token endpoint answered HTTP ${status} (${said}).`, {
    hint: transient
      ? "This is usually temporary: try again in a minute."
      : "Try connecting the account again.",
    retryable: transient,
    status,
    serviceCode: code,
  });
}

/**
 * Form fields that are not credentials: everything else we send is registered for redaction. The client
 * id is public (RFC 6749 §2.2: "The client identifier is not a secret"): it is in every authorize URL the
 * browser opens (https://developers.google.com/identity/protocols/oauth2/native-app),
 * and its leading part is the Cloud project number, which Google's own errors name in the link that
 * fixes them (SERVICE_DISABLED's activationUrl, `…/overview?project=<number>`).
 */
const PUBLIC_FIELDS = new Set(["grant_type", "redirect_uri", "client_id"]);

async function tokenRequest(
  http: OAuthHttp,
  form: Record<string, string>,
  redactor: Redactor = new Redactor(),
): Promise<TokenResponse> {
  redactor.add(...Object.entries(form).flatMap(([key, value]) => (PUBLIC_FIELDS.has(key) ? [] : [value])));
  const response = await postForm(http, "/token", form);
  const body = await readJson(response);
  // Registered before anything from the answer is shown: a broken endpoint may echo them in an error.
  redactor.add(str(body.access_token), str(body.refresh_token), str(body.id_token));
  if (!response.ok) throw tokenEndpointError(response.status, body, redactor);
  const accessToken = str(body.access_token);
  if (!accessToken) {
    throw new UpstreamError("Google's token endpoint answered without an access token.", {
      hint: "Try again; if it persists, check GOOGLE_OAUTH_URL.",
      status: response.status,
    });
  }
  const expiresIn = typeof body.expires_in === "number" ? body.expires_in : Number(body.expires_in ?? 3599);
  return {
    accessToken,
    expiresIn: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : 3599,
    scopes: scopesOf(str(body.scope), redactor),
    refreshToken: str(body.refresh_token),
    email: emailOf(str(body.id_token), redactor),
  };
}

export function exchangeCode(
  http: OAuthHttp,
  client: GoogleOAuthClient,
  input: { code: string; redirectUri: string; codeVerifier: string },
  redactor?: Redactor,
): Promise<TokenResponse> {
  return tokenRequest(
    http,
    {
      grant_type: "authorization_code",
      code: input.code,
      redirect_uri: input.redirectUri,
      client_id: client.clientId,
      client_secret: client.clientSecret,
      code_verifier: input.codeVerifier,
    },
    redactor,
  );
}

export function refreshAccessToken(
  http: OAuthHttp,
  client: GoogleOAuthClient,
  refreshToken: string,
  redactor?: Redactor,
): Promise<TokenResponse> {
  return tokenRequest(
    http,
    {
      grant_type: "refresh_token",
      refresh_token: refreshToken,
      client_id: client.clientId,
      client_secret: client.clientSecret,
    },
    redactor,
  );
}

/** RFC 7523 §2.1: an assertion (a signed JWT) exchanged for an access token; see service-account.ts. */
export function jwtBearerGrant(
  http: OAuthHttp,
  assertion: string,
  redactor?: Redactor,
): Promise<TokenResponse> {
  return tokenRequest(
    http,
    { grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion },
    redactor,
  );
}

export interface RevokeResult {
  revoked: boolean;
  /** Why the revocation did not happen, when it did not. */
  reason?: string;
  /** What the person should do instead, when it is not removing the app's access to their Google account. */
  advice?: string;
}

/**
 * Revokes a refresh token (and the access tokens of its grant). Google documents `?token=` in the
 * URL but accepts the same parameter in a form body, which keeps the token out of URLs.
 */
export async function revokeToken(http: OAuthHttp, token: string): Promise<RevokeResult> {
  let response: Response;
  try {
    response = await postForm(http, "/revoke", { token });
  } catch {
    return { revoked: false, reason: "Google's revoke endpoint could not be reached" };
  }
  if (response.ok) {
    await response.body?.cancel();
    return { revoked: true };
  }
  const body = await readJson(response);
  if (str(body.error) === "invalid_token") {
    return { revoked: false, reason: "Google reports the token as already expired or revoked" };
  }
  return { revoked: false, reason: `Google's revoke endpoint answered HTTP ${response.status}` };
}
