import { type CacheHint, McpServer, type ServerContext } from "@modelcontextprotocol/server";
import { servicesPhrase } from "../connections/registry.js";
import { listedSteps } from "../tools/listing.js";
import { PACKAGE } from "../version.js";
import { Workspace } from "../workspace.js";
import { cancelSignIn } from "./elicit-connect.js";
import { internalErrorResult } from "./internal-error.js";
import { ClientLogLevel } from "./logging.js";
import { guardParams } from "./params-guard.js";
import { registerPrompts } from "./prompts.js";
import { RESOURCE_PROVIDERS, type ResourceProvider } from "./resources.js";
import { type ExtraTool, registerTools } from "./tools.js";

/** The call path, loaded at the first tools/call (see createMcpServer). */
let callPathModule: Promise<typeof import("./tool-call.js")> | undefined;

export { type ExtraTool, listTools } from "./tools.js";

export interface McpServerOptions {
  /** The workspace whose credentials the steps use. Default: the "default" workspace, configured from the environment and the credential store. */
  workspace?: Workspace;
  /**
   * Offer clients the Google sign-in link (URL elicitation) when no account is connected. Its redirect
   * lands on this machine's loopback, so only where the user's browser runs here: default true
   * (stdio); the HTTP server sets it only when bound to loopback.
   */
  offerSignIn?: boolean;
  /**
   * Tell this instance's client when the tool list changes (an account connected or removed). Default
   * true, for an instance that lives as long as its connection; the per-request instances of the
   * 2026-07-28 HTTP path leave it to the endpoint's `subscriptions/listen` streams.
   */
  notifyToolListChanged?: boolean;
  /**
   * What a Google sign-in this instance starts belongs to: the sign-in is cancelled when its owner
   * closes. Default the instance itself; an instance that lives for one HTTP request hands it to the
   * endpoint (the user finishes signing in long after the request has been answered).
   */
  signInOwner?: object;
  /** Resources the server offers; default RESOURCE_PROVIDERS. */
  resources?: readonly ResourceProvider[];
  /** Tools served after the registry's steps (a test entry's diagnostic tools); none by default. */
  extraTools?: readonly ExtraTool[];
}

export interface McpServerHandle {
  server: McpServer;
  /** Releases what the instance holds (its accounts listener, a sign-in it started) and closes it. */
  close(): Promise<void>;
}

/**
 * How long 2026-07-28 clients may reuse a list (SEP-2549). The tool list depends on the workspace's
 * connected accounts, so it is private and short; clients that listen are told when it changes anyway.
 * Prompts and resource lists only change with the package version.
 */
const CACHE_HINTS: Partial<
  Record<
    "tools/list" | "prompts/list" | "resources/list" | "resources/templates/list" | "server/discover",
    CacheHint
  >
> = {
  "tools/list": { ttlMs: 60_000, cacheScope: "private" },
  "prompts/list": { ttlMs: 3_600_000, cacheScope: "public" },
  "resources/list": { ttlMs: 3_600_000, cacheScope: "public" },
  "resources/templates/list": { ttlMs: 3_600_000, cacheScope: "public" },
  "server/discover": { ttlMs: 600_000, cacheScope: "public" },
};

/** Tells the instance's client that the tool list changed; nothing when it is not connected. */
export function notifyToolListChanged(server: McpServer): void {
  // McpServer.sendToolListChanged() drops the promise: a send to a closing transport would reject unhandled.
  if (server.isConnected()) server.server.sendToolListChanged().catch(() => undefined);
}

/**
 * Builds the MCP server over the registry for one workspace, for every protocol revision the SDK
 * serves: 2026-07-28 (an instance per request over HTTP, per connection over stdio) and the 2025
 * revisions (an instance per connection or session).
 */
export function createMcpServer(options: McpServerOptions = {}): McpServerHandle {
  const workspace = options.workspace ?? new Workspace();
  const server = new McpServer(
    { name: PACKAGE.name, version: PACKAGE.version, title: `${servicesPhrase("and")} tool steps` },
    {
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: false },
        resources: { listChanged: false },
        logging: {},
      },
      cacheHints: CACHE_HINTS,
    },
  );
  const signInOwner = options.signInOwner ?? server;
  const deps = {
    server,
    workspace,
    offerSignIn: options.offerSignIn ?? true,
    signInOwner,
    logLevel: new ClientLogLevel(server),
  };
  // The call path (the steps, their zod schemas, the connectors' use) loads at the first call: listing
  // the tools needs none of it (stdio cold start is measured by the bench). A step that throws at import
  // fails each call as an unexpected error does, not with its raw message and no log line.
  const callStep = (id: string) => async (args: unknown, ctx: ServerContext) => {
    let callPath: typeof import("./tool-call.js");
    try {
      // Imported once: every import() goes through the module loader again (and its hooks, if any).
      callPathModule ??= import("./tool-call.js");
      callPath = await callPathModule;
    } catch (error) {
      return internalErrorResult(id, error, "the tool call path failed to load");
    }
    return callPath.callToolStep(deps, id, args, ctx);
  };
  const extraTools = options.extraTools ?? [];
  registerTools(server, workspace, callStep, extraTools);
  const prompts = registerPrompts(server);
  for (const provide of options.resources ?? RESOURCE_PROVIDERS) provide(server, { workspace });
  const tools = [...listedSteps().map((step) => step.name), ...extraTools.map((extra) => extra.tool.name)];
  guardParams(server, { tools, prompts });

  const onAccountsChanged = () => notifyToolListChanged(server);
  if (options.notifyToolListChanged ?? true) workspace.on("accountsChanged", onAccountsChanged);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    workspace.off("accountsChanged", onAccountsChanged);
    if (signInOwner === server) cancelSignIn(workspace, server);
  };
  // Whoever ends the connection (client gone, session expired or deleted, server shut down), the
  // instance lets go of the workspace: a listener left behind would keep the whole instance alive.
  const previousOnClose = server.server.onclose;
  server.server.onclose = () => {
    release();
    previousOnClose?.();
  };
  return {
    server,
    async close() {
      release();
      await server.close();
    },
  };
}
