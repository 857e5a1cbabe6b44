import { leanInputSchema, leanOutputSchema } from "../../src/mcp/lean-schema.js";
import { appToolMeta } from "../../src/mcp/report-chart-app.js";
import { toJsonSchema } from "../../src/schemas/json-schema.js";
import { TOOL_STEPS } from "../../src/tools/registry.js";
import type { SchemaContext } from "../../src/tools/types.js";

/**
 * The MCP tool list as the steps' zod schemas make it at run time: what the build-time listing must equal,
 * with what the MCP adapter does to it: Run Reports names its MCP App chart view in `_meta`, and the schemas
 * are served lean (src/mcp/lean-schema.ts), annotations without the title the tool already has.
 */
export function toolsFromZod(context: SchemaContext) {
  return TOOL_STEPS.map((step) => ({
    name: step.id,
    title: step.title,
    description: step.description,
    inputSchema: leanInputSchema(toJsonSchema(step.input(context), "input")),
    outputSchema: leanOutputSchema(toJsonSchema(step.output, "output")),
    annotations: { ...step.annotations },
    ...appToolMeta(step.id),
  }));
}
