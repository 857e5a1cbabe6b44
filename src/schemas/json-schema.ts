import { z } from "zod";

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

/** Field path of a zod issue in the caller's terms: `query_parameters.filterType`, `dateRanges[0].startDate`. */
export function issuePath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || "input";
}
