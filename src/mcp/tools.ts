import type {
  CallToolResult,
  InputRequiredResult,
  McpServer,
  ServerContext,
  StandardSchemaWithJSON,
  Tool,
} from "@modelcontextprotocol/server";
import type { JsonSchema } from "../schemas/json-schema.js";
import { type ListedStep, listedInputSchema, listedSteps } from "../tools/listing.js";
import type { SchemaContext } from "../tools/types.js";
import type { Workspace } from "../workspace.js";
import { leanInputSchema, leanOutputSchema } from "./lean-schema.js";
import { appToolMeta } from "./report-chart-app.js";

/**
 * A tool beyond the registry's steps, served next to them. The steps are the product; this is how a
 * test entry adds the conformance suite's diagnostic tools without them ever being in the product.
 */
export interface ExtraTool {
  tool: Tool;
  call(
    args: unknown,
    ctx: ServerContext,
    scope: { workspace: Workspace },
  ): Promise<CallToolResult | InputRequiredResult>;
}

/** Lists already built, by account labels (the account field's labels are put into each GA step's schema). */
const listed = new Map<string, readonly Tool[]>();
const LISTS_KEPT = 32;

/**
 * The MCP tool list, derived from the registry (in its order) with the workspace's current accounts. Its
 * JSON Schemas were made from the steps' zod schemas at build time (tool-schemas/, read by
 * src/tools/listing.ts): listing loads no step.
 */
export function listTools(context: SchemaContext): readonly Tool[] {
  const key = JSON.stringify(context.accounts);
  let tools = listed.get(key);
  if (!tools) {
    tools = listedSteps().map((step) => ({
      ...step,
      // Served lean (src/mcp/lean-schema.ts): the model reads this list on every conversation.
      inputSchema: leanInputSchema(listedInputSchema(step, context)) as Tool["inputSchema"],
      outputSchema: leanOutputSchema(step.outputSchema) as Tool["outputSchema"],
      // Run Reports names its chart view (an MCP App); hosts that do not render apps ignore `_meta`.
      ...appToolMeta(step.name),
      // annotations.title repeats the tool's title (the spec lets title stand for both).
      annotations: withoutTitle(step.annotations),
    }));
    if (listed.size >= LISTS_KEPT) listed.delete(listed.keys().next().value as string);
    listed.set(key, tools);
  }
  return tools;
}

function withoutTitle({ title: _title, ...rest }: ListedStep["annotations"]): Tool["annotations"] {
  return rest;
}

/**
 * A JSON Schema handed to the SDK as it is. The SDK reads it for `x-mcp-header` checks (SEP-2243) and
 * would validate arguments with it; validation is left to `runToolStep`, whose errors name the field
 * and what is accepted, so here every value passes through untouched.
 */
function jsonSchemaOf(schema: () => JsonSchema): StandardSchemaWithJSON<unknown> {
  return {
    "~standard": {
      version: 1,
      vendor: "martech-steps",
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: schema, output: schema },
    },
  };
}

type Call = (args: unknown, ctx: ServerContext) => Promise<CallToolResult | InputRequiredResult>;

/**
 * Registers the tools on one server instance: the steps, then the extra tools. `tools/list` is
 * answered here rather than by the SDK so that the account enum is read at every listing; the SDK's
 * registry still dispatches calls (an unknown name is JSON-RPC error -32602) and checks `Mcp-Param-*`
 * headers against the schemas (whose x-mcp-header fields do not depend on the accounts).
 */
export function registerTools(
  server: McpServer,
  workspace: Workspace,
  callStep: (stepId: string) => Call,
  extraTools: readonly ExtraTool[],
): void {
  let context: SchemaContext = { accounts: [] };
  const listed = (): Tool[] => [...listTools(context), ...extraTools.map((extra) => extra.tool)];
  // Schemas are read lazily: registering must stay cheap, one instance is built per request or session.
  const schemaOf = (name: string, io: "inputSchema" | "outputSchema") =>
    jsonSchemaOf(
      () => (listed().find((tool) => tool.name === name)?.[io] ?? { type: "object" }) as JsonSchema,
    );
  const register = (
    tool: Pick<Tool, "name" | "title" | "description" | "annotations"> & { outputSchema?: unknown },
    call: Call,
  ) =>
    server.registerTool(
      tool.name,
      {
        ...(tool.title ? { title: tool.title } : {}),
        ...(tool.description ? { description: tool.description } : {}),
        inputSchema: schemaOf(tool.name, "inputSchema"),
        ...(tool.outputSchema ? { outputSchema: schemaOf(tool.name, "outputSchema") } : {}),
        ...(tool.annotations ? { annotations: tool.annotations } : {}),
      },
      (args, ctx) => call(args, ctx),
    );
  for (const step of listedSteps()) register(step, callStep(step.name));
  for (const extra of extraTools) {
    register(extra.tool, (args, ctx) => extra.call(args, ctx, { workspace }));
  }
  server.server.setRequestHandler("tools/list", async () => {
    context = await workspace.schemaContext();
    return { tools: listed() };
  });
}
