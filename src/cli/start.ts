import { type CredentialStore, MemoryCredentialStore } from "../auth/credential-store.js";
import { googleClientFrom, googleEndpointsFromEnv } from "../auth/google/config.js";
import { serviceOf } from "../auth/google/service.js";
import { SessionAccountsStore } from "../auth/session-accounts-store.js";
import { type ConsoleHandle, createConsole } from "../console/index.js";
import { type HttpServerHandle, isLoopback, startHttpServer } from "../mcp/http.js";
import { SANDBOX_GOOGLE_USER } from "../sandbox/index.js";
import { createState } from "../state/index.js";
import { DEFAULT_WORKSPACE, Workspace } from "../workspace.js";
import { connectSandbox, type Emulators, SANDBOX_ACCOUNT, startEmulators } from "./sandbox-wiring.js";
import { closeOnSignal, httpOptions, listenError, type ServeOptions, workspaceFactory } from "./serve.js";

/**
 * Google counts as configured only by what can reach the real Google: an OAuth client (environment or
 * store), or an account imported with its own client (a gcloud authorized_user file). A stored account
 * without a client, such as a sandbox account imported while the sandbox's variables were exported,
 * cannot refresh against Google and must not stop the sandbox from being used.
 */
async function googleConfigured(probe: Workspace, env: NodeJS.ProcessEnv): Promise<boolean> {
  const secrets = await probe.store.read(DEFAULT_WORKSPACE);
  if (googleClientFrom(env, secrets)) return true;
  return Object.values(secrets.googleAccounts).some((account) => account.client);
}

/** How to connect the usual clients, one JSON snippet per line (each as its client's file wants it). */
function clientLines(url: string, emulators: Emulators): string[] {
  const onSandbox = Boolean(emulators.marketo && emulators.google);
  const stdio = {
    command: process.execPath,
    args: [process.argv[1] ?? "dist/cli/main.js", "serve", ...(onSandbox ? ["--sandbox"] : [])],
  };
  const json = (value: unknown) => JSON.stringify(value);
  return [
    `  VS Code (.vscode/mcp.json): ${json({ servers: { "martech-steps": { type: "http", url } } })}`,
    `  Cursor (~/.cursor/mcp.json): ${json({ mcpServers: { "martech-steps": { url } } })}`,
    `  Claude Desktop (claude_desktop_config.json, stdio ${onSandbox ? "on the sandbox" : "on your configuration"}): ${json({ mcpServers: { "martech-steps": stdio } })}`,
    `  MCP Inspector (npx @modelcontextprotocol/inspector --config inspector.json): ${json({ mcpServers: { "martech-steps": { type: "streamable-http", url } } })}`,
  ];
}

/**
 * `npm start`: the MCP HTTP server, wired to the sandbox for every service that is not configured,
 * so a fresh machine works with no account. When the server cannot start (its port is taken),
 * everything started so far is closed, so the command exits at once with the error.
 */
export async function start(options: ServeOptions): Promise<HttpServerHandle> {
  const probe = new Workspace({ env: process.env, state: createState({}) });
  const needMarketo = !(await probe.marketoCredentials());
  const needGoogle = !(await googleConfigured(probe, process.env));
  const emulators = await startEmulators({ marketo: needMarketo, google: needGoogle });
  const env = { ...process.env, ...emulators.env };
  const state = createState(env);
  let store: CredentialStore = probe.store;
  let handle: HttpServerHandle;
  let web: ConsoleHandle;
  try {
    if (emulators.google) {
      // The user's store, read and written as always (console saves, every workspace), with the
      // sandbox's Google account held in this process only: it never reaches the user's file.
      const sandbox = new MemoryCredentialStore();
      await connectSandbox(sandbox, DEFAULT_WORKSPACE, { ...emulators, marketo: undefined }, env);
      store = new SessionAccountsStore({
        base: probe.store,
        service: serviceOf(googleEndpointsFromEnv(env)),
        held: { [DEFAULT_WORKSPACE]: (await sandbox.read(DEFAULT_WORKSPACE)).googleAccounts },
      });
    }
    const workspaces = workspaceFactory({ env, store, state });
    const http = httpOptions(env, options);
    const sandbox = { marketo: Boolean(emulators.marketo), google: Boolean(emulators.google) };
    web = createConsole({
      workspace: workspaces,
      loopback: isLoopback(http.host),
      apiKeys: http.apiKeys,
      env,
      sandbox,
    });
    handle = await startHttpServer({ ...http, workspace: workspaces, routes: web.routes }).catch(
      (error: unknown) => {
        throw listenError(error, process.env, options, http);
      },
    );
  } catch (error) {
    await Promise.allSettled([emulators.close(), state.close(), probe.store.close?.()]);
    throw error;
  }
  const { marketo, google } = emulators;
  const lines = [
    `Console (open in your browser; the login link works once): ${web.loginUrl(handle.url)}`,
    `martech-steps MCP server (Streamable HTTP): ${handle.url}`,
    `  Marketo: ${marketo ? `sandbox at ${marketo.restEndpoint}` : "configured"}`,
    `  Google Analytics: ${google ? `sandbox at ${google.url} (account "${SANDBOX_ACCOUNT}", ${SANDBOX_GOOGLE_USER}, held by this server only, never saved)` : "configured"}`,
    "",
    "Connect a client:",
    ...clientLines(handle.url, emulators),
    "Press Ctrl-C to stop.",
  ];
  process.stderr.write(`${lines.join("\n")}\n`);
  const close = async () => {
    web.close();
    await handle.close();
    await emulators.close();
  };
  closeOnSignal(close);
  return { ...handle, close };
}
