import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { timerMs } from "../deadline.js";
import { ConfigurationError, ValidationError } from "../errors.js";
import { log } from "../log.js";
import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS, parseApiKeys, startHttpServer } from "../mcp/http.js";
import { createMcpServer } from "../mcp/server.js";
import { createState } from "../state/index.js";
import { DEFAULT_WORKSPACE, Workspace, type WorkspaceOptions } from "../workspace.js";
import { serveWorkspaceOptions } from "./sandbox-wiring.js";

export interface ServeOptions {
  http?: boolean;
  host?: string;
  port?: string;
  workspace?: string;
  sandbox?: boolean;
}

/** One Workspace per name for the life of the process, all sharing one limits state. */
export function workspaceFactory(base: Omit<WorkspaceOptions, "name">): (name: string) => Workspace {
  const state = base.state ?? createState(base.env ?? process.env);
  const workspaces = new Map<string, Workspace>();
  return (name) => {
    let workspace = workspaces.get(name);
    if (!workspace) {
      workspace = new Workspace({ ...base, state, name });
      workspaces.set(name, workspace);
    }
    return workspace;
  };
}

export function parsePort(raw: string | undefined, fallback: number, flag = "--port"): number {
  if (raw === undefined) return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new ValidationError(flag, `"${raw.slice(0, 20)}" is not a port.`, {
      hint: "Use 0-65535 (0 picks a free one).",
    });
  return port;
}

function positiveSetting(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0)
    throw new ConfigurationError(`${name} must be a positive whole number, not "${raw.slice(0, 20)}".`);
  return name.endsWith("_MS") ? timerMs(value) : value;
}

export function httpOptions(env: NodeJS.ProcessEnv, options: ServeOptions) {
  const split = (raw: string | undefined) =>
    (raw ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  return {
    host: options.host ?? env.MARTECH_STEPS_HOST ?? "127.0.0.1",
    port: parsePort(options.port ?? env.MARTECH_STEPS_PORT, 3333),
    apiKeys: parseApiKeys(env.MARTECH_STEPS_API_KEYS),
    allowedHosts: split(env.MARTECH_STEPS_ALLOWED_HOSTS),
    allowedOrigins: split(env.MARTECH_STEPS_ALLOWED_ORIGINS),
    sessionIdleMs: positiveSetting(env, "MARTECH_STEPS_SESSION_IDLE_MS", DEFAULT_SESSION_IDLE_MS),
    maxSessions: positiveSetting(env, "MARTECH_STEPS_MAX_SESSIONS", DEFAULT_MAX_SESSIONS),
  };
}

/** `martech-steps serve`: stdio by default (logs on stderr only), or Streamable HTTP with --http. */
export async function serve(options: ServeOptions): Promise<void> {
  const workspaces = workspaceFactory(await serveWorkspaceOptions(options));
  if (options.http) {
    const handle = await startHttpServer({ ...httpOptions(process.env, options), workspace: workspaces });
    log.info({ url: handle.url }, "MCP server listening (Streamable HTTP)");
    process.stderr.write(`martech-steps MCP server: ${handle.url}\n`);
    closeOnSignal(async () => handle.close());
    return;
  }
  const workspace = workspaces(options.workspace ?? DEFAULT_WORKSPACE);
  // One instance per connection, pinned to the revision the client opens with (2026-07-28 or 2025).
  serveStdio(() => createMcpServer({ workspace }).server, {
    onerror: (error) => log.debug({ err: error }, "MCP stdio message refused"),
  });
}

export function closeOnSignal(close: () => Promise<void>): void {
  const stop = () => {
    close().finally(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
