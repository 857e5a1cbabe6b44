import {
  createServer,
  type IncomingMessage,
  type Server as NodeHttpServer,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { credentialStoreReady } from "../auth/readiness.js";
import { ConfigurationError } from "../errors.js";
import { log } from "../log.js";
import { McpEndpoints } from "../mcp/http-endpoints.js";
import { jsonRpcErrorResponse } from "../mcp/json-rpc.js";
import type { ExtraTool } from "../mcp/server.js";
import { createOpsRoutes } from "../ops/routes.js";
import type { OAuthSettings } from "../settings.js";
import { dispatch, send } from "../web/node-bridge.js";
import {
  type ConsentPage,
  type EmbeddedServer,
  type EmbeddedTuning,
  startEmbedded,
} from "../web/oauth/embedded.js";
import { cachedIssuer } from "../web/oauth/issuer.js";
import { ProtectedResource } from "../web/oauth/resource.js";
import { DEFAULT_WORKSPACE, type Workspace } from "../workspace.js";
import { httpApp, keyWorkspace, type PageRoutes } from "./http-app.js";
import {
  allowedHostSet,
  allowedOriginSet,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_IDLE_MS,
  isLoopback,
  ownHostNames,
  printedHostNames,
} from "./http-guard.js";

export { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS, isLoopback, parseApiKeys } from "./http-guard.js";

export interface HttpServerOptions {
  /** Interface to bind. Default 127.0.0.1; anything else requires API keys. */
  host?: string;
  /** Default 0 (an ephemeral port). */
  port?: number;
  /** The workspace of a request (one instance per name, kept by the caller). */
  workspace: (name: string) => Workspace;
  /** API key → workspace name. Required when bound to a non-loopback interface. */
  apiKeys?: ReadonlyMap<string, string>;
  /**
   * Require an API key on loopback too (MARTECH_STEPS_REQUIRE_KEY=1): the server refuses to start without
   * keys instead of serving /mcp to every local process and user. (With keys, /mcp always needs one.)
   */
  requireKey?: boolean;
  /** Extra Host header values to accept (e.g. "mcp.example.internal:8443"). */
  allowedHosts?: readonly string[];
  /** Extra Origin values to accept (e.g. "https://agent.example.com"). */
  allowedOrigins?: readonly string[];
  /** A 2025-era session with nothing open is closed after this long. Default 30 minutes. */
  sessionIdleMs?: number;
  /** Open 2025-era sessions per workspace. Default 100. */
  maxSessions?: number;
  /** Tools served after the registry's steps (a test entry's diagnostic tools); none by default. */
  extraTools?: readonly ExtraTool[];
  /** Other pages of this server (the browser console): called after the Host check for every path but /mcp; false = not found. */
  routes?: PageRoutes;
  /**
   * OAuth access tokens on /mcp (oauthSettings(env)); API keys keep working beside them. Off by default.
   * The embedded authorization server asks the person through `consent` (the console's page: createConsole().consent).
   */
  oauth?: OAuthSettings & { now?: () => Date; consent?: ConsentPage; embedded?: EmbeddedTuning };
}

export interface HttpServerHandle {
  /** The MCP endpoint's URL to share first (for a wildcard bind: by the machine's name). */
  url: string;
  /** Every URL of the MCP endpoint the server answers to, `url` first (a wildcard bind has several). */
  urls: readonly string[];
  port: number;
  /** Open 2025-era sessions (2026-07-28 clients hold none). */
  sessionCount(): number;
  close(): Promise<void>;
}

/**
 * Serves MCP over Streamable HTTP at /mcp, both protocol eras from one endpoint (http-endpoints.ts), with
 * the operations endpoints and the console beside it (http-app.ts routes them). Security (docs/security.md): binds
 * to 127.0.0.1 by default; validates Host and Origin (the SDK's handler checks neither) to stop DNS
 * rebinding; requires a per-workspace API key when bound elsewhere; a request or session only ever
 * reaches its own workspace.
 */
export async function startHttpServer(options: HttpServerOptions): Promise<HttpServerHandle> {
  const host = options.host ?? "127.0.0.1";
  const apiKeys = options.apiKeys ?? new Map<string, string>();
  refuseOpenServer(host, apiKeys, options);
  refuseUnsafeEmbedded(host, options.oauth);
  const endpoints = new McpEndpoints({
    workspace: options.workspace,
    offerSignIn: isLoopback(host),
    extraTools: options.extraTools ?? [],
    sessionIdleMs: options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS,
    maxSessions: options.maxSessions ?? DEFAULT_MAX_SESSIONS,
  });
  // Until every route is mounted (the OAuth layer above all: without it /mcp would take any request as
  // the default workspace's), only the operations endpoints answer, /readyz 503; the rest is 503 with
  // Retry-After (http-app.ts).
  const mounted = { done: false };
  const ops = await opsRoutes(options, apiKeys, () => mounted.done);
  // Filled once the server listens: the accepted values carry its port.
  const allowed = { hosts: new Set<string>(), origins: new Set<string>() };
  const oauth: { resource?: ProtectedResource; embedded?: EmbeddedServer } = {};
  const app = httpApp({
    allowed,
    apiKeys,
    endpoints,
    ops,
    oauth,
    mounted: () => mounted.done,
    ...(options.routes ? { routes: options.routes } : {}),
  });
  // The URL is read inside the promise: a request target it cannot parse is an answer, not a crash.
  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    const url = pathOnly(req.url ?? "/");
    if (url) return dispatch(app, req, res, url);
    await send(res, jsonRpcErrorResponse(400, BAD_TARGET, null, -32600, { connection: "close" }));
    return true;
  };
  const httpServer: NodeHttpServer = createServer((req, res) => {
    answer(req, res).catch((error: unknown) => {
      log.error({ err: error }, "MCP HTTP request failed");
      if (!res.headersSent) void send(res, jsonRpcErrorResponse(500, "Internal server error.", null));
      else res.end();
    });
  });
  // The OAuth layer names the /mcp URL, which carries the port: with a port given, it is mounted before the
  // socket opens, so no request ever finds /mcp without it; with an ephemeral one (0), once the port is
  // known, while the gate above answers 503.
  const fixedPort = options.port !== undefined && options.port !== 0;
  if (fixedPort) await plugOAuth(options.oauth, mcpUrls(host, options.port as number)[0] as string, oauth);
  const port = await listen(httpServer, host, options.port);
  const names = ownHostNames(host);
  allowed.hosts = allowedHostSet(names, port, options.allowedHosts ?? []);
  allowed.origins = allowedOriginSet(names, port, options.allowedOrigins ?? []);
  const urls = mcpUrls(host, port);
  try {
    if (!fixedPort) await plugOAuth(options.oauth, urls[0] as string, oauth);
  } catch (error) {
    httpServer.close();
    throw error;
  }
  mounted.done = true;
  return {
    url: urls[0] as string,
    urls,
    port,
    sessionCount: () => endpoints.sessionCount(),
    async close() {
      await endpoints.close();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}

/** /healthz, /readyz and /metrics (see ops/routes.ts for who may read what). */
function opsRoutes(
  options: HttpServerOptions,
  apiKeys: ReadonlyMap<string, string>,
  mounted: () => boolean,
): ReturnType<typeof createOpsRoutes> {
  return createOpsRoutes({
    dependencies: () => {
      const { store, state } = options.workspace(DEFAULT_WORKSPACE);
      return {
        // The default workspace's document, opened as a request would (key, file or Redis); fails when the
        // store lost documents it held (auth/readiness.ts).
        credentialStore: () => credentialStoreReady(store, DEFAULT_WORKSPACE),
        ...(state.backend === "redis" ? { redis: () => state.ping() } : {}),
      };
    },
    // Open only where /mcp is: with OAuth (a server others reach), only an API key reads the metrics.
    mayReadMetrics: (req) =>
      (apiKeys.size === 0 && !oauthIsOn(options)) || keyWorkspace(apiKeys, req) !== undefined,
    mounted,
  });
}

/** The MCP endpoint's URLs on a port, the one to share first. */
function mcpUrls(host: string, port: number): string[] {
  return printedHostNames(host).map((name) => `http://${name}:${port}/mcp`);
}

function oauthIsOn(options: HttpServerOptions): boolean {
  return options.oauth !== undefined && options.oauth.mode !== "off";
}

/**
 * A server other machines can reach needs a credential on /mcp (API keys or OAuth); so does one whose
 * operator asked for a key on loopback too (MARTECH_STEPS_REQUIRE_KEY).
 */
function refuseOpenServer(
  host: string,
  apiKeys: ReadonlyMap<string, string>,
  options: HttpServerOptions,
): void {
  const oauthOn = oauthIsOn(options);
  if (!isLoopback(host) && apiKeys.size === 0 && !oauthOn) {
    throw new ConfigurationError(`Refusing to serve MCP on ${host} without API keys or OAuth.`, {
      hint: "Set MARTECH_STEPS_API_KEYS=workspace:key (keys of 24+ characters) or MARTECH_STEPS_OAUTH_ISSUER, or bind to 127.0.0.1.",
    });
  }
  if (options.requireKey && apiKeys.size === 0 && !oauthOn) {
    throw new ConfigurationError(
      "Refusing to serve MCP without API keys: MARTECH_STEPS_REQUIRE_KEY is set.",
      {
        hint: "Set MARTECH_STEPS_API_KEYS=workspace:key (keys of 24+ characters), or unset MARTECH_STEPS_REQUIRE_KEY to let local processes call without one.",
      },
    );
  }
}

/**
 * The embedded authorization server is refused where it is unsafe. Off loopback, the canonical /mcp URI
 * must be https (MARTECH_STEPS_OAUTH_AUDIENCE, the public URL a TLS proxy serves): the MCP authorization
 * specification asks for authorization endpoints over HTTPS except on loopback, and the person's console
 * login and the codes would cross the network in clear. It signs people in through the console's login.
 */
function refuseUnsafeEmbedded(host: string, settings: HttpServerOptions["oauth"]): void {
  if (settings?.mode !== "embedded") return;
  const publicUrl = settings.audience ? new URL(settings.audience) : undefined;
  // Plain http only when both the interface it listens on and its public URL are loopback: a loopback
  // audience with a bind to every interface (0.0.0.0) still served /oauth in clear to other hosts.
  const local = isLoopback(host) && (!publicUrl || isLoopback(publicUrl.hostname));
  if (publicUrl?.protocol !== "https:" && !local)
    throw new ConfigurationError(
      `Refusing MARTECH_STEPS_OAUTH=embedded on ${isLoopback(host) ? (publicUrl?.host ?? host) : host} without HTTPS: off this machine, the authorization server must be served over HTTPS.`,
      {
        hint: "Put a TLS proxy in front and set MARTECH_STEPS_OAUTH_AUDIENCE=https://<public name>/mcp (docs/remote-sign-in.md), or bind to 127.0.0.1.",
      },
    );
  // The test-only loopback allowance of metadata documents (guarded-fetch.ts) needs a server on loopback
  // in both senses: its public URL (checked by startEmbedded) and the interface it listens on.
  const testOnly = settings.embedded?.testOnlyLoopbackDocuments ?? settings.embedded?.testOnlyLookup;
  if (testOnly && !isLoopback(host))
    throw new ConfigurationError(
      `The test-only loopback allowance for Client ID Metadata Documents is refused on ${host}: it is for servers bound to loopback.`,
      { hint: "It exists for test harnesses on 127.0.0.1; a deployment never passes it." },
    );
  if (!settings.consent)
    throw new ConfigurationError("MARTECH_STEPS_OAUTH=embedded needs the console to sign people in.", {
      hint: "Run the server with the console: martech-steps start, or serve --http (which mounts it with this setting).",
    });
}

/** /mcp as a protected resource, of the embedded authorization server or an external issuer (known once the server listens). */
async function plugOAuth(
  settings: HttpServerOptions["oauth"],
  ownUrl: string,
  oauth: { resource?: ProtectedResource; embedded?: EmbeddedServer },
): Promise<void> {
  if (settings?.mode === "embedded") {
    oauth.embedded = await embeddedServer(settings, ownUrl);
    oauth.resource = oauth.embedded.resource;
    return;
  }
  const resource = settings ? protectedResource(settings, ownUrl) : undefined;
  if (resource) oauth.resource = resource;
}

/** The embedded authorization server; its issuer is the canonical /mcp URI's origin + /oauth. */
function embeddedServer(
  settings: NonNullable<HttpServerOptions["oauth"]>,
  ownUrl: string,
): Promise<EmbeddedServer> {
  return startEmbedded({
    ...settings.embedded,
    audience: settings.audience ?? ownUrl,
    workspaceClaim: settings.workspaceClaim,
    consent: settings.consent as ConsentPage,
    ...(settings.now ? { now: settings.now } : {}),
  });
}

/** /mcp as a protected resource of an external issuer; its audience defaults to the server's own /mcp URL. */
function protectedResource(
  settings: OAuthSettings & { now?: () => Date },
  ownUrl: string,
): ProtectedResource | undefined {
  if (settings.mode !== "external" || !settings.issuer) return undefined;
  return new ProtectedResource({
    issuer: settings.issuer,
    audience: settings.audience ?? ownUrl,
    workspaceClaim: settings.workspaceClaim,
    keys: cachedIssuer(settings.issuer),
    ...(settings.now ? { now: settings.now } : {}),
  });
}

const BAD_TARGET = "Bad request: the request target must be a path, such as /mcp.";

/**
 * A request target as a URL of its path (origin-form, RFC 9112 section 3.2.1), else undefined. Read
 * against a base, "//x/mcp" would name host x and path /mcp, and "http://x/mcp" the same: a path filter in
 * front of the server (a proxy that keeps /mcp private) would see one path and the routes another.
 * https://www.rfc-editor.org/rfc/rfc9112#section-3.2
 */
function pathOnly(target: string): URL | undefined {
  if (!target.startsWith("/")) return undefined;
  try {
    return new URL(`http://127.0.0.1${target}`);
  } catch {
    return undefined;
  }
}

/** Listens on host:port; a taken port is a ConfigurationError saying how to choose another. */
async function listen(httpServer: NodeHttpServer, host: string, port: number | undefined): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "EADDRINUSE"
          ? new ConfigurationError(`Port ${port} on ${host} is already in use.`, {
              hint: "Stop the other server, or choose another port with --port or MARTECH_STEPS_PORT.",
            })
          : error,
      );
    });
    httpServer.listen(port ?? 0, host, () => resolve());
  });
  return (httpServer.address() as AddressInfo).port;
}
