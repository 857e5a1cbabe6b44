import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type ServerNotification,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { isMartechError, type MartechError } from "../errors.js";
import { log } from "../log.js";
import { toJsonSchema } from "../schemas/json-schema.js";
import { TOOL_STEPS } from "../tools/registry.js";
import { runToolStep } from "../tools/run.js";
import type { SchemaContext } from "../tools/types.js";
import { PACKAGE } from "../version.js";
import { Workspace } from "../workspace.js";
import { cancelSignIn, offerAccountConnection } from "./elicit-connect.js";

export interface McpServerOptions {
  /** The workspace whose credentials the steps use. Default: the "default" workspace, configured from the environment and the credential store. */
  workspace?: Workspace;
  /**
   * Offer clients the Google sign-in link (URL elicitation) when no account is connected. Its redirect
   * lands on this machine's loopback, so only where the user's browser runs here: default true
   * (stdio); the HTTP server sets it only when bound to loopback.
   */
  offerSignIn?: boolean;
}

export interface McpServerHandle {
  server: Server;
  close(): Promise<void>;
}

/** The MCP tool list, derived from the registry with the workspace's current accounts. */
export function listTools(context: SchemaContext): Tool[] {
  return TOOL_STEPS.map((step) => ({
    name: step.id,
    title: step.title,
    description: step.description,
    inputSchema: toJsonSchema(step.input(context), "input") as Tool["inputSchema"],
    outputSchema: toJsonSchema(step.output, "output") as Tool["outputSchema"],
    annotations: { title: step.title, ...step.annotations },
  }));
}

/** An `isError` result a model can act on. The message of a MartechError never holds a secret. */
export function errorResult(error: MartechError): CallToolResult {
  return {
    isError: true,
    content: [{ type: "text", text: error.message }],
    _meta: { "martech-steps/error": error.toJSON() },
  };
}

/**
 * Builds the MCP server over the registry for one workspace. Tool results carry structured content
 * (shaped by the step's output schema, which clients validate) and a short text summary followed by
 * compact JSON for clients that read only text.
 */
export function createMcpServer(options: McpServerOptions = {}): McpServerHandle {
  const workspace = options.workspace ?? new Workspace();
  const offerSignIn = options.offerSignIn ?? true;
  const server = new Server(
    { name: PACKAGE.name, version: PACKAGE.version, title: "Marketo and Google Analytics tool steps" },
    { capabilities: { tools: { listChanged: true }, logging: {} } },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: listTools(await workspace.schemaContext()),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    const progressToken = request.params._meta?.progressToken;
    // MCP requires progress to increase with every notification; a step may report the same count
    // twice (a wait between pages), so an equal or lower value is nudged just above the last one.
    let lastProgress = Number.NEGATIVE_INFINITY;
    try {
      // Inside the try: resolving the context reads the credential store, which can fail too.
      const context = await workspace.toolContext({
        signal: extra.signal,
        progress: (update) => {
          if (progressToken === undefined) return;
          const progress = update.progress > lastProgress ? update.progress : lastProgress + 0.001;
          lastProgress = progress;
          const notification: ServerNotification = {
            method: "notifications/progress",
            params: { progressToken, ...update, progress },
          };
          extra.sendNotification(notification).catch(() => undefined);
        },
      });
      const result = await runToolStep(name, args ?? {}, context);
      return {
        content: [{ type: "text", text: `${result.summary}\n${JSON.stringify(result.data)}` }],
        structuredContent: result.data as Record<string, unknown>,
      };
    } catch (error) {
      if (isMartechError(error)) {
        if (offerSignIn && error.code === "not_configured" && error.details.connection === "google") {
          const offered = await offerAccountConnection(server, workspace, error);
          if (offered) return errorResult(offered);
        }
        return errorResult(error);
      }
      // An unexpected error: its message may carry anything, so the client gets a generic text.
      log.error({ tool: name, err: error }, "tool step failed unexpectedly");
      return {
        isError: true,
        content: [
          { type: "text", text: `${name} failed with an internal error. The server log has the details.` },
        ],
      };
    }
  });

  const onAccountsChanged = () => {
    server.sendToolListChanged().catch(() => undefined);
  };
  workspace.on("accountsChanged", onAccountsChanged);

  return {
    server,
    async close() {
      workspace.off("accountsChanged", onAccountsChanged);
      cancelSignIn(workspace);
      await server.close();
    },
  };
}
