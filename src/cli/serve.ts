import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { MemoryCredentialStore } from "../auth/credential-store.js";
import { SCOPE_ANALYTICS_EDIT, SCOPE_ANALYTICS_READONLY } from "../auth/google/config.js";
import { createConsole } from "../console/index.js";
import { ValidationError } from "../errors.js";
import { log } from "../log.js";
import { type HttpServerHandle, isLoopback, parseApiKeys, startHttpServer } from "../mcp/http.js";
import { createMcpServer } from "../mcp/server.js";
import {
  type GoogleSandbox,
  type MarketoSandbox,
  SANDBOX_GOOGLE_USER,
  sandboxEnv,
  startGoogleSandbox,
  startMarketoSandbox,
} from "../sandbox/index.js";
import { createState } from "../state/index.js";
import { DEFAULT_WORKSPACE, Workspace, type WorkspaceOptions } from "../workspace.js";

export interface ServeOptions {
  http?: boolean;
  host?: string;
  port?: string;
  workspace?: string;
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

export function parsePort(raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new ValidationError("--port", `"${raw.slice(0, 20)}" is not a port.`, {
      hint: "Use 0-65535 (0 picks a free one).",
    });
  return port;
}

function httpOptions(env: NodeJS.ProcessEnv, options: ServeOptions) {
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
  };
}

/** `martech-steps serve`: stdio by default (logs on stderr only), or Streamable HTTP with --http. */
export async function serve(options: ServeOptions): Promise<void> {
  const workspaces = workspaceFactory({ env: process.env });
  if (options.http) {
    const handle = await startHttpServer({ ...httpOptions(process.env, options), workspace: workspaces });
    log.info({ url: handle.url }, "MCP server listening (Streamable HTTP)");
    process.stderr.write(`martech-steps MCP server: ${handle.url}\n`);
    closeOnSignal(async () => handle.close());
    return;
  }
  const { server } = createMcpServer({ workspace: workspaces(options.workspace ?? DEFAULT_WORKSPACE) });
  await server.connect(new StdioServerTransport());
}

function closeOnSignal(close: () => Promise<void>): void {
  const stop = () => {
    close().finally(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

/**
 * `npm start`: the MCP HTTP server, wired to the sandbox for every service that is not configured,
 * so a fresh machine works with no account.
 */
export async function start(options: ServeOptions): Promise<HttpServerHandle> {
  const probe = new Workspace({ env: process.env, state: createState({}) });
  const needMarketo = !(await probe.marketoCredentials());
  const needGoogle =
    !(process.env.GOOGLE_OAUTH_CLIENT_ID || (await probe.store.read(DEFAULT_WORKSPACE)).googleClient) &&
    (await probe.accounts.list()).length === 0;
  let marketo: MarketoSandbox | undefined;
  let google: GoogleSandbox | undefined;
  if (needMarketo) marketo = await startMarketoSandbox();
  if (needGoogle) google = await startGoogleSandbox();
  const env = { ...process.env, ...sandboxEnv({ marketo, google }) };
  let store = probe.store;
  if (google) {
    // The sandbox account lives in memory for this session only; the user's store is untouched.
    const memory = new MemoryCredentialStore();
    const existing = await probe.store.read(DEFAULT_WORKSPACE);
    await memory.update(DEFAULT_WORKSPACE, () => ({
      ...existing,
      googleAccounts: {
        sandbox: {
          label: "sandbox",
          email: SANDBOX_GOOGLE_USER,
          scopes: [SCOPE_ANALYTICS_READONLY, SCOPE_ANALYTICS_EDIT],
          addedAt: new Date().toISOString(),
          refreshToken: google.issueRefreshToken(SANDBOX_GOOGLE_USER),
        },
      },
    }));
    store = memory;
  }
  const workspaces = workspaceFactory({ env, store });
  const http = httpOptions(env, options);
  const sandbox = { marketo: Boolean(marketo), google: Boolean(google) };
  const web = createConsole({
    workspace: workspaces,
    loopback: isLoopback(http.host),
    apiKeys: http.apiKeys,
    env,
    sandbox,
  });
  const handle = await startHttpServer({ ...http, workspace: workspaces, routes: web.routes });
  const lines = [
    `Console (open in your browser; the login link works once): ${web.loginUrl(handle.url)}`,
    `martech-steps MCP server (Streamable HTTP): ${handle.url}`,
    `  Marketo: ${marketo ? `sandbox at ${marketo.restEndpoint}` : "configured"}`,
    `  Google Analytics: ${google ? `sandbox at ${google.url} (account "sandbox", ${SANDBOX_GOOGLE_USER})` : "configured"}`,
    "",
    "Connect a client:",
    `  VS Code (.vscode/mcp.json):  {"servers":{"martech-steps":{"type":"http","url":"${handle.url}"}}}`,
    `  Cursor (~/.cursor/mcp.json): {"mcpServers":{"martech-steps":{"url":"${handle.url}"}}}`,
    `  Claude Desktop, stdio on your own configuration: {"mcpServers":{"martech-steps":{"command":"${process.execPath}","args":["${process.argv[1] ?? "dist/cli/main.js"}","serve"]}}}`,
    "  MCP Inspector: npx @modelcontextprotocol/inspector, transport Streamable HTTP, URL above.",
    "Press Ctrl-C to stop.",
  ];
  process.stderr.write(`${lines.join("\n")}\n`);
  const close = async () => {
    web.close();
    await handle.close();
    await marketo?.close();
    await google?.close();
  };
  closeOnSignal(close);
  return { ...handle, close };
}
