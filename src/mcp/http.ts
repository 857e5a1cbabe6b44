import {
  createServer,
  type IncomingMessage,
  type Server as NodeHttpServer,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { toWebRequest } from "@modelcontextprotocol/node";
import { createMcpHandler, isLegacyRequest, type McpHttpHandler } from "@modelcontextprotocol/server";
import { workspaceOfApiKey } from "../auth/api-keys.js";
import { ConfigurationError } from "../errors.js";
import { log } from "../log.js";
import { createOpsRoutes } from "../ops/routes.js";
import { DEFAULT_WORKSPACE, type Workspace } from "../workspace.js";
import { cancelSignIn } from "./elicit-connect.js";
import {
  allowedHostSet,
  allowedOriginSet,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_IDLE_MS,
  isLoopback,
  type JsonRpcId,
  jsonRpcErrorResponse,
  ownHostNames,
  requestIdOf,
} from "./http-guard.js";
import { LegacySessions } from "./legacy-sessions.js";
import { createMcpServer, type ExtraTool } from "./server.js";

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
  routes?: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;
}

export interface HttpServerHandle {
  url: string;
  port: number;
  /** Open 2025-era sessions (2026-07-28 clients hold none). */
  sessionCount(): number;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 4 * 1024 * 1024;

class BodyTooLarge extends Error {}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(await response.text());
}

/**
 * Serves one request with a web-standard handler. Unlike the SDK's toNodeHandler, it sends the headers
 * at once (a client sees its SSE stream open before the first event, which may come much later) and
 * cancels the response body as soon as the client goes away (not at the next keep-alive).
 */
async function respond(
  req: IncomingMessage,
  res: ServerResponse,
  parsedBody: unknown,
  fetch: (request: Request) => Promise<Response>,
): Promise<void> {
  const abort = new AbortController();
  res.on("close", () => abort.abort());
  const response = await fetch(await toWebRequest(req, parsedBody, { signal: abort.signal }));
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.flushHeaders();
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel().catch(() => undefined);
  abort.signal.addEventListener("abort", cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || abort.signal.aborted) break;
      if (!res.write(value))
        await new Promise((resolve) => res.once("drain", resolve).once("close", resolve));
    }
  } catch {
    // The body failed or was cancelled: end the response either way.
  } finally {
    abort.signal.removeEventListener("abort", cancel);
    res.end();
  }
}

/**
 * Serves MCP over Streamable HTTP at /mcp, both protocol eras from one endpoint: 2026-07-28 requests
 * (per-request `_meta`, no session) go to the SDK's per-request handler, one per workspace; 2025-era
 * requests (initialize, then a session id) go to sessions kept here. Security (DESIGN.md): binds to
 * 127.0.0.1 by default; validates Host and Origin (the SDK's handler checks neither) to stop DNS
 * rebinding; requires a per-workspace API key when bound elsewhere; a request or session only ever
 * reaches its own workspace.
 */
export async function startHttpServer(options: HttpServerOptions): Promise<HttpServerHandle> {
  const host = options.host ?? "127.0.0.1";
  const apiKeys = options.apiKeys ?? new Map<string, string>();
  if (!isLoopback(host) && apiKeys.size === 0) {
    throw new ConfigurationError(`Refusing to serve MCP on ${host} without API keys.`, {
      hint: "Set MARTECH_STEPS_API_KEYS=workspace:key (keys of 24+ characters), or bind to 127.0.0.1.",
    });
  }
  const offerSignIn = isLoopback(host);
  const extraTools = options.extraTools ?? [];
  const sessions = new LegacySessions({
    idleMs: options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS,
    maxPerWorkspace: options.maxSessions ?? DEFAULT_MAX_SESSIONS,
    create: (name) =>
      createMcpServer({
        workspace: options.workspace(name),
        offerSignIn,
        extraTools,
        notifyToolListChanged: false,
      }),
  });
  const endpoints = new Map<string, { modern: McpHttpHandler; release: () => void }>();
  /** A workspace's 2026-07-28 handler, and the one accounts listener that serves both eras. */
  const endpoint = (name: string) => {
    const existing = endpoints.get(name);
    if (existing) return existing;
    const workspace = options.workspace(name);
    // Sign-ins started by its per-request instances outlive the request: they belong to the endpoint.
    const signInOwner = {};
    const modern = createMcpHandler(
      () =>
        createMcpServer({ workspace, offerSignIn, extraTools, signInOwner, notifyToolListChanged: false })
          .server,
      { legacy: "reject", onerror: (error) => log.debug({ err: error }, "MCP request refused") },
    );
    // One listener per workspace, however many clients: its sessions and its open
    // subscriptions/listen streams (and only those) hear that its tool list changed.
    const onAccountsChanged = () => {
      modern.notify.toolsChanged();
      sessions.toolListChanged(name);
    };
    workspace.on("accountsChanged", onAccountsChanged);
    const created = {
      modern,
      release: () => {
        workspace.off("accountsChanged", onAccountsChanged);
        cancelSignIn(workspace, signInOwner);
      },
    };
    endpoints.set(name, created);
    return created;
  };
  let allowedHosts = new Set<string>();
  let allowedOrigins = new Set<string>();
  /** The workspace of a request's API key (Authorization: Bearer), or undefined. */
  const keyWorkspace = (req: IncomingMessage) => {
    const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "");
    return match ? workspaceOfApiKey(apiKeys, match[1] as string) : undefined;
  };
  // /healthz, /readyz and /metrics (see ops/routes.ts for who may read what).
  const ops = await createOpsRoutes({
    dependencies: () => {
      const { store, state } = options.workspace(DEFAULT_WORKSPACE);
      return {
        // The default workspace's document: it opens the store as a request would (key, file or Redis).
        credentialStore: () => store.read(DEFAULT_WORKSPACE),
        ...(state.backend === "redis" ? { redis: () => state.ping() } : {}),
      };
    },
    mayReadMetrics: (req) => apiKeys.size === 0 || keyWorkspace(req) !== undefined,
  });

  const refuse = (res: ServerResponse, status: number, message: string, id: JsonRpcId, headers = {}) =>
    send(res, jsonRpcErrorResponse(status, message, id, -32000, headers));

  const refuseHost = (res: ServerResponse, req: IncomingMessage, id: JsonRpcId) =>
    refuse(
      res,
      403,
      `Forbidden: this server does not answer to Host "${(req.headers.host ?? "").toLowerCase().slice(0, 100)}". ` +
        "It accepts its own addresses and name; add others with MARTECH_STEPS_ALLOWED_HOSTS (comma-separated host:port).",
      id,
    );

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== "/mcp") {
      // The console's pages: the same Host check (DNS rebinding) before anything is read.
      if (!allowedHosts.has((req.headers.host ?? "").toLowerCase())) return refuseHost(res, req, null);
      if (await ops(req, res, url)) return;
      if (await options.routes?.(req, res, url)) return;
      return refuse(res, 404, "Not found: the MCP endpoint is /mcp.", null);
    }
    let parsedBody: unknown;
    if (req.method === "POST") {
      let text: string;
      try {
        text = await readBody(req);
      } catch (error) {
        if (!(error instanceof BodyTooLarge)) throw error;
        return refuse(res, 413, "Payload too large: the body is over 4 MB.", null, { connection: "close" });
      }
      try {
        parsedBody = JSON.parse(text);
      } catch {
        return send(res, jsonRpcErrorResponse(400, "Parse error: the body is not JSON.", null, -32700));
      }
    }
    const id = requestIdOf(parsedBody);
    if (!allowedHosts.has((req.headers.host ?? "").toLowerCase())) return refuseHost(res, req, id);
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin.toLowerCase())) {
      return refuse(
        res,
        403,
        `Forbidden: requests from Origin "${origin.slice(0, 100)}" are not accepted. Add trusted web origins ` +
          "with MARTECH_STEPS_ALLOWED_ORIGINS (comma-separated, e.g. https://agent.example.com).",
        id,
      );
    }
    let workspace = DEFAULT_WORKSPACE;
    if (apiKeys.size > 0) {
      const found = keyWorkspace(req);
      if (!found) {
        return refuse(res, 401, "Unauthorized: send Authorization: Bearer <API key of your workspace>.", id, {
          "www-authenticate": 'Bearer realm="martech-steps"',
        });
      }
      workspace = found;
    }
    const { modern } = endpoint(workspace);
    try {
      await respond(req, res, parsedBody, async (request) =>
        (await isLegacyRequest(request, parsedBody))
          ? sessions.handle(request, workspace, parsedBody, id)
          : modern.fetch(request, { parsedBody }),
      );
    } catch (error) {
      log.error({ err: error }, "MCP HTTP request failed");
      if (!res.headersSent) await refuse(res, 500, "Internal server error.", id);
      else res.end();
    }
  };

  const httpServer: NodeHttpServer = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log.error({ err: error }, "MCP HTTP request failed");
      if (!res.headersSent) void refuse(res, 500, "Internal server error.", null);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "EADDRINUSE"
          ? new ConfigurationError(`Port ${options.port} on ${host} is already in use.`, {
              hint: "Stop the other server, or choose another port with --port or MARTECH_STEPS_PORT.",
            })
          : error,
      );
    });
    httpServer.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (httpServer.address() as AddressInfo).port;
  const names = ownHostNames(host);
  allowedHosts = allowedHostSet(names, port, options.allowedHosts ?? []);
  allowedOrigins = allowedOriginSet(names, port, options.allowedOrigins ?? []);
  const displayHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${displayHost}:${port}/mcp`,
    port,
    sessionCount: () => sessions.count(),
    async close() {
      await sessions.closeAll();
      for (const { modern, release } of endpoints.values()) {
        release();
        await modern.close().catch(() => undefined);
      }
      endpoints.clear();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}
