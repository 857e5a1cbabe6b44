/**
 * The MCP endpoint's two eras behind /mcp, per workspace: 2026-07-28 requests (per-request `_meta`, no
 * session) go to the SDK's per-request handler, one per workspace; 2025-era requests (initialize, then a
 * session id) go to the sessions kept here. The HTTP checks ran before (http-app.ts).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { toWebRequest } from "@modelcontextprotocol/node";
import { createMcpHandler, isLegacyRequest, type McpHttpHandler } from "@modelcontextprotocol/server";
import { log } from "../log.js";
import type { Workspace } from "../workspace.js";
import { cancelSignIn } from "./elicit-connect.js";
import type { JsonRpcId } from "./json-rpc.js";
import { LegacySessions } from "./legacy-sessions.js";
import { createMcpServer, type ExtraTool } from "./server.js";

export interface McpEndpointsOptions {
  workspace: (name: string) => Workspace;
  /** Loopback only: a tool call may offer a Google sign-in in the user's browser. */
  offerSignIn: boolean;
  extraTools: readonly ExtraTool[];
  sessionIdleMs: number;
  maxSessions: number;
}

interface Endpoint {
  modern: McpHttpHandler;
  release: () => void;
}

export class McpEndpoints {
  readonly #options: McpEndpointsOptions;
  readonly #sessions: LegacySessions;
  readonly #endpoints = new Map<string, Endpoint>();

  constructor(options: McpEndpointsOptions) {
    this.#options = options;
    const { workspace, offerSignIn, extraTools } = options;
    this.#sessions = new LegacySessions({
      idleMs: options.sessionIdleMs,
      maxPerWorkspace: options.maxSessions,
      create: (name) =>
        createMcpServer({
          workspace: workspace(name),
          offerSignIn,
          extraTools,
          notifyToolListChanged: false,
        }),
    });
  }

  /** Serves one MCP request of a workspace, in the era it speaks. */
  async serve(
    req: IncomingMessage,
    res: ServerResponse,
    parsedBody: unknown,
    id: JsonRpcId,
    workspace: string,
  ): Promise<void> {
    const { modern } = this.#endpoint(workspace);
    await respond(req, res, parsedBody, async (request) =>
      (await isLegacyRequest(request, parsedBody))
        ? this.#sessions.handle(request, workspace, parsedBody, id)
        : modern.fetch(request, { parsedBody }),
    );
  }

  /** Open 2025-era sessions (2026-07-28 clients hold none). */
  sessionCount(): number {
    return this.#sessions.count();
  }

  async close(): Promise<void> {
    await this.#sessions.closeAll();
    for (const { modern, release } of this.#endpoints.values()) {
      release();
      await modern.close().catch(() => undefined);
    }
    this.#endpoints.clear();
  }

  /** A workspace's 2026-07-28 handler, and the one accounts listener that serves both eras. */
  #endpoint(name: string): Endpoint {
    const existing = this.#endpoints.get(name);
    if (existing) return existing;
    const { offerSignIn, extraTools } = this.#options;
    const workspace = this.#options.workspace(name);
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
      this.#sessions.toolListChanged(name);
    };
    workspace.on("accountsChanged", onAccountsChanged);
    const created = {
      modern,
      release: () => {
        workspace.off("accountsChanged", onAccountsChanged);
        cancelSignIn(workspace, signInOwner);
      },
    };
    this.#endpoints.set(name, created);
    return created;
  }
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
