/**
 * TEST ONLY: the MCP HTTP server on the embedded sandboxes, plus the diagnostic tools the official
 * conformance suite (@modelcontextprotocol/conformance, scenario server-stateless) calls to exercise
 * behaviours our five steps cannot trigger on demand. .ci/run starts it with `tsx`; the product never
 * serves these tools.
 *
 * Usage: tsx test/mcp/conformance/server.ts [port]   (prints the endpoint URL on stdout)
 */
import { type CallToolResult, inputRequired, type ServerContext } from "@modelcontextprotocol/server";
import { startSandboxSession } from "../../../src/cli/sandbox-wiring.js";
import { startHttpServer } from "../../../src/host/http.js";
import type { ExtraTool } from "../../../src/mcp/server.js";
import { MemoryState } from "../../../src/state/memory.js";
import { Workspace } from "../../../src/workspace.js";

const NO_ARGUMENTS = { type: "object" as const, properties: {} };
const done = (text: string): CallToolResult => ({ content: [{ type: "text", text }] });

/** The suite's diagnostic tools (names and behaviour from its server-stateless scenario). */
export const DIAGNOSTIC_TOOLS: readonly ExtraTool[] = [
  {
    // Needs sampling, which the suite's client does not declare: the SDK must refuse with -32021.
    tool: {
      name: "test_missing_capability",
      description: "Diagnostic: asks for sampling.",
      inputSchema: NO_ARGUMENTS,
    },
    call: async () =>
      inputRequired({
        inputRequests: {
          sample: inputRequired.createMessage({
            messages: [{ role: "user", content: { type: "text", text: "Say hello." } }],
            maxTokens: 16,
          }),
        },
      }),
  },
  {
    // Asks for input in-band: the response stream may carry only the input-required result.
    tool: {
      name: "test_streaming_elicitation",
      description: "Diagnostic: asks a question.",
      inputSchema: NO_ARGUMENTS,
    },
    call: async (_args, ctx: ServerContext) =>
      ctx.mcpReq.inputResponses
        ? done("answered")
        : inputRequired({
            inputRequests: {
              confirm: inputRequired.elicit({
                message: "Continue?",
                requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } },
              }),
            },
          }),
  },
  {
    // Logs: a request without the logLevel envelope key must receive no log notification.
    tool: {
      name: "test_logging_tool",
      description: "Diagnostic: writes a log line.",
      inputSchema: NO_ARGUMENTS,
    },
    call: async (_args, ctx: ServerContext) => {
      await ctx.mcpReq.log("info", { message: "diagnostic log line" }, "martech-steps");
      return done("logged");
    },
  },
  {
    // The tool list changes when accounts change: this signals it the way a connected account does.
    tool: {
      name: "test_trigger_tool_change",
      description: "Diagnostic: signals an account change.",
      inputSchema: NO_ARGUMENTS,
    },
    call: async (_args, _ctx, { workspace }) => {
      workspace.accountsChanged();
      return done("tool list change signalled");
    },
  },
];

const port = Number(process.argv[2] ?? 0);
// The same wiring as `serve --sandbox`: both emulators and an in-memory store connected to them.
const sandbox = await startSandboxSession();
const workspace = new Workspace({ ...sandbox.workspace, state: new MemoryState() });
const http = await startHttpServer({ port, workspace: () => workspace, extraTools: DIAGNOSTIC_TOOLS });
process.stdout.write(`${http.url}\n`);
const stop = () => {
  void http
    .close()
    .then(() => sandbox.close())
    .finally(() => process.exit(0));
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
