/** oidc-provider's configuration for the embedded authorization server (https://github.com/panva/node-oidc-provider/blob/main/docs/README.md). */
import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { JWK } from "jose";
import type { Configuration, ErrorOut, JWKS, KoaContextWithOIDC } from "oidc-provider";
import type { MemoryStore } from "./memory-store.js";
import { noteRetryAfter } from "./provider-middleware.js";
import { checkRedirectUri } from "./redirect-uris.js";
import type { ClientBuckets } from "./request-limit.js";
import { GRANT_CLAIM } from "./revocation.js";
import { SCOPES_SUPPORTED } from "./scopes.js";
import { CLIENT_ASSERTION_MAX_SECONDS, PROVIDER_CLOCK_TOLERANCE_SECONDS } from "./store-limits.js";

/** An access token lives 15 minutes; a client refreshes it. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const ALG = "ES256";
/** Every scope the server knows: OpenID's two, and the two of /mcp (scopes.ts). */
export const ALL_SCOPES = ["openid", "offline_access", ...SCOPES_SUPPORTED] as const;
const DAY_SECONDS = 24 * 60 * 60;

/**
 * How long a fetched Client ID Metadata Document is used before it is fetched again: its Cache-Control
 * max-age (or Expires) within these bounds (the draft, section 5.2: the server "SHOULD respect HTTP cache
 * headers ... but MAY define its own upper and/or lower bounds"). The floor keeps a document served with
 * no-store from being fetched on every request; the ceiling lets a changed document take effect within the hour.
 */
export const CLIENT_DOCUMENT_CACHE_SECONDS = { min: 60, max: 60 * 60 } as const;
/** The draft's recommended cap on a Client ID Metadata Document (section 8.7): 5 KB. */
export const CLIENT_DOCUMENT_MAX_BYTES = 5 * 1024;

type OidcErrors = typeof import("oidc-provider").errors;

export interface ConfigurationParts {
  audience: string;
  claim: string;
  jwk: JWK;
  store: MemoryStore;
  errors: OidcErrors;
  /** oidc-provider's `fetch`: the guarded fetch (guarded-fetch.ts). */
  fetch: (url: string | URL, init?: RequestInit) => Promise<Response>;
  /** Client ID Metadata Documents fetched per client address (request-limit.ts). */
  fetches: ClientBuckets;
  /** The page a person sees when a sign-in cannot go on (the console's); without it, plainErrorPage. */
  errorPage?: ErrorPage | undefined;
}

/**
 * A sign-in that cannot go on, as oidc-provider hands it to its renderError hook: an unknown client_id, a
 * redirect_uri the client did not register, an expired sign-in. The description may quote the request.
 */
export interface SignInFailure {
  status: number;
  /** The OAuth error code (RFC 6749 section 4.1.2.1), e.g. invalid_client. */
  error: string;
  description: string | undefined;
}

/** The page for a SignInFailure: a whole HTML document, and the CSP it is served under. */
export type ErrorPage = (failure: SignInFailure) => { html: string; csp: string };

export function configuration(parts: ConfigurationParts): Configuration {
  const { claim, errors } = parts;
  return {
    adapter: parts.store.adapter((refusal) => {
      if (refusal.reason === "too_large")
        return refusal.kind === "Client"
          ? new errors.InvalidClientMetadata("client metadata is larger than this server keeps (8 KB)")
          : new errors.InvalidRequest("the request is larger than this server keeps", 413);
      // 503: the table is full of live entries; a grant is never dropped to make room (memory-store.ts).
      noteRetryAfter(refusal.retryAfterMs);
      const busy = new errors.TemporarilyUnavailable(
        "the authorization server holds as many sign-ins and registrations as it may; try again later",
      );
      return Object.assign(busy, { status: 503, statusCode: 503, retryAfterMs: refusal.retryAfterMs });
    }),
    jwks: { keys: [parts.jwk as JWKS["keys"][number]] },
    cookies: { keys: [randomBytes(32).toString("base64url")] },
    // The one signing key is ES256: a registered client's ID tokens use it too (the default is RS256).
    clientDefaults: { id_token_signed_response_alg: ALG },
    // The console's workspace is the account: tokens name it in the workspace claim.
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    scopes: [...ALL_SCOPES],
    extraClientMetadata: clientMetadataRules(errors),
    pkce: { required: () => true },
    clockTolerance: PROVIDER_CLOCK_TOLERANCE_SECONDS,
    // A client assertion (private_key_jwt) is refused when its exp is more than 5 minutes ahead (RFC 7523
    // section 3 allows it): its replay guard's entry lives until that exp, so a far one (10 years) filled the
    // guard's table with entries no one could clear (store-limits.ts, REPLAY_MAX_LIFE_SECONDS).
    assertJwtClientAuthClaimsAndHeader: async (_ctx, claims) => {
      const latest = Date.now() / 1000 + CLIENT_ASSERTION_MAX_SECONDS + PROVIDER_CLOCK_TOLERANCE_SECONDS;
      if (typeof claims.exp === "number" && claims.exp > latest)
        throw new errors.InvalidClientAuth(
          `the client_assertion's exp is more than ${CLIENT_ASSERTION_MAX_SECONDS} s ahead; sign it for ${CLIENT_ASSERTION_MAX_SECONDS} s at most`,
        );
    },
    // OAuth 2.1 keeps only the code flow (no implicit, no id_token in the front channel); oidc-provider
    // advertises both by default. https://datatracker.ietf.org/doc/html/draft-ietf-oauth-v2-1#section-10.1
    responseTypes: ["code"],
    // A refresh token for every client allowed the grant (MCP clients do not all ask for offline_access).
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    // A refresh token, a grant and the sign-in session last 14 days (oidc-provider's own defaults, set
    // here so that it does not ask for them); an unanswered consent page, 10 minutes.
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL_SECONDS,
      IdToken: 60 * 60,
      Interaction: 10 * 60,
      Grant: 14 * DAY_SECONDS,
      Session: 14 * DAY_SECONDS,
      RefreshToken: 14 * DAY_SECONDS,
    },
    interactions: { url: (_ctx, interaction) => `/oauth/interaction/${interaction.uid}` },
    // The workspace, and the grant the token was issued under: /mcp refuses the token once that grant is
    // gone (revoked, replayed code or refresh token), not 15 minutes later (revocation.ts).
    extraTokenClaims: (_ctx: KoaContextWithOIDC, token) =>
      token.kind === "AccessToken" && token.accountId
        ? { [claim]: token.accountId, ...(token.grantId ? { [GRANT_CLAIM]: token.grantId } : {}) }
        : undefined,
    features: features(parts),
    fetch: parts.fetch as Configuration["fetch"],
    fetchResponseBodyLimits: { "client_id metadata document": CLIENT_DOCUMENT_MAX_BYTES },
    // A public client (a browser-based MCP client) may call the token endpoints from its redirect URI's
    // origin: oidc-provider's default rule, stated here.
    clientBasedCORS: (_ctx, origin, client) =>
      origin !== "null" &&
      client.clientAuthMethod === "none" &&
      client.redirectUris?.some((uri) => URL.parse(uri)?.origin === origin) === true,
    renderError: (ctx, out) => showError(ctx, out, parts.errorPage ?? plainErrorPage),
  };
}

/**
 * oidc-provider's renderError hook (https://github.com/panva/node-oidc-provider/blob/main/docs/README.md#rendererror):
 * the page gets the error code and description only, never the request's state or the issuer, which the
 * hook's `out` also holds; a server_error's description is oidc-provider's generic one (no stack, no detail).
 */
function showError(ctx: KoaContextWithOIDC, out: ErrorOut, page: ErrorPage): void {
  const description = typeof out.error_description === "string" ? out.error_description : undefined;
  const { html, csp } = page({ status: ctx.status, error: String(out.error), description });
  ctx.type = "html";
  ctx.set("content-security-policy", csp);
  ctx.set("x-content-type-options", "nosniff");
  ctx.set("x-frame-options", "DENY");
  ctx.set("referrer-policy", "no-referrer");
  ctx.set("cache-control", "no-store");
  ctx.body = html;
}

/** The error page of a server mounted without the console's (a test's stub consent page): the words alone. */
export function plainErrorPage(failure: SignInFailure): { html: string; csp: string } {
  const words = [failure.error, failure.description ?? ""].filter(Boolean).map(escapeHtml).join(": ");
  return {
    csp: "default-src 'none'; frame-ancestors 'none'",
    html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>martech-steps: sign-in failed</title></head><body><h1>This sign-in cannot go on</h1><p>${words}</p><p>Start the sign-in again from your MCP client.</p></body></html>`,
  };
}

/**
 * A registration's metadata (RFC 7591, or a Client ID Metadata Document's): its redirect URIs must pass
 * redirect-uris.ts (checked again at every authorization request, embedded.ts). And its scope: a client
 * that registers with one (the MCP SDK registers with the scope of its first sign-in) may still ask for more
 * later: MCP's step-up (a 403 insufficient_scope names steps:write) must reach the consent page, not stop at
 * oidc-provider's check of the registered scope ("requested scope is not allowed"). RFC 7591 section 2 lets
 * the server replace the requested scope value; what a client gets is still what the person approves.
 */
function clientMetadataRules(errors: OidcErrors): Configuration["extraClientMetadata"] {
  return {
    properties: ["scope", "redirect_uris"],
    validator: (_ctx, key, value, metadata) => {
      if (key === "scope") metadata.scope = ALL_SCOPES.join(" ");
      if (key !== "redirect_uris" || !Array.isArray(value)) return;
      for (const uri of value) {
        if (typeof uri !== "string") continue;
        const checked = checkRedirectUri(uri);
        if (!checked.ok) throw new errors.InvalidClientMetadata(`redirect_uris: ${checked.reason}`);
      }
    },
  };
}

function features(parts: ConfigurationParts): Configuration["features"] {
  const { audience, errors } = parts;
  return {
    devInteractions: { enabled: false },
    // No logout pages: a client ends its access by revoking its token.
    rpInitiatedLogout: { enabled: false },
    // RFC 7591: an MCP client registers itself (the MCP authorization specification keeps it for older
    // clients). No registration access token: nothing here reads or changes a registration afterwards
    // (RFC 7592 is off), and each would be one more entry kept per registration.
    registration: { enabled: true, issueRegistrationAccessToken: false },
    // RFC 7009 section 2.1: a client revokes only its own tokens (oidc-provider's default policy, stated).
    // A JWT access token is revoked by provider-middleware.ts, which oidc-provider leaves it to.
    revocation: {
      enabled: true,
      allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
    },
    // Client ID Metadata Documents (the 2026-07-28 MCP authorization specification prefers them to
    // registration): a client_id that is an https URL is fetched through the guarded fetch, from a client
    // address within its allowance (request-limit.ts), and cached within CLIENT_DOCUMENT_CACHE_SECONDS.
    // Experimental in oidc-provider 9.13 (draft-02, the draft the MCP specification cites): the ack makes an
    // update of the draft in a minor release fail at start instead of changing behaviour unseen.
    clientIdMetadataDocument: {
      enabled: true,
      ack: "draft-02",
      // Outside a request of the client's (the consent page reading a document whose cache ran out while
      // the person logged in) there is no address to count against: the page's session is the console's.
      allowFetch: async (ctx) => !ctx || parts.fetches.take(clientAddress(ctx.req)) === 0,
      cacheDuration: { ...CLIENT_DOCUMENT_CACHE_SECONDS },
    },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => audience,
      useGrantedResource: () => true,
      getResourceServerInfo: async (_ctx, resource) => {
        if (resource !== audience)
          throw new errors.InvalidTarget(`this server issues tokens for ${audience} only`);
        return {
          scope: SCOPES_SUPPORTED.join(" "),
          audience,
          accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
          accessTokenFormat: "jwt",
          jwt: { sign: { alg: ALG } },
        };
      },
    },
  } as Configuration["features"];
}

/** The request's peer address (never a forwarded header: embedded.ts rewrites those from configuration). */
export function clientAddress(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? "unknown";
}

/** Text as HTML (an error's words may quote what the request sent). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
