/**
 * TEST ONLY: the MCP HTTP server on the embedded sandboxes with the embedded authorization server on
 * (MARTECH_STEPS_OAUTH=embedded) and the console that approves clients, for the conformance suite's
 * authorization-server scenarios (`conformance authorization`, run by .ci/conformance). Prints two lines on
 * stdout: the /mcp URL, then the console's one-time login link (loopback only, as `serve --http` prints it),
 * which the scripted person (approve.ts) uses to approve the suite's client.
 *
 * Usage: tsx test/mcp/conformance/auth-server.ts [port]
 */
import { startSandboxSession } from "../../../src/cli/sandbox-wiring.js";
import { createConsole } from "../../../src/console/index.js";
import { startHttpServer } from "../../../src/host/http.js";
import { oauthSettings } from "../../../src/settings.js";
import { MemoryState } from "../../../src/state/memory.js";
import { Workspace } from "../../../src/workspace.js";

const port = Number(process.argv[2] ?? 0);
const sandbox = await startSandboxSession();
const workspace = new Workspace({ ...sandbox.workspace, state: new MemoryState() });
const web = createConsole({ workspace: () => workspace, loopback: true, env: {} });
const http = await startHttpServer({
  port,
  workspace: () => workspace,
  routes: web.routes,
  oauth: { ...oauthSettings({ MARTECH_STEPS_OAUTH: "embedded" }), consent: web.consent },
});
process.stdout.write(`${http.url}\n${web.loginUrl(new URL(http.url).origin)}\n`);
const stop = () => {
  web.close();
  void http
    .close()
    .then(() => sandbox.close())
    .finally(() => process.exit(0));
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
