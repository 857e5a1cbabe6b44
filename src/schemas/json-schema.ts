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

// C0 and C1 controls, DEL, and the JSON line and paragraph separators.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters escaped
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const NAMED_ESCAPES: Record<string, string> = {
  "\b": "\\b",
  "\t": "\\t",
  "\n": "\\n",
  "\f": "\\f",
  "\r": "\\r",
};

/**
 * Text from a caller (a key name, a value) as an error may print it: control characters escaped JSON-style ("\n", "\u001b"), so
 * a key cannot start a forged `error:` line on the CLI's stderr or send terminal escapes.
 */
export function printable(text: string): string {
  return text.replace(
    CONTROL,
    (c) => NAMED_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

// As received values are cut in messages (src/tools/input/errors.ts): a 2 MB key is not repeated whole.
const MAX_KEY_SHOWN = 60;

/** A caller's key name as a field path prints it: printable, and cut to MAX_KEY_SHOWN characters. */
export function keyShown(key: string): string {
  return printable(key.length > MAX_KEY_SHOWN ? `${key.slice(0, MAX_KEY_SHOWN - 1)}…` : key);
}

/** Field path of a zod issue in the caller's terms: `query_parameters.filterType`, `dateRanges[0].startDate`. */
export function issuePath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${keyShown(String(part))}` : keyShown(String(part));
  }
  return out || "input";
}
