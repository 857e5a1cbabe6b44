import type { LoggingLevel, McpServer, ServerContext } from "@modelcontextprotocol/server";
import { CONNECTION_KINDS, connectionRoom } from "../connections/registry.js";
import type { ToolLogEntry } from "../tools/types.js";

/** MCP log levels, least severe first. */
export const LOG_LEVELS: readonly LoggingLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

/** The logger name clients see on our log notifications. */
const LOGGER = "martech-steps";

/**
 * Log notifications go only to clients that asked for them. On 2025-11-25 connections that is a
 * `logging/setLevel` call (remembered per connection here, because the SDK would otherwise send
 * every level to a client that never set one); on 2026-07-28 requests it is the per-request
 * `io.modelcontextprotocol/logLevel` envelope key, which the SDK's `ctx.mcpReq.log` already
 * honours (absent means no logs).
 */
export class ClientLogLevel {
  #level: LoggingLevel | undefined;

  /** Takes over `logging/setLevel` on this server so the level set is known. */
  constructor(server: McpServer) {
    server.server.setRequestHandler("logging/setLevel", async (request) => {
      this.#level = request.params.level;
      return {};
    });
  }

  /** Sends one entry to the client of this request, when its level asks for it. Never throws. */
  send(ctx: ServerContext, entry: ToolLogEntry): void {
    const modern = ctx.mcpReq.envelope !== undefined;
    if (!modern) {
      if (this.#level === undefined) return;
      if (LOG_LEVELS.indexOf(entry.level) < LOG_LEVELS.indexOf(this.#level)) return;
    }
    ctx.mcpReq.log(entry.level, { message: entry.message, ...entry.data }, LOGGER).catch(() => undefined);
  }
}

/**
 * What a step result carries that is worth a log line: its warnings, then what each connection room reads
 * in it (its `logWarnings`, e.g. a quota running low), in registry order.
 */
export function resultLogEntries(data: unknown): ToolLogEntry[] {
  if (typeof data !== "object" || data === null) return [];
  const entries: ToolLogEntry[] = [];
  const { warnings } = data as { warnings?: unknown };
  if (Array.isArray(warnings)) {
    for (const warning of warnings) {
      if (typeof warning === "string") entries.push({ level: "warning", message: warning });
    }
  }
  for (const kind of CONNECTION_KINDS) entries.push(...(connectionRoom(kind).logWarnings?.(data) ?? []));
  return entries;
}
