/**
 * The embedded authorization server (MARTECH_STEPS_OAUTH=embedded): oidc-provider, a certified OpenID
 * Provider (https://github.com/panva/node-oidc-provider), mounted under /oauth on the MCP server itself. It
 * offers what MCP clients use (https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization):
 * the authorization code grant with PKCE (S256, required for every client), dynamic client registration
 * (RFC 7591), refresh tokens, revocation (RFC 7009), and resource indicators (RFC 8707): an access token is
 * a JWT (RFC 9068) whose `aud` is this server's /mcp URI, so /mcp validates it as it validates an external
 * issuer's (resource.ts), with the workspace in a claim. The person is the console's: the consent page
 * (given by the console) reads its session, and the token carries that session's workspace.
 *
 * Kept in memory, with a clear consequence (README, "Remote sign-in"): the signing key, the registered
 * clients, grants and refresh tokens end with the process; after a restart clients register and sign in again.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createLocalJWKSet, exportJWK, generateKeyPair, type JWK } from "jose";
import type { Configuration, JWKS, KoaContextWithOIDC, default as Provider } from "oidc-provider";
import { log } from "../../log.js";
import { MemoryStore } from "./memory-store.js";
import { ProtectedResource } from "./resource.js";
import { SCOPES_SUPPORTED } from "./scopes.js";

/** Where the authorization server is mounted; its issuer is the server's origin and this path. */
export const OAUTH_PATH = "/oauth";
/** The claim naming the workspace in the embedded server's tokens, unless MARTECH_STEPS_OAUTH_WORKSPACE_CLAIM names another. */
export const EMBEDDED_WORKSPACE_CLAIM = "martech_steps_workspace";
/** An access token lives 15 minutes; a client refreshes it (a revoked grant stops within this time). */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const ALG = "ES256";
/** Every scope the server knows: OpenID's two, and the two of /mcp (scopes.ts). */
const ALL_SCOPES = ["openid", "offline_access", ...SCOPES_SUPPORTED] as const;
const DAY_SECONDS = 24 * 60 * 60;

/** An authorization request waiting for the person's approval, as the consent page shows it. */
export interface PendingConsent {
  clientId: string;
  clientName: string;
  /** Where the client receives the code (its redirect URI). */
  redirectUri: string;
  /** The scopes the approval grants on /mcp. */
  scopes: string[];
}

/** What the consent page may do with the request in progress (the cookies of `req` name it). */
export interface Interactions {
  pending(req: IncomingMessage, res: ServerResponse): Promise<PendingConsent | undefined>;
  /** Grants the client the pending scopes for `workspace`; answers with the redirect back to the flow. */
  approve(req: IncomingMessage, res: ServerResponse, workspace: string): Promise<void>;
  /** Refuses: the client gets access_denied. */
  deny(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

/** The consent page (the console's): answers GET and POST of /oauth/interaction/<uid>. */
export type ConsentPage = (
  req: IncomingMessage,
  res: ServerResponse,
  interactions: Interactions,
) => Promise<void>;

export interface EmbeddedOptions {
  /** This resource's canonical /mcp URI; the issuer is its origin and /oauth. */
  audience: string;
  workspaceClaim?: string | undefined;
  consent: ConsentPage;
  now?: () => Date;
}

export interface EmbeddedServer {
  issuer: string;
  resource: ProtectedResource;
  /** Answers a request under /oauth (and the RFC 8414 metadata address); false when the path is not its. */
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean>;
}

/**
 * oidc-provider writes notices with console.warn/info (its own words, no secret): they go to the log
 * instead. Its "Unsupported runtime" notice on Node 20 names the versions its author tests; this package
 * runs it on Node 20.19 or newer and tests the flow there (test/mcp/oauth-embedded.test.ts), so it is debug.
 */
async function quietly<T>(run: () => Promise<T> | T): Promise<T> {
  const { warn, info } = console;
  const toLog = (...args: unknown[]) => {
    const text = args.map(String).join(" ");
    if (/Unsupported runtime/.test(text)) log.debug({ notice: text }, "oidc-provider runtime notice");
    else log.warn({ notice: text }, "oidc-provider notice");
  };
  console.warn = toLog;
  console.info = toLog;
  try {
    return await run();
  } finally {
    console.warn = warn;
    console.info = info;
  }
}

export async function startEmbedded(options: EmbeddedOptions): Promise<EmbeddedServer> {
  const issuer = `${new URL(options.audience).origin}${OAUTH_PATH}`;
  const claim = options.workspaceClaim ?? EMBEDDED_WORKSPACE_CLAIM;
  const { privateKey, publicKey } = await generateKeyPair(ALG, { extractable: true });
  const kid = randomBytes(8).toString("base64url");
  const privateJwk: JWK = { ...(await exportJWK(privateKey)), kid, alg: ALG, use: "sig" };
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: ALG, use: "sig" };
  const provider = await quietly(async () => {
    const { default: OidcProvider } = await import("oidc-provider");
    return new OidcProvider(issuer, configuration(options.audience, claim, privateJwk));
  });
  // Behind a TLS proxy (an https issuer), the proxy's X-Forwarded-Proto says the request came over TLS.
  provider.proxy = issuer.startsWith("https:");
  provider.on("server_error", (_ctx: unknown, error: unknown) =>
    log.error({ err: error }, "OAuth authorization server error"),
  );
  const keys = createLocalJWKSet({ keys: [publicJwk] });
  const resource = new ProtectedResource({
    issuer,
    audience: options.audience,
    workspaceClaim: claim,
    keys: async () => ({ issuer, keys }),
    ...(options.now ? { now: options.now } : {}),
  });
  const interactions = interactionsOf(provider, options.audience);
  const callback = provider.callback();
  return {
    issuer,
    resource,
    async handle(req, res, url) {
      let path = url.pathname;
      // RFC 8414 section 3.1: the metadata of issuer <origin>/oauth is at /.well-known/oauth-authorization-server/oauth.
      if (path === `/.well-known/oauth-authorization-server${OAUTH_PATH}`)
        path = `${OAUTH_PATH}/.well-known/openid-configuration`;
      else if (path !== OAUTH_PATH && !path.startsWith(`${OAUTH_PATH}/`)) return false;
      if (path.startsWith(`${OAUTH_PATH}/interaction/`)) {
        await options.consent(req, res, interactions);
        return true;
      }
      // RFC 6749 section 3.3: a request without a scope is served with a pre-defined default, here both
      // scopes of /mcp (what the 401 names); oidc-provider alone would end it in access_denied ("no scope
      // was granted"). Only the GET form: MCP clients send the authorization request as a link to open.
      let query = url.search;
      if (path === `${OAUTH_PATH}/auth` && req.method === "GET" && !url.searchParams.get("scope")) {
        const params = new URLSearchParams(url.search);
        params.set("scope", SCOPES_SUPPORTED.join(" "));
        query = `?${params}`;
      }
      // oidc-provider's routes are relative to its mount; it builds its URLs from originalUrl's prefix.
      const original = `${path}${query}`;
      (req as IncomingMessage & { originalUrl?: string }).originalUrl = original;
      req.url = original.slice(OAUTH_PATH.length) || "/";
      await callback(req, res);
      return true;
    },
  };
}

/** oidc-provider's configuration (https://github.com/panva/node-oidc-provider/blob/main/docs/README.md). */
function configuration(audience: string, claim: string, jwk: JWK): Configuration {
  const store = new MemoryStore();
  return {
    adapter: store.adapter(),
    jwks: { keys: [jwk as JWKS["keys"][number]] },
    cookies: { keys: [randomBytes(32).toString("base64url")] },
    // The one signing key is ES256: a registered client's ID tokens use it too (the default is RS256).
    clientDefaults: { id_token_signed_response_alg: ALG },
    // The console's workspace is the account: tokens name it in the workspace claim.
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    scopes: [...ALL_SCOPES],
    // A client that registers with a scope (the MCP SDK registers with the scope of its first sign-in) may
    // still ask for more later: MCP's step-up (a 403 insufficient_scope names steps:write) must reach the
    // consent page, not stop at oidc-provider's check of the registered scope ("requested scope is not
    // allowed"). RFC 7591 section 2 lets the server replace the requested scope value; what a client gets
    // is still what the person approves on the consent page.
    extraClientMetadata: {
      properties: ["scope"],
      validator: (_ctx, key, _value, metadata) => {
        if (key === "scope") metadata.scope = ALL_SCOPES.join(" ");
      },
    },
    pkce: { required: () => true },
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
    interactions: { url: (_ctx, interaction) => `${OAUTH_PATH}/interaction/${interaction.uid}` },
    extraTokenClaims: (_ctx: KoaContextWithOIDC, token) =>
      token.kind === "AccessToken" && token.accountId ? { [claim]: token.accountId } : undefined,
    features: features(audience),
    // A public client (a browser-based MCP client) may call the token endpoints from its redirect URI's
    // origin: oidc-provider's default rule, stated here.
    clientBasedCORS: (_ctx, origin, client) =>
      origin !== "null" &&
      client.clientAuthMethod === "none" &&
      client.redirectUris?.some((uri) => URL.parse(uri)?.origin === origin) === true,
    renderError: (ctx, out) => {
      const words = Object.values(out).map((v) => escapeHtml(String(v)));
      ctx.type = "html";
      ctx.set("content-security-policy", "default-src 'none'; frame-ancestors 'none'");
      ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>martech-steps: sign-in failed</title></head><body><h1>This sign-in cannot go on</h1><p>${words.join(": ")}</p><p>Start the sign-in again from your MCP client.</p></body></html>`;
    },
  };
}

function features(audience: string): Configuration["features"] {
  return {
    devInteractions: { enabled: false },
    // No logout pages: a client ends its access by revoking its token.
    rpInitiatedLogout: { enabled: false },
    // RFC 7591: an MCP client registers itself (as the MCP authorization specification lets it).
    registration: { enabled: true },
    // RFC 7009 section 2.1: a client revokes only its own tokens (oidc-provider's default policy, stated).
    revocation: {
      enabled: true,
      allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
    },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => audience,
      useGrantedResource: () => true,
      getResourceServerInfo: async (_ctx, resource) => {
        if (resource !== audience) {
          const { errors } = await import("oidc-provider");
          throw new errors.InvalidTarget(`this server issues tokens for ${audience} only`);
        }
        return {
          scope: SCOPES_SUPPORTED.join(" "),
          audience,
          accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
          accessTokenFormat: "jwt",
          jwt: { sign: { alg: ALG } },
        };
      },
    },
  };
}

/** Text as HTML (an error's words may quote what the request sent). */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** The scopes an approval grants: those asked for that /mcp knows, else (none asked) both. */
function grantedScopes(requested: unknown): string[] {
  const asked = typeof requested === "string" ? requested.split(" ") : [];
  const known = SCOPES_SUPPORTED.filter((scope) => asked.includes(scope));
  return known.length > 0 ? known : [...SCOPES_SUPPORTED];
}

function interactionsOf(provider: Provider, audience: string): Interactions {
  return {
    async pending(req, res) {
      let details: Awaited<ReturnType<Provider["interactionDetails"]>>;
      try {
        details = await provider.interactionDetails(req, res);
      } catch {
        return undefined;
      }
      const clientId = String(details.params.client_id ?? "");
      const client = await provider.Client.find(clientId);
      if (!client) return undefined;
      return {
        clientId,
        clientName: String(client.clientName ?? clientId),
        redirectUri: String(details.params.redirect_uri ?? ""),
        scopes: grantedScopes(details.params.scope),
      };
    },
    async approve(req, res, workspace) {
      const details = await provider.interactionDetails(req, res);
      const grant = new provider.Grant({ accountId: workspace, clientId: String(details.params.client_id) });
      const scopes = grantedScopes(details.params.scope);
      // oidc-provider counts every scope of its `scopes` as asked of itself too (its consent checks both).
      const asked = typeof details.params.scope === "string" ? details.params.scope.split(" ") : [];
      const oidc = asked.filter((scope) => scope === "openid" || scope === "offline_access");
      grant.addOIDCScope([...oidc, ...scopes].join(" "));
      grant.addResourceScope(audience, scopes.join(" "));
      const grantId = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: workspace }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
    },
    async deny(req, res) {
      await provider.interactionFinished(
        req,
        res,
        { error: "access_denied", error_description: "The person declined this client's access." },
        { mergeWithLastSubmission: false },
      );
    },
  };
}
