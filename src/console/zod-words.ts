/**
 * zod's words for what ajv found wrong (https://github.com/colinhacks/zod/blob/main/packages/zod/src/v4/locales/en.ts),
 * one ajv error at a time. validation-wording.ts decides which errors zod would report at all.
 */
import { acceptedSuffix } from "../tools/input-issues.js";
import type { AjvErrorLike, JsonSchemaNode, PatternMessages } from "./validation-wording.js";

/** zod's name for the type of a value (util.parsedType). */
function received(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number" && Number.isNaN(value)) return "NaN";
  return typeof value;
}

export const quote = (value: unknown): string => (typeof value === "string" ? `"${value}"` : String(value));

/** What zod would say when a value does not have this schema's type at all. */
export function typeMessage(schema: JsonSchemaNode | undefined, data: unknown): string {
  if (!schema) return "Invalid input";
  if (Array.isArray(schema.enum)) return enumMessage(schema.enum);
  if ("const" in schema) return enumMessage([schema.const]);
  const type = schema.type;
  if (typeof type !== "string") return "Invalid input"; // a union (anyOf, or several types)
  let expected = type;
  // z.int(): "expected int" for a number that is not whole, "expected number" for anything else.
  if (type === "integer") expected = typeof data === "number" ? "int" : "number";
  // z.record() becomes an object schema with propertyNames (or only additionalProperties).
  if (type === "object" && ("propertyNames" in schema || !("properties" in schema))) expected = "record";
  return `Invalid input: expected ${expected}, received ${received(data)}`;
}

export function enumMessage(values: readonly unknown[]): string {
  const head =
    values.length === 1
      ? `Invalid input: expected ${quote(values[0])}`
      : `Invalid option: expected one of ${values.map(quote).join("|")}`;
  return `${head}${acceptedSuffix(values)}`;
}

function limitMessage(error: AjvErrorLike): string | undefined {
  const limit = String(error.params.limit);
  const op = String(error.params.comparison ?? "");
  switch (error.keyword) {
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

/**
 * zod runs its length checks on anything with a `length` even after the type check failed (they
 * carry a `when` guard), so an array field given a string also hears about the string's length.
 */
export function lengthChecks(schema: JsonSchemaNode | undefined, value: unknown): string[] {
  const length =
    typeof value === "string"
      ? Array.from(value).length
      : value !== null && typeof value === "object"
        ? (value as { length?: unknown }).length
        : undefined;
  if (!schema || length === undefined) return [];
  const [origin, unit] =
    typeof value === "string"
      ? ["string", " characters"]
      : Array.isArray(value)
        ? ["array", " items"]
        : ["unknown", ""];
  const verb = unit ? "to have" : "to be";
  return Object.keys(schema).flatMap((keyword) => {
    const limit = schema[keyword];
    if (typeof limit !== "number") return [];
    // zod's own comparisons, negated as it writes them (an object's `length` may be anything).
    if ((keyword === "minLength" || keyword === "minItems") && !((length as number) >= limit))
      return [`Too small: expected ${origin} ${verb} >=${limit}${unit}`];
    if ((keyword === "maxLength" || keyword === "maxItems") && !((length as number) <= limit))
      return [`Too big: expected ${origin} ${verb} <=${limit}${unit}`];
    return [];
  });
}

export function singleMessage(error: AjvErrorLike, messages: PatternMessages): string | undefined {
  if (error.keyword === "pattern") {
    const pattern = String(error.params.pattern);
    return messages[pattern] ?? `Invalid string: must match pattern /${pattern}/`;
  }
  if (error.keyword === "format") return `Invalid ${String(error.params.format)}`;
  if (error.keyword === "enum") return enumMessage((error.params.allowedValues as unknown[]) ?? []);
  if (error.keyword === "const") return enumMessage([error.params.allowedValue]);
  return limitMessage(error);
}
