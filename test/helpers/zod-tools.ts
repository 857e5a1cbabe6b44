import { appToolMeta } from "../../src/mcp/report-chart-app.js";
import { toJsonSchema } from "../../src/schemas/json-schema.js";
import { TOOL_STEPS } from "../../src/tools/registry.js";
import type { SchemaContext } from "../../src/tools/types.js";

/**
 * The MCP tool list as the steps' zod schemas make it at run time: what the build-time listing must equal,
 * with the one thing the MCP adapter adds (Run Reports names its MCP App chart view in `_meta`).
 */
export function toolsFromZod(context: SchemaContext) {
  return TOOL_STEPS.map((step) => ({
    name: step.id,
    title: step.title,
    description: step.description,
    inputSchema: toJsonSchema(step.input(context), "input"),
    outputSchema: toJsonSchema(step.output, "output"),
    annotations: { title: step.title, ...step.annotations },
    ...appToolMeta(step.id),
  }));
}
