/**
 * One ajv error as the facts of the issue zod reports for the same value (its code, what it expected,
 * zod's own message for a failed check: https://github.com/colinhacks/zod/blob/main/packages/zod/src/v4/locales/en.ts).
 * validation-wording.ts decides which errors zod would report at all; words.ts words them.
 */
import { ownValue } from "../tools/input/own-value.js";

export type JsonSchemaNode = { [key: string]: unknown };

/** The fields of an ajv ErrorObject this needs (ajv runs with `verbose: true`, so data and parentSchema are set). */
export interface AjvErrorLike {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
  data?: unknown;
  parentSchema?: JsonSchemaNode;
}

/** Custom messages of zod regex checks, keyed by the JSON Schema `pattern` they check. */
export type PatternMessages = Record<string, string>;

/** What zod does beyond the JSON Schema (form-module.ts finds it in the zod schema). */
export interface FormHints {
  messages: PatternMessages;
  /** The messages of unions that have their own, by the schema path of the union ("#/properties/filter"). */
  unions: Record<string, string>;
  /** Schema paths ("#/properties/metrics/items") of strings zod trims before checking them. */
  trimmed: string[];
}

import { type FormKind, formsInWords, type IssueFacts, type Path } from "../tools/input/words.js";

/** zod's name of the type a schema expects, for a value that has another type. */
function expectedName(schema: JsonSchemaNode, data: unknown): string {
  const type = String(schema.type);
  // z.int(): "int" for a number that is not whole, "number" for anything else.
  if (type === "integer") return typeof data === "number" ? "int" : "number";
  // z.record() becomes an object schema with propertyNames (or only additionalProperties).
  if (type === "object" && ("propertyNames" in schema || !("properties" in schema))) return "record";
  return type;
}

/** A union's branches as words.ts names them (nested unions and type lists flattened, as zod's alternatives). */
function formsOf(schema: JsonSchemaNode): FormKind[] {
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as JsonSchemaNode[]).flatMap(formsOf);
  if (Array.isArray(schema.type))
    return (schema.type as string[]).flatMap((type) => formsOf({ ...schema, type }));
  if (Array.isArray(schema.enum)) return [{ kind: "enum", values: schema.enum.map(String) }];
  if (schema.type === "object" && schema.properties) {
    return [{ kind: "object", keys: Object.keys(schema.properties as object) }];
  }
  if (schema.type === "object") return [{ kind: "record" }];
  if (schema.type === "array") return [{ kind: "array" }];
  return [{ kind: "other", type: schema.type === "integer" ? "number" : String(schema.type) }];
}

/**
 * What zod says of a union none of whose branches fits: its own message when the schema gave one
 * (found by form-module.ts), else "expected" and its forms.
 */
export function unionFacts(
  path: Path,
  schema: JsonSchemaNode,
  schemaPath: string,
  input: unknown,
  hints: FormHints,
): IssueFacts {
  const own = ownValue(hints.unions, schemaPath);
  return { code: "invalid_union", path, input, expected: own ?? `expected ${formsInWords(formsOf(schema))}` };
}

/** What zod reports for a value that does not have the schema's type at all (or is missing: input undefined). */
export function typeFacts(
  path: Path,
  schema: JsonSchemaNode | undefined,
  schemaPath: string,
  input: unknown,
  hints: FormHints,
): IssueFacts {
  if (!schema) return { code: "other", path, input, message: "Invalid input" };
  if (Array.isArray(schema.enum)) return { code: "invalid_value", path, input, values: schema.enum };
  if ("const" in schema) return { code: "invalid_value", path, input, values: [schema.const] };
  if (Array.isArray(schema.anyOf) || Array.isArray(schema.type))
    return unionFacts(path, schema, schemaPath, input, hints);
  return { code: "invalid_type", path, input, expected: expectedName(schema, input) };
}

/** zod's message for a failed check (a limit, a pattern, a format); undefined for other keywords. */
export function checkMessage(error: AjvErrorLike, hints: FormHints): string | undefined {
  const limit = String(error.params.limit);
  const op = String(error.params.comparison ?? "");
  switch (error.keyword) {
    case "pattern": {
      const pattern = String(error.params.pattern);
      return ownValue(hints.messages, pattern) ?? `Invalid string: must match pattern /${pattern}/`;
    }
    case "format":
      return `Invalid ${String(error.params.format)}`;
    case "minLength":
      return `Too small: expected string to have >=${limit} characters`;
    case "maxLength":
      return `Too big: expected string to have <=${limit} characters`;
    case "minItems":
      return `Too small: expected array to have >=${limit} items`;
    case "maxItems":
      return `Too big: expected array to have <=${limit} items`;
    case "minimum":
    case "exclusiveMinimum":
      return `Too small: expected number to be ${op}${limit}`;
    case "maximum":
    case "exclusiveMaximum":
      return `Too big: expected number to be ${op}${limit}`;
    case "multipleOf":
      return `Invalid number: must be a multiple of ${String(error.params.multipleOf)}`;
    default:
      return undefined;
  }
}
