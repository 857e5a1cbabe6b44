import { z } from "zod";

// Field paths and printable keys live in a zod-free module (the console's browser bundle uses them).
export { issuePath, keyShown, printable } from "./field-path.js";

/** A JSON Schema object as MCP and manifest.json carry it. */
export type JsonSchema = { [key: string]: unknown };

/**
 * The one place JSON Schema is made from zod: zod 4's own converter (zod-to-json-schema is
 * deprecated and returns an empty schema for zod 4). `io: "input"` describes what a caller may send
 * (defaults make fields optional), `io: "output"` what a step returns.
 */
export function toJsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  // MCP clients only need the schema body; the $schema URI adds noise to every tool listing.
  const { $schema: _ignored, ...rest } = json;
  return rest;
}
