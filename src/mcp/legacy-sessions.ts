import { randomUUID } from "node:crypto";
import { isInitializeRequest, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { log } from "../log.js";
import { type JsonRpcId, jsonRpcErrorResponse } from "./json-rpc.js";
import { type McpServerHandle, notifyToolListChanged } from "./server.js";

export interface LegacySessionOptions {
  /** A session with nothing open and no request for this long is closed. */
  idleMs: number;
  /** Open sessions per workspace; at the limit the least recently used idle one is closed. */
  maxPerWorkspace: number;
  /** Builds the server of a new session of a workspace. */
  create(workspace: string): McpServerHandle;
  now?: () => number;
}

interface Session {
  id: string;
  workspace: string;
  transport: WebStandardStreamableHTTPServerTransport;
  handle: McpServerHandle;
  lastActive: number;
  /** Requests and streams (POST responses, the GET stream) still open. */
  open: number;
}

/**
 * Sessions of 2025-era clients (revisions up to 2025-11-25 open with `initialize` and keep a session
 * id). Each holds an MCP server instance and its listeners, so none may outlive its use: a session
 * ends on DELETE, on idle expiry, when its workspace has too many, and on shutdown, and ending it
 * closes its transport, which releases its server (see createMcpServer).
 */
export class LegacySessions {
  readonly #o: LegacySessionOptions;
  readonly #now: () => number;
  readonly #sessions = new Map<string, Session>();
  readonly #sweeper: NodeJS.Timeout;

  constructor(options: LegacySessionOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
    this.#sweeper = setInterval(() => this.sweep(), Math.min(options.idleMs, 60_000));
    this.#sweeper.unref();
  }

  /** Open sessions (all workspaces, or one). */
  count(workspace?: string): number {
    if (workspace === undefined) return this.#sessions.size;
    let n = 0;
    for (const session of this.#sessions.values()) if (session.workspace === workspace) n += 1;
    return n;
  }

  async handle(request: Request, workspace: string, parsedBody: unknown, id: JsonRpcId): Promise<Response> {
    const sessionId = request.headers.get("mcp-session-id");
    if (sessionId !== null) {
      const session = this.#sessions.get(sessionId);
      // Another workspace's session id is answered exactly like an unknown one.
      if (!session || session.workspace !== workspace) {
        return jsonRpcErrorResponse(
          404,
          "Session not found: it ended (closed, expired or replaced). Initialize a new session.",
          id,
          -32001,
        );
      }
      return this.#serve(session, request, parsedBody);
    }
    if (request.method === "POST" && isInitializeRequest(parsedBody)) {
      const refused = this.#makeRoom(workspace, id);
      if (refused) return refused;
      return this.#open(workspace, request, parsedBody);
    }
    return jsonRpcErrorResponse(
      400,
      "Bad request: no session. Send initialize first (2025-11-25), or the 2026-07-28 per-request _meta.",
      id,
    );
  }

  /** Tells the clients of a workspace's sessions that its tool list changed. */
  toolListChanged(workspace: string): void {
    for (const session of this.#sessions.values()) {
      if (session.workspace === workspace) notifyToolListChanged(session.handle.server);
    }
  }

  /** Closes sessions idle for longer than the idle time. */
  sweep(): void {
    const cutoff = this.#now() - this.#o.idleMs;
    for (const session of this.#sessions.values()) {
      if (session.open === 0 && session.lastActive < cutoff) this.#end(session, "idle");
    }
  }

  async closeAll(): Promise<void> {
    clearInterval(this.#sweeper);
    await Promise.all([...this.#sessions.values()].map((session) => this.#end(session, "shutdown")));
  }

  #makeRoom(workspace: string, id: JsonRpcId): Response | undefined {
    const own = [...this.#sessions.values()].filter((s) => s.workspace === workspace);
    if (own.length < this.#o.maxPerWorkspace) return undefined;
    const idle = own.filter((s) => s.open === 0).sort((a, b) => a.lastActive - b.lastActive)[0];
    if (idle) {
      void this.#end(idle, "limit");
      return undefined;
    }
    return jsonRpcErrorResponse(
      429,
      `Too many open MCP sessions for this workspace (${this.#o.maxPerWorkspace}, all busy). ` +
        "Close unused sessions (HTTP DELETE /mcp), or raise MARTECH_STEPS_MAX_SESSIONS.",
      id,
    );
  }

  async #open(workspace: string, request: Request, parsedBody: unknown): Promise<Response> {
    const handle = this.#o.create(workspace);
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.#sessions.set(id, { id, workspace, transport, handle, lastActive: this.#now(), open: 0 });
      },
    });
    // Set before connecting: the server chains its own close handling after this one.
    transport.onclose = () => {
      const id = transport.sessionId;
      if (id !== undefined && this.#sessions.get(id)?.transport === transport) this.#sessions.delete(id);
    };
    await handle.server.connect(transport);
    const response = await transport.handleRequest(request, { parsedBody });
    // An initialize the transport refused opened no session: release its server now.
    if (transport.sessionId === undefined || !this.#sessions.has(transport.sessionId)) {
      await handle.close().catch(() => undefined);
    }
    return response;
  }

  async #serve(session: Session, request: Request, parsedBody: unknown): Promise<Response> {
    session.open += 1;
    session.lastActive = this.#now();
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      session.open -= 1;
      session.lastActive = this.#now();
    };
    // A client that goes away ends its streams even between two chunks (an SSE stream may be silent).
    request.signal.addEventListener("abort", done, { once: true });
    try {
      const response = await session.transport.handleRequest(request, { parsedBody });
      return whenBodyEnds(response, done);
    } catch (error) {
      done();
      throw error;
    }
  }

  async #end(session: Session, why: "idle" | "limit" | "shutdown"): Promise<void> {
    if (this.#sessions.get(session.id) !== session) return;
    this.#sessions.delete(session.id);
    if (why !== "shutdown") log.debug({ workspace: session.workspace, why }, "MCP session closed");
    await session.handle.close().catch(() => undefined);
  }
}

/** The same response, calling `done` once its body has been read to the end or abandoned. */
function whenBodyEnds(response: Response, done: () => void): Response {
  const body = response.body;
  if (body === null) {
    done();
    return response;
  }
  const reader = body.getReader();
  const wrapped = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: finished, value } = await reader.read();
        if (finished) {
          controller.close();
          done();
        } else controller.enqueue(value);
      } catch (error) {
        done();
        controller.error(error);
      }
    },
    cancel(reason) {
      done();
      return reader.cancel(reason);
    },
  });
  return new Response(wrapped, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
