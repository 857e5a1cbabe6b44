import { z } from "zod";

// Field paths and printable keys live in a zod-free module (the console's browser bundle uses them).
export { issuePath, keyShown, printable } from "./field-path.js";

/** A JSON Schema object as MCP and manifest.json carry it. */
export type JsonSchema = { [key: string]: unknown };

const isObject = (value: unknown): value is JsonSchema =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isEmpty = (value: unknown) => isObject(value) && Object.keys(value).length === 0;

/** Keywords whose value is one schema, or a map or list of schemas. */
const ONE = new Set(["items", "additionalProperties", "not", "propertyNames", "contains"]);
const MAP = new Set(["properties", "patternProperties", "$defs", "definitions"]);
const LIST = new Set(["anyOf", "oneOf", "allOf", "prefixItems"]);

/**
 * The forms strict MCP clients refuse or warn about, rewritten to the same meaning (the checks of the
 * MCP Inspector's strict schema validation, modelcontextprotocol/inspector#1005): a `type` list
 * (["string","null"]) becomes an anyOf of one type each; an empty schema that only says "anything"
 * where leaving the keyword out says the same (`additionalProperties: {}`, `items: {}`) is left out,
 * and so is `propertyNames: {type: "string"}` (JSON keys always are), and the safe-integer bounds zod
 * puts on every integer (±9007199254740991, 44 characters each). Output schemas also leave out
 * `additionalProperties: false`: a step's answer is what it is, and a client validating it should not
 * fail when a later version adds a field.
 */
function tidy(node: unknown, io: "input" | "output"): unknown {
  if (Array.isArray(node)) return node.map((item) => tidy(item, io));
  if (!isObject(node)) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if ((key === "additionalProperties" || key === "items") && isEmpty(value)) continue;
    if (
      key === "propertyNames" &&
      isObject(value) &&
      value.type === "string" &&
      Object.keys(value).length === 1
    ) {
      continue;
    }
    if (key === "additionalProperties" && value === false && io === "output") continue;
    // z.int() states the safe-integer range on every integer: true of every JSON number we send.
    if (
      (key === "minimum" && value === Number.MIN_SAFE_INTEGER) ||
      (key === "maximum" && value === Number.MAX_SAFE_INTEGER)
    ) {
      continue;
    }
    if (ONE.has(key)) out[key] = tidy(value, io);
    else if (MAP.has(key) && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, tidy(inner, io)]));
    } else if (LIST.has(key)) out[key] = tidy(value, io);
    else out[key] = value;
  }
  if (Array.isArray(out.type)) {
    const { type, ...rest } = out;
    return { ...rest, anyOf: (type as unknown[]).map((one) => ({ type: one })) };
  }
  return out;
}

/**
 * The one place JSON Schema is made from zod: zod 4's own converter (zod-to-json-schema is
 * deprecated and returns an empty schema for zod 4). `io: "input"` describes what a caller may send
 * (defaults make fields optional), `io: "output"` what a step returns.
 */
export function toJsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  // MCP clients only need the schema body; the $schema URI adds noise to every tool listing.
  const { $schema: _ignored, ...rest } = json;
  return tidy(rest, io) as JsonSchema;
}
