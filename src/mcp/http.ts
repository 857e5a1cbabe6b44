import { randomUUID } from "node:crypto";
import {
  createServer,
  type IncomingMessage,
  type Server as NodeHttpServer,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { workspaceOfApiKey } from "../auth/api-keys.js";
import { ConfigurationError } from "../errors.js";
import { log } from "../log.js";
import { DEFAULT_WORKSPACE, type Workspace } from "../workspace.js";
import { createMcpServer, type McpServerHandle } from "./server.js";

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
  /** Other pages of this server (the browser console): called after the Host check for every path but /mcp; false = not found. */
  routes?: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;
}

export interface HttpServerHandle {
  url: string;
  port: number;
  close(): Promise<void>;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Parses MARTECH_STEPS_API_KEYS ("workspace:key,other:key2") into key → workspace. */
export function parseApiKeys(raw: string | undefined): Map<string, string> {
  const keys = new Map<string, string>();
  for (const entry of (raw ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const colon = entry.indexOf(":");
    const workspace = colon > 0 ? entry.slice(0, colon) : DEFAULT_WORKSPACE;
    const key = colon > 0 ? entry.slice(colon + 1) : entry;
    if (key.length < 24) {
      throw new ConfigurationError(`An API key for workspace "${workspace}" is shorter than 24 characters.`, {
        hint: "Use long random keys, e.g. `openssl rand -hex 24`.",
      });
    }
    keys.set(key, workspace);
  }
  return keys;
}

function reject(res: ServerResponse, status: number, message: string): void {
  res
    .writeHead(status, { "content-type": "application/json" })
    .end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

async function readJson(req: IncomingMessage, limit = 4 * 1024 * 1024): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new Error("body too large");
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

interface Session {
  transport: StreamableHTTPServerTransport;
  handle: McpServerHandle;
  workspace: string;
}

/**
 * Serves MCP over Streamable HTTP at /mcp. Security (DESIGN.md): binds to 127.0.0.1 by default;
 * validates Host (the SDK's own check) AND Origin (which MCP SDK 1.32 does not check by default) to
 * stop DNS rebinding; requires a per-workspace API key when bound elsewhere; a session belongs to
 * the workspace that opened it.
 */
export async function startHttpServer(options: HttpServerOptions): Promise<HttpServerHandle> {
  const host = options.host ?? "127.0.0.1";
  const apiKeys = options.apiKeys ?? new Map<string, string>();
  if (!isLoopback(host) && apiKeys.size === 0) {
    throw new ConfigurationError(`Refusing to serve MCP on ${host} without API keys.`, {
      hint: "Set MARTECH_STEPS_API_KEYS=workspace:key (keys of 24+ characters), or bind to 127.0.0.1.",
    });
  }
  const sessions = new Map<string, Session>();
  let allowedHosts = new Set<string>();
  let allowedOrigins = new Set<string>();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (!allowedHosts.has((req.headers.host ?? "").toLowerCase())) {
      return reject(res, 403, "Forbidden: unexpected Host header.");
    }
    if (url.pathname !== "/mcp") {
      if (await options.routes?.(req, res, url)) return;
      return reject(res, 404, "Not found: the MCP endpoint is /mcp.");
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin.toLowerCase())) {
      return reject(res, 403, "Forbidden: unexpected Origin.");
    }
    let workspace = DEFAULT_WORKSPACE;
    if (apiKeys.size > 0) {
      const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "");
      const found = match ? workspaceOfApiKey(apiKeys, match[1]!) : undefined;
      if (!found) {
        res.setHeader("www-authenticate", 'Bearer realm="martech-steps"');
        return reject(res, 401, "Unauthorized: send Authorization: Bearer <API key of your workspace>.");
      }
      workspace = found;
    }

    const sessionId = req.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const session = sessions.get(sessionId);
      // Another workspace's session id is answered exactly like an unknown one.
      if (!session || session.workspace !== workspace) return reject(res, 404, "Session not found.");
      return session.transport.handleRequest(req, res);
    }
    if (req.method !== "POST")
      return reject(res, 400, "Bad request: no session; initialize first with POST.");
    let body: unknown;
    try {
      body = await readJson(req);
    } catch {
      return reject(res, 400, "Bad request: the body is not JSON (or is larger than 4 MB).");
    }
    if (!isInitializeRequest(body)) return reject(res, 400, "Bad request: no session; initialize first.");
    const server = createMcpServer({
      workspace: options.workspace(workspace),
      offerSignIn: isLoopback(host),
    });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, handle: server, workspace });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const httpServer: NodeHttpServer = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log.error({ err: error }, "MCP HTTP request failed");
      if (!res.headersSent) reject(res, 500, "Internal server error.");
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
  const hostNames = isLoopback(host)
    ? ["127.0.0.1", "localhost", "[::1]"]
    : [host.includes(":") ? `[${host}]` : host];
  allowedHosts = new Set([
    ...hostNames.map((h) => `${h}:${port}`),
    ...(options.allowedHosts ?? []).map((h) => h.toLowerCase()),
  ]);
  allowedOrigins = new Set([
    ...hostNames.flatMap((h) => [`http://${h}:${port}`, `https://${h}:${port}`]),
    ...(options.allowedOrigins ?? []).map((o) => o.toLowerCase()),
  ]);
  const displayHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${displayHost}:${port}/mcp`,
    port,
    async close() {
      for (const session of sessions.values()) await session.handle.close().catch(() => undefined);
      sessions.clear();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}
