/**
 * Google's OAuth 2.0 endpoints, emulated (real host https://oauth2.googleapis.com: /token, /revoke, /tokeninfo;
 * consent at /authorize stands in for https://accounts.google.com/o/oauth2/v2/auth).
 * Error bodies use Google's real `{"error","error_description"}` pairs so clients can be tested against them.
 */
import type { IncomingMessage } from "node:http";
import { parseForm, sendJson } from "./http.js";
import { handleAuthorize } from "./oauth-authorize.js";
import { JWT_BEARER, type ServiceAccounts } from "./oauth-service-accounts.js";
import {
  type AccessGrant,
  makeIdToken,
  normaliseScopes,
  SCOPE_EMAIL,
  SCOPE_OPENID,
  s256,
  subjectOf,
  type TokenStore,
} from "./oauth-tokens.js";
import type { SubHandler } from "./types.js";
import type { GoogleWorld } from "./world.js";

export interface OAuthStats {
  tokenRequests: number;
  refreshRequests: number;
  revocations: number;
}

export interface OAuthDeps {
  clientId: string;
  clientSecret: string;
  tokens: TokenStore;
  world: GoogleWorld;
  consentAs(): string;
  now(): number;
  stats: OAuthStats;
  serviceAccounts: ServiceAccounts;
}

/** Token responses must not be cached (RFC 6749 §5.1). */
const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };

type Reply = { status: number; body: Record<string, unknown> };

const oauthError = (status: number, error: string, description: string): Reply => ({
  status,
  body: { error, error_description: description },
});

export function createOAuthHandler(deps: OAuthDeps): SubHandler {
  return async (req, res, path, url, body) => {
    const method = req.method ?? "GET";
    if (path === "/authorize" && method === "GET") {
      handleAuthorize(deps, res, url);
      return;
    }
    if (path === "/token" && method === "POST") {
      deps.stats.tokenRequests++;
      const reply = await token(deps, req, parseForm(req, body));
      sendJson(res, reply.status, reply.body, NO_STORE);
      return;
    }
    if (path === "/revoke" && method === "POST") {
      const form = parseForm(req, body);
      const value = url.searchParams.get("token") ?? form.get("token") ?? "";
      if (value !== "" && deps.tokens.revoke(value)) {
        deps.stats.revocations++;
        sendJson(res, 200, {});
      } else {
        const reply = oauthError(400, "invalid_token", "Token expired or revoked");
        sendJson(res, reply.status, reply.body);
      }
      return;
    }
    if (path === "/tokeninfo" && (method === "GET" || method === "POST")) {
      const value = url.searchParams.get("access_token") ?? parseForm(req, body).get("access_token") ?? "";
      const reply = tokenInfo(deps, value);
      sendJson(res, reply.status, reply.body);
      return;
    }
    sendJson(res, 404, { error: "not_found", error_description: `No OAuth endpoint at ${method} ${path}.` });
  };
}

/** Client authentication: form fields (client_secret_post) or HTTP Basic (client_secret_basic, RFC 6749 §2.3.1). */
function clientCredentials(
  req: IncomingMessage,
  form: Map<string, string>,
): { id?: string; secret?: string } {
  const basic = /^basic\s+(\S+)$/i.exec(String(req.headers.authorization ?? ""));
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon > 0) {
      return {
        id: decodeURIComponent(decoded.slice(0, colon)),
        secret: decodeURIComponent(decoded.slice(colon + 1)),
      };
    }
  }
  return { id: form.get("client_id"), secret: form.get("client_secret") };
}

async function token(deps: OAuthDeps, req: IncomingMessage, form: Map<string, string>): Promise<Reply> {
  const grantType = form.get("grant_type") ?? "";
  if (grantType === JWT_BEARER) return jwtBearer(deps, form);
  if (grantType !== "authorization_code" && grantType !== "refresh_token") {
    return oauthError(400, "unsupported_grant_type", `Invalid grant_type: ${grantType}`);
  }
  const client = clientCredentials(req, form);
  if (!client.id) return oauthError(400, "invalid_request", "Could not determine client ID from request.");
  if (client.id !== deps.clientId)
    return oauthError(401, "invalid_client", "The OAuth client was not found.");
  if (client.secret !== deps.clientSecret) return oauthError(401, "invalid_client", "Unauthorized");
  return grantType === "authorization_code" ? exchangeCode(deps, form) : refresh(deps, form);
}

/** A service account's assertion: no client authentication, the signature is the proof (RFC 7523 §3). */
async function jwtBearer(deps: OAuthDeps, form: Map<string, string>): Promise<Reply> {
  const assertion = form.get("assertion");
  if (!assertion) return oauthError(400, "invalid_request", "Missing required parameter: assertion");
  const result = await deps.serviceAccounts.verify(assertion, deps.now());
  if (!result.ok) return oauthError(result.status, result.error, result.description);
  const access = { email: result.email, clientId: result.clientId, scopes: result.scopes, offline: false };
  return {
    status: 200,
    body: {
      access_token: deps.tokens.issueAccessToken(access),
      expires_in: deps.tokens.ttlSeconds,
      scope: result.scopes.join(" "),
      token_type: "Bearer",
    },
  };
}

function exchangeCode(deps: OAuthDeps, form: Map<string, string>): Reply {
  const code = form.get("code");
  if (!code) return oauthError(400, "invalid_request", "Missing required parameter: code");
  const redirectUri = form.get("redirect_uri");
  if (!redirectUri) return oauthError(400, "invalid_request", "Missing required parameter: redirect_uri");
  const grant = deps.tokens.takeCode(code);
  // Google answers a used, expired or unknown code with a terse "Bad Request".
  if (!grant || grant.clientId !== deps.clientId) return oauthError(400, "invalid_grant", "Bad Request");
  if (grant.redirectUri !== redirectUri) return oauthError(400, "redirect_uri_mismatch", "Bad Request");
  const verifier = form.get("code_verifier");
  if (!verifier) return oauthError(400, "invalid_grant", "Missing code verifier.");
  if (s256(verifier) !== grant.challenge) return oauthError(400, "invalid_grant", "Invalid code verifier.");

  const refreshToken = grant.offline
    ? deps.tokens.issueRefreshToken(grant.email, grant.clientId, grant.scopes)
    : undefined;
  const access: Omit<AccessGrant, "expiresAt"> = {
    email: grant.email,
    clientId: grant.clientId,
    scopes: grant.scopes,
    offline: grant.offline,
  };
  if (refreshToken) access.refreshToken = refreshToken;
  return { status: 200, body: tokenResponse(deps, access, refreshToken) };
}

function refresh(deps: OAuthDeps, form: Map<string, string>): Reply {
  deps.stats.refreshRequests++;
  const refreshToken = form.get("refresh_token");
  if (!refreshToken) return oauthError(400, "invalid_request", "Missing required parameter: refresh_token");
  const grant = deps.tokens.refreshGrant(refreshToken);
  if (!grant) return oauthError(400, "invalid_grant", "Token has been expired or revoked.");
  if (grant.clientId !== deps.clientId) return oauthError(401, "unauthorized_client", "Unauthorized");
  let scopes = grant.scopes;
  const requested = form.get("scope");
  if (requested) {
    // A refresh may narrow the scopes (never widen them): RFC 6749 §6.
    const { scopes: narrowed, unknown } = normaliseScopes(requested);
    if (unknown.length > 0 || narrowed.some((s) => !grant.scopes.includes(s))) {
      return oauthError(400, "invalid_scope", "Some requested scopes were not granted by the user.");
    }
    scopes = narrowed;
  }
  const access = { email: grant.email, clientId: grant.clientId, scopes, offline: true, refreshToken };
  // A refresh never returns a new refresh token: the client keeps using the one it has.
  return { status: 200, body: tokenResponse(deps, access, undefined) };
}

function tokenResponse(
  deps: OAuthDeps,
  access: Omit<AccessGrant, "expiresAt">,
  refreshToken: string | undefined,
): Record<string, unknown> {
  const ttl = deps.tokens.ttlSeconds;
  const body: Record<string, unknown> = {
    access_token: deps.tokens.issueAccessToken(access),
    expires_in: ttl,
    scope: access.scopes.join(" "),
    token_type: "Bearer",
  };
  if (refreshToken) body.refresh_token = refreshToken;
  if (access.scopes.includes(SCOPE_OPENID) || access.scopes.includes(SCOPE_EMAIL)) {
    body.id_token = makeIdToken(access.email, access.clientId, deps.now(), ttl);
  }
  return body;
}

/** Google's tokeninfo renders numbers and booleans as strings. */
function tokenInfo(deps: OAuthDeps, accessToken: string): Reply {
  const grant = accessToken ? deps.tokens.accessGrant(accessToken) : undefined;
  if (!grant) return oauthError(400, "invalid_token", "Invalid Value");
  const expiresIn = Math.max(0, Math.floor((grant.expiresAt - deps.now()) / 1000));
  const body: Record<string, unknown> = {
    azp: grant.clientId,
    aud: grant.clientId,
    scope: grant.scopes.join(" "),
    exp: String(Math.floor(grant.expiresAt / 1000)),
    expires_in: String(expiresIn),
    access_type: grant.offline ? "offline" : "online",
  };
  if (grant.scopes.includes(SCOPE_OPENID) || grant.scopes.includes(SCOPE_EMAIL))
    body.sub = subjectOf(grant.email);
  if (grant.scopes.includes(SCOPE_EMAIL)) {
    body.email = grant.email;
    body.email_verified = "true";
  }
  return { status: 200, body };
}
