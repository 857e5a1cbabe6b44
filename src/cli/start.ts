import { MemoryCredentialStore } from "../auth/credential-store.js";
import { SCOPE_ANALYTICS_EDIT, SCOPE_ANALYTICS_READONLY } from "../auth/google/config.js";
import { type HttpServerHandle, startHttpServer } from "../mcp/http.js";
import {
  type GoogleSandbox,
  type MarketoSandbox,
  SANDBOX_GOOGLE_USER,
  sandboxEnv,
  startGoogleSandbox,
  startMarketoSandbox,
} from "../sandbox/index.js";
import { createState } from "../state/index.js";
import { DEFAULT_WORKSPACE, Workspace } from "../workspace.js";
import { closeOnSignal, httpOptions, type ServeOptions, workspaceFactory } from "./serve.js";

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
  const handle = await startHttpServer({ ...httpOptions(env, options), workspace: workspaces });
  const lines = [
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
    await handle.close();
    await marketo?.close();
    await google?.close();
  };
  closeOnSignal(close);
  return { ...handle, close };
}
