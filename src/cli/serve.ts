import { serveStdio } from "@modelcontextprotocol/server/stdio";
import type { ConsoleHandle } from "../console/index.js";
import { timerMs } from "../deadline.js";
import { ConfigurationError, ValidationError } from "../errors.js";
import type { HttpServerHandle } from "../host/http.js";
import {
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_IDLE_MS,
  isLoopback,
  parseApiKeys,
} from "../host/http-guard.js";
import { log } from "../log.js";
import { createMcpServer } from "../mcp/server.js";
import { checkedStdioTransport } from "../mcp/stdio-guard.js";
import { cookieSecureSetting, oauthSettings, switchSetting } from "../settings.js";
import { createState } from "../state/index.js";
import { listedSteps } from "../tools/listing.js";
import { DEFAULT_WORKSPACE, Workspace, type WorkspaceOptions } from "../workspace.js";
import { sandboxWiring } from "./lazy-sandbox.js";
import { stopWhenNpmParentExits } from "./npm-parent.js";
import { onSignals } from "./signals.js";

export interface ServeOptions {
  http?: boolean;
  host?: string;
  port?: string;
  workspace?: string;
  sandbox?: boolean;
}

/** The workspace of a name, and `close()`: every workspace made and the state they share (Redis). */
export type WorkspaceFactory = ((name: string) => Workspace) & { close(): Promise<void> };

/** One Workspace per name for the life of the process, all sharing one limits state. */
export function workspaceFactory(base: Omit<WorkspaceOptions, "name">): WorkspaceFactory {
  const state = base.state ?? createState(base.env ?? process.env);
  const workspaces = new Map<string, Workspace>();
  const workspaceOf = (name: string) => {
    let workspace = workspaces.get(name);
    if (!workspace) {
      workspace = new Workspace({ ...base, state, name });
      workspaces.set(name, workspace);
    }
    return workspace;
  };
  return Object.assign(workspaceOf, {
    async close() {
      await Promise.allSettled([...workspaces.values()].map((workspace) => workspace.close()));
      await state.close();
    },
  });
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

/** The flag or variable a setting came from, to name in an error: the flag unless only the variable was set. */
function settingName(
  given: string | undefined,
  flag: string,
  env: NodeJS.ProcessEnv,
  variable: string,
): string {
  return given === undefined && env[variable] !== undefined ? variable : flag;
}

export function httpOptions(env: NodeJS.ProcessEnv, options: ServeOptions) {
  const split = (raw: string | undefined) =>
    (raw ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  const portName = settingName(options.port, "--port", env, "MARTECH_STEPS_PORT");
  return {
    host: options.host ?? env.MARTECH_STEPS_HOST ?? "127.0.0.1",
    port: parsePort(options.port ?? env.MARTECH_STEPS_PORT, 3333, portName),
    apiKeys: parseApiKeys(env.MARTECH_STEPS_API_KEYS),
    allowedHosts: split(env.MARTECH_STEPS_ALLOWED_HOSTS),
    allowedOrigins: split(env.MARTECH_STEPS_ALLOWED_ORIGINS),
    sessionIdleMs: positiveSetting(env, "MARTECH_STEPS_SESSION_IDLE_MS", DEFAULT_SESSION_IDLE_MS),
    maxSessions: positiveSetting(env, "MARTECH_STEPS_MAX_SESSIONS", DEFAULT_MAX_SESSIONS),
    requireKey: switchSetting(env, "MARTECH_STEPS_REQUIRE_KEY"),
    oauth: oauthSettings(env),
  };
}

/**
 * Says which setting to change when the HTTP server cannot listen, as the emulators do: a host that
 * is not an address of this machine (EADDRNOTAVAIL), a host name that does not resolve, or a port
 * below 1024 without the privilege (EACCES). A taken port is reported by the server itself.
 */
export function listenError(
  error: unknown,
  env: NodeJS.ProcessEnv,
  options: ServeOptions,
  http: { host: string; port: number },
): unknown {
  const host = settingName(options.host, "--host", env, "MARTECH_STEPS_HOST");
  const port = settingName(options.port, "--port", env, "MARTECH_STEPS_PORT");
  const hint = `Choose it with ${host}: 127.0.0.1 (the default, this machine only), 0.0.0.0 (every interface) or one of this machine's addresses.`;
  switch ((error as NodeJS.ErrnoException | undefined)?.code) {
    case "EADDRNOTAVAIL":
      return new ConfigurationError(
        `The server cannot listen on ${http.host} (${host}): it is not an address of this machine.`,
        { hint, cause: error },
      );
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EAI_NONAME":
      return new ConfigurationError(`The host name ${http.host} (${host}) cannot be resolved.`, {
        hint,
        cause: error,
      });
    case "EACCES":
      return new ConfigurationError(
        `Port ${http.port} on ${http.host} (${port}) needs privileges this process does not have.`,
        { hint: `Choose a port above 1023 with ${port} (0 picks a free one).`, cause: error },
      );
    default:
      return error;
  }
}

/** `martech-steps serve`: stdio by default (logs on stderr only), or Streamable HTTP with --http. */
export async function serve(options: ServeOptions): Promise<void> {
  // Read before serving: without them every request would fail, so the server stops here, saying why.
  listedSteps();
  const workspaces = workspaceFactory(
    options.sandbox ? await (await sandboxWiring()).serveWorkspaceOptions(options) : { env: process.env },
  );
  if (options.http) return serveHttp(options, workspaces);
  const workspace = workspaces(options.workspace ?? DEFAULT_WORKSPACE);
  // One instance per connection, pinned to the revision the client opens with (2026-07-28 or 2025).
  serveStdio(() => createMcpServer({ workspace }).server, {
    transport: checkedStdioTransport(),
    onerror: (error) => log.debug({ err: error }, "MCP stdio message refused"),
  });
}

/**
 * `serve --http`. A setting refused or a port taken stops it with what it opened closed (the shared
 * state's Redis connection kept a failed start alive for ever), so the command exits with its error.
 */
async function serveHttp(options: ServeOptions, workspaces: WorkspaceFactory): Promise<void> {
  let web: ConsoleHandle | undefined;
  let started: { handle: HttpServerHandle; host: string };
  try {
    const http = httpOptions(process.env, options);
    // Loaded here: serving over stdio does not pay for the HTTP server.
    const { startHttpServer } = await import("../host/http.js");
    // The embedded authorization server signs people in through the console's login and consent page.
    web =
      http.oauth.mode === "embedded"
        ? (await import("../console/index.js")).createConsole({
            workspace: workspaces,
            loopback: isLoopback(http.host),
            apiKeys: http.apiKeys,
            env: process.env,
          })
        : undefined;
    const handle = await startHttpServer({
      ...http,
      workspace: workspaces,
      ...(web ? { routes: web.routes, oauth: { ...http.oauth, consent: web.consent } } : {}),
    }).catch((error: unknown) => {
      throw listenError(error, process.env, options, http);
    });
    started = { handle, host: http.host };
  } catch (error) {
    web?.close();
    await workspaces.close();
    throw error;
  }
  const { handle, host } = started;
  const page = web;
  log.info({ url: handle.url }, "MCP server listening (Streamable HTTP)");
  process.stderr.write(`martech-steps MCP server: ${handle.url}\n${alsoAt(handle.urls)}`);
  if (page)
    process.stderr.write(
      `${cookieWarning(process.env, host, page.secureCookie)}Console, where people approve MCP clients (the login link works once): ${page.loginUrl(handle.url)}\n`,
    );
  closeOnSignal(async () => {
    page?.close();
    await handle.close();
  });
}

/**
 * Off loopback, other machines reach the console, most likely through a TLS proxy, and a session cookie
 * without Secure would also be sent over plain HTTP. Unless the operator chose (MARTECH_STEPS_COOKIE_SECURE)
 * or the public URL says https (then it is Secure), the server says so at start ("" otherwise).
 */
export function cookieWarning(env: NodeJS.ProcessEnv, host: string, secure: boolean): string {
  if (isLoopback(host) || secure || cookieSecureSetting(env).chosen) return "";
  return (
    "warning: the console's session cookie is not Secure. If browsers reach this server over HTTPS (a TLS proxy), " +
    "it is Secure only on requests the proxy marks X-Forwarded-Proto: https; " +
    "set MARTECH_STEPS_COOKIE_SECURE=1 (or MARTECH_STEPS_OAUTH_AUDIENCE=https://<public name>/mcp); to serve the " +
    "console over plain HTTP on purpose, set MARTECH_STEPS_COOKIE_SECURE=0.\n"
  );
}

/** The other URLs a server bound to every interface answers to, one line each ("" when there are none). */
export function alsoAt(urls: readonly string[]): string {
  return urls
    .slice(1)
    .map((url) => `  also at ${url}\n`)
    .join("");
}

export function closeOnSignal(close: () => Promise<void>): void {
  let stopping = false;
  const stop = () => {
    // Once: a SIGTERM and npm's shell going away can both arrive.
    if (stopping) return;
    stopping = true;
    close().finally(() => process.exit(0));
  };
  onSignals(["SIGINT", "SIGTERM"], stop);
  stopWhenNpmParentExits(stop);
}
