/**
 * The HTTP server's routes on hono. /mcp runs its checks in order, each refusal a JSON-RPC error that
 * answers the request's id (read from a small body only: http-body.ts): Host (DNS rebinding), Origin, the
 * API key or OAuth access token (which picks the workspace), all before a byte of the body is read; then the
 * body (4 MB, JSON), the token's scope against what the body asks; then the endpoint. Every other path passes the same Host check before
 * anything is read, then goes to the Protected Resource Metadata (with OAuth), the operations endpoints,
 * then to the other pages (the console), else 404. Until every route is mounted, every path but the
 * operations endpoints answers 503 (startedOnly).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Next } from "hono";
import { workspaceOfApiKey } from "../auth/api-keys.js";
import { log } from "../log.js";
import type { McpEndpoints } from "../mcp/http-endpoints.js";
import { type JsonRpcId, jsonRpcErrorResponse, requestIdOf } from "../mcp/json-rpc.js";
import { answered, type NodeApp, type NodeContext, nodeApp, send } from "../web/node-bridge.js";
import type { EmbeddedServer } from "../web/oauth/embedded.js";
import type { ProtectedResource } from "../web/oauth/resource.js";
import { accessOf, allows } from "../web/oauth/scopes.js";
import { DEFAULT_WORKSPACE } from "../workspace.js";
import {
  BodyAborted,
  BodyTooLarge,
  declaredOver,
  idOfRefused,
  MAX_BODY_BYTES,
  readText,
} from "./http-body.js";

export type PageRoutes = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;

export interface HttpAppDeps {
  /** Host and Origin values accepted (known once the server listens: they carry its port). */
  allowed: { hosts: ReadonlySet<string>; origins: ReadonlySet<string> };
  /** API key → workspace; none = every /mcp request is the default workspace's. */
  apiKeys: ReadonlyMap<string, string>;
  endpoints: McpEndpoints;
  /** /healthz, /readyz, /metrics. */
  ops: PageRoutes;
  /** The other pages (the console); false = not found. */
  routes?: PageRoutes;
  /** With OAuth: /mcp as a protected resource (known once the server listens: its URL carries the port). */
  oauth?: { resource?: ProtectedResource; embedded?: EmbeddedServer };
  /** Whether every route is in place (the OAuth layer included); until then only /healthz, /readyz and /metrics answer. */
  mounted?: () => boolean;
}

interface McpVariables {
  parsedBody: unknown;
  id: JsonRpcId;
  workspace: string;
  /** Whether the body was read (every check before it passed); until then a refusal reads it only if small. */
  bodyRead: boolean;
  /** An OAuth access token's scopes, checked against what the body asks once it is read. */
  scopes: string[];
}

type McpContext = NodeContext<McpVariables>;

/** The credential of Authorization: Bearer, or undefined. */
function bearerOf(req: IncomingMessage): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
}

/** The workspace of a request's API key (Authorization: Bearer), or undefined. */
export function keyWorkspace(apiKeys: ReadonlyMap<string, string>, req: IncomingMessage): string | undefined {
  const bearer = bearerOf(req);
  return bearer ? workspaceOfApiKey(apiKeys, bearer) : undefined;
}

async function refuse(
  c: McpContext,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  let id = c.get("id") ?? null;
  const more: Record<string, string> = {};
  if (!c.get("bodyRead")) {
    const refused = await idOfRefused(c.env.incoming);
    id = refused.id;
    // The rest of an unread body is not drained: the connection ends with the answer.
    if (!refused.whole) more.connection = "close";
  }
  await send(c.env.outgoing, jsonRpcErrorResponse(status, message, id, -32000, { ...headers, ...more }));
  return answered(c);
}

export function httpApp(deps: HttpAppDeps): NodeApp<McpVariables> {
  const app = nodeApp<McpVariables>();
  app.onError(async (error, c) => {
    log.error({ err: error }, "MCP HTTP request failed");
    if (!c.env.outgoing.headersSent) return refuse(c, 500, "Internal server error.");
    c.env.outgoing.end();
    return answered(c);
  });
  app.all(
    "/mcp",
    (c, next) => startedOnly(c, next, deps),
    (c, next) => hostOnly(c, next, deps),
    (c, next) => originOnly(c, next, deps),
    (c, next) => credentialOnly(c, next, deps),
    readBody,
    (c, next) => scopeOnly(c, next, deps),
    async (c) => {
      const { incoming, outgoing } = c.env;
      await deps.endpoints.serve(incoming, outgoing, c.var.parsedBody, c.var.id, c.var.workspace);
      return answered(c);
    },
  );
  for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"])
    app.all(
      path,
      (c, next) => hostOnly(c, next, deps),
      (c, next) => startedOnly(c, next, deps),
      resourceMetadata(deps),
    );
  app.all("*", (c, next) => hostOnly(c, next, deps), otherPages(deps));
  return app;
}

/**
 * A request that comes while the server is starting: 503 with Retry-After, as RFC 9110 section 15.6.4
 * describes a temporary overload. /mcp must never be served before its credential check is in place (an
 * OAuth-protected /mcp without it took every request as the default workspace's), nor the Protected
 * Resource Metadata be missing (a client would conclude there is no authorization server).
 * https://www.rfc-editor.org/rfc/rfc9110#section-15.6.4
 */
async function startedOnly(c: McpContext, next: Next, deps: HttpAppDeps): Promise<Response | undefined> {
  if (deps.mounted && !deps.mounted()) return starting(c);
  await next();
  return undefined;
}

function starting(c: McpContext): Promise<Response> {
  return refuse(c, 503, "Service unavailable: the server is starting. Retry in a second.", {
    "retry-after": "1",
    connection: "close",
  });
}

/** A POST's JSON-RPC body of a request every check passed, read whole (at most 4 MB). */
async function readBody(c: McpContext, next: Next): Promise<Response | undefined> {
  c.set("id", null);
  c.set("bodyRead", true);
  const { incoming } = c.env;
  if (incoming.method === "POST") {
    const tooLarge = () =>
      refuse(c, 413, "Payload too large: the body is over 4 MB.", { connection: "close" });
    if (declaredOver(incoming, MAX_BODY_BYTES)) return tooLarge();
    let text: string;
    try {
      text = await readText(incoming, MAX_BODY_BYTES);
    } catch (error) {
      if (error instanceof BodyAborted) {
        c.env.outgoing.destroy();
        return answered(c);
      }
      if (!(error instanceof BodyTooLarge)) throw error;
      return tooLarge();
    }
    try {
      c.set("parsedBody", JSON.parse(text));
    } catch {
      await send(
        c.env.outgoing,
        jsonRpcErrorResponse(400, "Parse error: the body is not JSON.", null, -32700),
      );
      return answered(c);
    }
  }
  c.set("id", requestIdOf(c.var.parsedBody));
  await next();
  return undefined;
}

/** DNS rebinding: a page that resolves its own name to our address sends its own name as Host. */
async function hostOnly(c: McpContext, next: Next, deps: HttpAppDeps): Promise<Response | undefined> {
  const host = (c.env.incoming.headers.host ?? "").toLowerCase();
  if (!deps.allowed.hosts.has(host))
    return refuse(
      c,
      403,
      `Forbidden: this server does not answer to Host "${host.slice(0, 100)}". ` +
        "It accepts its own addresses and name; add others with MARTECH_STEPS_ALLOWED_HOSTS (comma-separated host:port).",
    );
  await next();
  return undefined;
}

async function originOnly(c: McpContext, next: Next, deps: HttpAppDeps): Promise<Response | undefined> {
  const origin = c.env.incoming.headers.origin;
  if (origin !== undefined && !deps.allowed.origins.has(origin.toLowerCase()))
    return refuse(
      c,
      403,
      `Forbidden: requests from Origin "${origin.slice(0, 100)}" are not accepted. Add trusted web origins ` +
        "with MARTECH_STEPS_ALLOWED_ORIGINS (comma-separated, e.g. https://agent.example.com).",
    );
  await next();
  return undefined;
}

/**
 * A request's workspace: its API key's, else (with OAuth) its access token's; without either configured,
 * the default one. With OAuth, a request without a valid token is refused with the challenge that lets a
 * client find the authorization server (oauth/resource.ts).
 */
async function credentialOnly(c: McpContext, next: Next, deps: HttpAppDeps): Promise<Response | undefined> {
  const resource = deps.oauth?.resource;
  let workspace = DEFAULT_WORKSPACE;
  if (deps.apiKeys.size > 0 || resource) {
    const bearer = bearerOf(c.env.incoming);
    const keyed = bearer ? workspaceOfApiKey(deps.apiKeys, bearer) : undefined;
    if (keyed) workspace = keyed;
    else if (!resource)
      return refuse(c, 401, "Unauthorized: send Authorization: Bearer <API key of your workspace>.", {
        "www-authenticate": 'Bearer realm="martech-steps"',
      });
    else {
      // Before the body is read: any scope of /mcp will do here; scopeOnly checks what the body asks.
      const decision = bearer ? await resource.authorize(bearer, "read") : resource.missing();
      if (!decision.ok)
        return refuse(
          c,
          decision.status,
          decision.message,
          decision.challenge ? { "www-authenticate": decision.challenge } : {},
        );
      workspace = decision.workspace;
      c.set("scopes", decision.scopes);
    }
  }
  c.set("workspace", workspace);
  await next();
  return undefined;
}

/** An OAuth access token's scopes against what the request asks (a tool that writes needs steps:write). */
async function scopeOnly(c: McpContext, next: Next, deps: HttpAppDeps): Promise<Response | undefined> {
  const resource = deps.oauth?.resource;
  const scopes = c.get("scopes");
  const access = accessOf(c.var.parsedBody);
  if (resource && scopes && !allows(scopes, access)) {
    const decision = resource.insufficient(access);
    if (!decision.ok)
      return refuse(
        c,
        decision.status,
        decision.message,
        decision.challenge ? { "www-authenticate": decision.challenge } : {},
      );
  }
  await next();
  return undefined;
}

/**
 * The Protected Resource Metadata (RFC 9728 section 3), at the path-suffixed address of /mcp and at the
 * root (clients try the first, then the second: MCP authorization, "Protected Resource Metadata Discovery
 * Requirements"). A public document: any origin may read it (a browser-based client discovers from its page).
 */
function resourceMetadata(deps: HttpAppDeps) {
  return async (c: McpContext): Promise<Response> => {
    const resource = deps.oauth?.resource;
    if (!resource) return otherPages(deps)(c);
    const method = c.env.incoming.method ?? "GET";
    const cors = { "access-control-allow-origin": "*", "access-control-allow-methods": "GET, OPTIONS" };
    const response =
      method === "OPTIONS"
        ? new Response(null, { status: 204, headers: cors })
        : method === "GET" || method === "HEAD"
          ? Response.json(resource.metadata(), { headers: { ...cors, "cache-control": "max-age=3600" } })
          : new Response(null, { status: 405, headers: { ...cors, allow: "GET, OPTIONS" } });
    await send(c.env.outgoing, response);
    return answered(c);
  };
}

/** Every path but /mcp: the embedded authorization server (/oauth), the operations endpoints, then the other pages, else 404. */
function otherPages(deps: HttpAppDeps) {
  return async (c: McpContext): Promise<Response> => {
    const { incoming, outgoing, url } = c.env;
    // While starting, the operations endpoints only: /readyz then says not ready.
    if (deps.mounted && !deps.mounted()) {
      if (await deps.ops(incoming, outgoing, url)) return answered(c);
      return starting(c);
    }
    if (await deps.oauth?.embedded?.handle(incoming, outgoing, url)) return answered(c);
    if (await deps.ops(incoming, outgoing, url)) return answered(c);
    if (deps.routes) {
      if (await deps.routes(incoming, outgoing, url)) return answered(c);
      return refuse(c, 404, "Not found: the MCP endpoint is /mcp.");
    }
    // The MCP-only server (serve --http): a person who opens it in a browser is told where the console is
    // (s7 newcomer review, finding 6: the raw 404 did not say).
    return refuse(
      c,
      404,
      'Not found: the MCP endpoint is /mcp. This server has no browser console: "martech-steps start" serves one.',
    );
  };
}
