/**
 * The HTTP server's routes on hono. /mcp runs its checks in order, each refusal a JSON-RPC error that
 * answers the request's id: the body (4 MB, JSON), Host (DNS rebinding), Origin, the API key (which picks
 * the workspace); then the endpoint. Every other path passes the same Host check before anything is read,
 * then goes to the operations endpoints, then to the other pages (the console), else 404.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Next } from "hono";
import { workspaceOfApiKey } from "../auth/api-keys.js";
import { log } from "../log.js";
import { DEFAULT_WORKSPACE } from "../workspace.js";
import type { McpEndpoints } from "./http-endpoints.js";
import { type JsonRpcId, jsonRpcErrorResponse, requestIdOf } from "./http-guard.js";
import { answered, type NodeApp, type NodeContext, nodeApp, send } from "./node-bridge.js";

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
}

interface McpVariables {
  parsedBody: unknown;
  id: JsonRpcId;
  workspace: string;
}

type McpContext = NodeContext<McpVariables>;

const MAX_BODY_BYTES = 4 * 1024 * 1024;

class BodyTooLarge extends Error {}

/** The workspace of a request's API key (Authorization: Bearer), or undefined. */
export function keyWorkspace(apiKeys: ReadonlyMap<string, string>, req: IncomingMessage): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "");
  return match ? workspaceOfApiKey(apiKeys, match[1] as string) : undefined;
}

async function refuse(
  c: McpContext,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  await send(c.env.outgoing, jsonRpcErrorResponse(status, message, c.get("id") ?? null, -32000, headers));
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
    readBody,
    (c, next) => hostOnly(c, next, deps),
    (c, next) => originOnly(c, next, deps),
    (c, next) => apiKeyOnly(c, next, deps),
    async (c) => {
      const { incoming, outgoing } = c.env;
      await deps.endpoints.serve(incoming, outgoing, c.var.parsedBody, c.var.id, c.var.workspace);
      return answered(c);
    },
  );
  app.all("*", (c, next) => hostOnly(c, next, deps), otherPages(deps));
  return app;
}

/** A POST's JSON-RPC body, read whole (at most 4 MB) so that every refusal can answer its id. */
async function readBody(c: McpContext, next: Next): Promise<Response | undefined> {
  c.set("id", null);
  if (c.env.incoming.method === "POST") {
    let text: string;
    try {
      text = await readText(c.env.incoming);
    } catch (error) {
      if (!(error instanceof BodyTooLarge)) throw error;
      return refuse(c, 413, "Payload too large: the body is over 4 MB.", { connection: "close" });
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

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
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

/** With API keys, a request needs one, and its key picks its workspace; without, it is the default one. */
async function apiKeyOnly(c: McpContext, next: Next, deps: HttpAppDeps): Promise<Response | undefined> {
  let workspace = DEFAULT_WORKSPACE;
  if (deps.apiKeys.size > 0) {
    const found = keyWorkspace(deps.apiKeys, c.env.incoming);
    if (!found)
      return refuse(c, 401, "Unauthorized: send Authorization: Bearer <API key of your workspace>.", {
        "www-authenticate": 'Bearer realm="martech-steps"',
      });
    workspace = found;
  }
  c.set("workspace", workspace);
  await next();
  return undefined;
}

/** Every path but /mcp: the operations endpoints, then the other pages, else 404. */
function otherPages(deps: HttpAppDeps) {
  return async (c: McpContext): Promise<Response> => {
    const { incoming, outgoing, url } = c.env;
    if (await deps.ops(incoming, outgoing, url)) return answered(c);
    if (await deps.routes?.(incoming, outgoing, url)) return answered(c);
    return refuse(c, 404, "Not found: the MCP endpoint is /mcp.");
  };
}
