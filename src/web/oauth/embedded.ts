/**
 * The embedded authorization server (MARTECH_STEPS_OAUTH=embedded): oidc-provider, a certified OpenID
 * Provider (https://github.com/panva/node-oidc-provider), mounted under /oauth on the MCP server itself. It
 * offers what MCP clients use (https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization):
 * the authorization code grant with PKCE (S256, required for every client), Client ID Metadata Documents and
 * dynamic client registration (RFC 7591), refresh tokens, revocation (RFC 7009), and resource indicators
 * (RFC 8707): an access token is a JWT (RFC 9068) whose `aud` is this server's /mcp URI, so /mcp validates it
 * as it validates an external issuer's (resource.ts), with the workspace in a claim, and checks its grant is
 * still held (revocation.ts). The person is the console's: the consent page (given by the console) reads
 * its session, and the token carries that session's workspace.
 *
 * Kept in memory, with a clear consequence (docs/remote-sign-in.md): the signing key, the registered
 * clients, grants and refresh tokens end with the process; after a restart clients register and sign in again.
 * What anyone may make it keep is bounded (memory-store.ts, request-limit.ts; docs/security.md).
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createLocalJWKSet, exportJWK, generateKeyPair, type JWK } from "jose";
import type Provider from "oidc-provider";
import { ConfigurationError } from "../../errors.js";
import { log } from "../../log.js";
import { type GuardOptions, guardedFetch, type LoopbackDocumentsForTests } from "./guarded-fetch.js";
import { type Interactions, interactionsOf } from "./interactions.js";
import { MemoryStore } from "./memory-store.js";
import {
  ACCESS_TOKEN_TTL_SECONDS,
  ALG,
  clientAddress,
  configuration,
  type ErrorPage,
  plainErrorPage,
} from "./provider-config.js";
import { fetchOncePerRequest, providerMiddleware } from "./provider-middleware.js";
import { checkRedirectUri } from "./redirect-uris.js";
import {
  type BucketRule,
  ClientBuckets,
  FETCH_RULE,
  REGISTRATION_RULE,
  SIGN_IN_RULE,
  TOKEN_RULE,
} from "./request-limit.js";
import { ProtectedResource } from "./resource.js";
import { AccessTokenRevocation } from "./revocation.js";
import { SCOPES_SUPPORTED } from "./scopes.js";
import type { StoreLimits } from "./store-limits.js";

export type { Interactions, PendingConsent } from "./interactions.js";
export { ACCESS_TOKEN_TTL_SECONDS, type ErrorPage, type SignInFailure } from "./provider-config.js";

/** Where the authorization server is mounted; its issuer is the server's origin and this path. */
export const OAUTH_PATH = "/oauth";
/** The claim naming the workspace in the embedded server's tokens, unless MARTECH_STEPS_OAUTH_WORKSPACE_CLAIM names another. */
export const EMBEDDED_WORKSPACE_CLAIM = "martech_steps_workspace";

/**
 * The consent page (the console's): answers GET and POST of /oauth/interaction/<uid>. Its errorPage, when
 * it has one, shows the sign-ins that cannot go on (oidc-provider's renderError) in the same look: it
 * travels with the consent page so that every server mounting the console's consent page shows both.
 */
export interface ConsentPage {
  (req: IncomingMessage, res: ServerResponse, interactions: Interactions): Promise<void>;
  errorPage?: ErrorPage;
}

/** What a caller in code (a test harness) may tune; never read from the environment. */
export interface EmbeddedTuning {
  /** Lower caps of the store (store-limits.ts holds the defaults). */
  limits?: StoreLimits;
  /** Other allowances per client address (request-limit.ts holds the defaults). */
  requestRules?: Partial<Record<"registration" | "signIn" | "token" | "fetch", BucketRule>>;
  /** TEST ONLY: fetch Client ID Metadata Documents from loopback (guarded-fetch.ts); refused off loopback. */
  testOnlyLoopbackDocuments?: LoopbackDocumentsForTests;
  /** TEST ONLY: the guarded fetch's name lookup (a DNS answer the test chooses). */
  testOnlyLookup?: GuardOptions["lookup"];
}

export interface EmbeddedOptions extends EmbeddedTuning {
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
  const audienceUrl = new URL(options.audience);
  refuseTestAllowance(audienceUrl, options);
  const issuer = `${audienceUrl.origin}${OAUTH_PATH}`;
  const claim = options.workspaceClaim ?? EMBEDDED_WORKSPACE_CLAIM;
  const clock = options.now ? () => (options.now as () => Date)().getTime() : Date.now;
  const { privateKey, publicKey } = await generateKeyPair(ALG, { extractable: true });
  const kid = randomBytes(8).toString("base64url");
  const privateJwk: JWK = { ...(await exportJWK(privateKey)), kid, alg: ALG, use: "sig" };
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: ALG, use: "sig" };
  const keys = createLocalJWKSet({ keys: [publicJwk] });
  const store = new MemoryStore(clock, options.limits);
  const revocation = new AccessTokenRevocation(store, issuer, keys, clock);
  const rules = options.requestRules ?? {};
  const buckets = {
    registration: new ClientBuckets(rules.registration ?? REGISTRATION_RULE, clock),
    signIn: new ClientBuckets(rules.signIn ?? SIGN_IN_RULE, clock),
    token: new ClientBuckets(rules.token ?? TOKEN_RULE, clock),
  };
  const guarded = guardedFetch({
    ...(options.testOnlyLoopbackDocuments ? { testOnlyLoopback: options.testOnlyLoopbackDocuments } : {}),
    ...(options.testOnlyLookup ? { lookup: options.testOnlyLookup } : {}),
  });
  const fetch: typeof guarded = (url, init) => fetchOncePerRequest(String(url), () => guarded(url, init));
  const provider = await quietly(async () => {
    const { default: OidcProvider, errors } = await import("oidc-provider");
    const fetches = new ClientBuckets(rules.fetch ?? FETCH_RULE, clock);
    return new OidcProvider(
      issuer,
      configuration({
        audience: options.audience,
        claim,
        jwk: privateJwk,
        store,
        errors,
        fetch,
        fetches,
        errorPage: options.consent.errorPage,
      }),
    );
  });
  guardRedirects(provider);
  // Koa's own reading of X-Forwarded-Host/Proto/For, fed only what handle() writes from the configured URL.
  provider.proxy = true;
  provider.use(providerMiddleware(revocation));
  provider.on("server_error", (_ctx: unknown, error: unknown) =>
    log.error({ err: error }, "OAuth authorization server error"),
  );
  const resource = new ProtectedResource({
    issuer,
    audience: options.audience,
    workspaceClaim: claim,
    keys: async () => ({ issuer, keys }),
    ownTokens: {
      maxLifetimeSeconds: ACCESS_TOKEN_TTL_SECONDS,
      isLive: (claims) => revocation.isLive(claims),
    },
    ...(options.now ? { now: options.now } : {}),
  });
  return {
    issuer,
    resource,
    handle: mount(
      provider,
      audienceUrl,
      interactionsOf(provider, options.audience),
      options.consent,
      buckets,
    ),
  };
}

/** The test allowance only where the draft allows it: an authorization server on loopback (guarded-fetch.ts). */
function refuseTestAllowance(audience: URL, options: EmbeddedTuning): void {
  if (!options.testOnlyLoopbackDocuments && !options.testOnlyLookup) return;
  const host = audience.hostname;
  if (host !== "localhost" && host !== "[::1]" && !/^127\./.test(host))
    throw new ConfigurationError(
      `The test-only loopback allowance for Client ID Metadata Documents is refused: the server's public URL (${audience.origin}) is not on loopback.`,
      { hint: "It exists for test harnesses on 127.0.0.1; a deployment never passes it." },
    );
}

/**
 * Every authorization request's redirect_uri passes redirect-uris.ts too, not only exact matching against the
 * registration (which a loopback URI matches on any port, RFC 8252 section 7.3): oidc-provider asks its
 * Client model, this provider's own class, before it sends anything to the URI.
 */
export function guardRedirects(provider: Pick<Provider, "Client">): void {
  const prototype = provider.Client.prototype as { redirectUriAllowed(value: string): boolean };
  const registered = prototype.redirectUriAllowed;
  prototype.redirectUriAllowed = function (this: unknown, value: string) {
    return checkRedirectUri(value).ok && registered.call(this, value);
  };
}

interface Buckets {
  registration: ClientBuckets;
  signIn: ClientBuckets;
  token: ClientBuckets;
}

/** The paths of the endpoints limited per address, as oidc-provider routes them (never a guessed string). */
interface LimitedPaths {
  registration: string;
  authorization: string;
  pushed: string;
  /** Where a client authenticates (an assertion) or proves a DPoP key: each keeps a replay guard's entry. */
  clientAuthenticated: ReadonlySet<string>;
}

/**
 * oidc-provider's own routes under OAUTH_PATH: what its metadata publishes. The pushed authorization
 * endpoint is /oauth/request, not /oauth/par: a limit on a hard-coded /oauth/par limited nothing, and 1,100
 * pushed requests from one address filled the store for every address.
 */
function limitedPaths(provider: Pick<Provider, "pathFor">): LimitedPaths {
  const path = (route: string) => `${OAUTH_PATH}${provider.pathFor(route, { mountPath: "" })}`;
  return {
    registration: path("registration"),
    authorization: path("authorization"),
    pushed: path("pushed_authorization_request"),
    clientAuthenticated: new Set([path("token"), path("revocation"), path("userinfo")]),
  };
}

/** The handler of every path under /oauth (and of the RFC 8414 metadata address of the issuer). */
function mount(
  provider: Provider,
  audience: URL,
  interactions: Interactions,
  consent: ConsentPage,
  buckets: Buckets,
): EmbeddedServer["handle"] {
  const callback = provider.callback();
  const paths = limitedPaths(provider);
  return async (req, res, url) => {
    let path = url.pathname;
    // RFC 8414 section 3.1: the metadata of issuer <origin>/oauth is at /.well-known/oauth-authorization-server/oauth.
    if (path === `/.well-known/oauth-authorization-server${OAUTH_PATH}`)
      path = `${OAUTH_PATH}/.well-known/openid-configuration`;
    else if (path !== OAUTH_PATH && !path.startsWith(`${OAUTH_PATH}/`)) return false;
    publicUrlOnly(req, audience);
    if (path.startsWith(`${OAUTH_PATH}/interaction/`)) {
      await consent(req, res, interactions);
      return true;
    }
    if (overLimit(req, res, bucketOf(req, path, paths, buckets), consent.errorPage)) return true;
    // RFC 6749 section 3.3: a request without a scope is served with a pre-defined default, here both
    // scopes of /mcp (what the 401 names); oidc-provider alone would end it in access_denied ("no scope
    // was granted"). Only the GET form: MCP clients send the authorization request as a link to open.
    let query = url.search;
    if (path === paths.authorization && req.method === "GET" && !url.searchParams.get("scope")) {
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
  };
}

/**
 * The public URL is the configured one, whatever the request says: oidc-provider builds every endpoint it
 * publishes (the metadata's authorization, token, registration and jwks_uri) from the request's host and
 * scheme, so a forged X-Forwarded-Host, X-Forwarded-Proto or Forwarded header would rewrite them (issue 26,
 * item 3). Koa reads the forwarded headers (provider.proxy): they are set here from the /mcp URI, and the
 * client's address is the socket's.
 */
function publicUrlOnly(req: IncomingMessage, audience: URL): void {
  for (const name of Object.keys(req.headers))
    if (name === "forwarded" || name.startsWith("x-forwarded-")) delete req.headers[name];
  req.headers["x-forwarded-host"] = audience.host;
  req.headers["x-forwarded-proto"] = audience.protocol.slice(0, -1);
}

/** The allowance a request counts against: a registration, a sign-in request, a token request, or none. */
function bucketOf(
  req: IncomingMessage,
  path: string,
  paths: LimitedPaths,
  buckets: Buckets,
): { bucket: ClientBuckets; what: string } | undefined {
  const post = req.method === "POST";
  if (post && path === paths.registration) return { bucket: buckets.registration, what: "registrations" };
  if (path === paths.authorization || (post && path === paths.pushed))
    return { bucket: buckets.signIn, what: "sign-in requests" };
  if (paths.clientAuthenticated.has(path)) return { bucket: buckets.token, what: "token requests" };
  return undefined;
}

/**
 * A request over its address's allowance: 429 with Retry-After, nothing kept. A person's browser (a GET
 * asking for HTML) gets the consent page's error page, in the console's look, when the server has one.
 */
function overLimit(
  req: IncomingMessage,
  res: ServerResponse,
  limited: { bucket: ClientBuckets; what: string } | undefined,
  errorPage: ErrorPage | undefined,
): boolean {
  const waitMs = limited?.bucket.take(clientAddress(req)) ?? 0;
  if (waitMs === 0 || !limited) return false;
  const seconds = Math.ceil(waitMs / 1000);
  const words = `Too many ${limited.what} from this address: retry in ${seconds} s.`;
  const headers = { "cache-control": "no-store", "retry-after": String(seconds) };
  if (req.method === "POST" || !/text\/html/.test(req.headers.accept ?? "")) {
    res.writeHead(429, { ...headers, "content-type": "application/json" });
    res.end(JSON.stringify({ error: "temporarily_unavailable", error_description: words }));
    return true;
  }
  const failure = { status: 429, error: "temporarily_unavailable", description: words };
  const { html, csp } = (errorPage ?? plainErrorPage)(failure);
  res.writeHead(429, {
    ...headers,
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": csp,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
  });
  res.end(html);
  return true;
}
