import type { JsonSchema } from "../schemas/json-schema.js";

/**
 * The tool list a model reads on every conversation is paid for in tokens (issue 27: 6,157 o200k_base
 * tokens for the five tools, budget 4,000; `npm run bench -- --only=tokens` prints it). tools/list
 * therefore serves each schema without what only a form or a validator uses; `tool-schemas/` and
 * `manifest.json` keep the full schemas (the console's form shows titles and fills examples).
 *
 * Left out of input schemas: field `title`s (form labels; the description says the same), `examples`
 * (the recipes resource and the descriptions carry them), and the validation keywords the step applies
 * again itself with an error that names the field and the rule (`pattern`, string and list lengths,
 * number bounds, which the descriptions state where a caller needs them, and
 * an `enum` longer than LONG_ENUM values: the refusal lists them), and
 * defaults that say what leaving a field out means anyway (false, 0, []).
 * Closed objects stay closed (`additionalProperties: false`: test/tools/input/published-schemas.test.ts).
 * Left out of output schemas: titles, examples and descriptions: the answer's text explains its figures,
 * and a client validating structured content needs only the shape.
 */
const INPUT_DROPPED = new Set([
  "title",
  "examples",
  "pattern",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minimum",
  "maximum",
]);
/** Enums up to this size are listed (date presets, methods); longer ones (GA's 26 industries) the refusal lists. */
const LONG_ENUM = 20;
const OUTPUT_DROPPED = new Set(["title", "examples", "description"]);

/** Keywords whose value is a map of property names to schemas: the names themselves are kept whatever they are. */
const MAPS = new Set(["properties", "patternProperties", "$defs", "definitions"]);

function lean(node: unknown, dropped: ReadonlySet<string>): unknown {
  if (Array.isArray(node)) return node.map((item) => lean(item, dropped));
  if (typeof node !== "object" || node === null) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (dropped.has(key)) continue;
    if (dropped === INPUT_DROPPED && droppedInInput(key, value)) continue;
    // Every JSON object's keys are text: propertyNames {type: "string"} says nothing more.
    if (key === "propertyNames" && isStringOnly(lean(value, dropped))) continue;
    if (MAPS.has(key) && typeof value === "object" && value !== null) {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, inner]) => [name, lean(inner, dropped)]),
      );
    } else if (key === "anyOf" && Array.isArray(value)) {
      // anyOf [anyOf [a, b], c] is anyOf [a, b, c]: the same values, one nesting fewer.
      out[key] = value.flatMap((branch) => {
        const inner = lean(branch, dropped) as JsonSchema;
        return Object.keys(inner).length === 1 && Array.isArray(inner.anyOf) ? inner.anyOf : [inner];
      });
    } else out[key] = lean(value, dropped);
  }
  return out;
}

/** The schema {type: "string"} and nothing else. */
function isStringOnly(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    Object.keys(value).length === 1 &&
    (value as { type?: unknown }).type === "string"
  );
}

function droppedInInput(key: string, value: unknown): boolean {
  return (
    // A default that is what leaving the field out means anyway: false, 0, an empty list.
    (key === "default" && (value === false || value === 0 || (Array.isArray(value) && value.length === 0))) ||
    (key === "enum" && Array.isArray(value) && value.length > LONG_ENUM)
  );
}

/** An input schema as tools/list serves it to models. */
export function leanInputSchema(schema: JsonSchema): JsonSchema {
  return lean(schema, INPUT_DROPPED) as JsonSchema;
}

/**
 * An output schema as tools/list serves it to models: its fields and their types, and inside a field that holds
 * objects, "object" alone (a write's record_errors, GA's quota, a created property): the answer's text names what
 * they hold, and a client validating structured content still checks every field's type. The room went to
 * marketo_api_call's join (trial s35, N522: 169,440 characters joined by hand).
 */
export function leanOutputSchema(schema: JsonSchema): JsonSchema {
  const out = lean(schema, OUTPUT_DROPPED) as JsonSchema;
  const properties = out.properties as Record<string, JsonSchema> | undefined;
  if (!properties) return out;
  return {
    ...out,
    properties: Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, shallow(v)])),
  };
}

/** A field's schema with the objects inside it as "object": items of a list of objects, or an object's fields. */
function shallow(schema: JsonSchema): JsonSchema {
  if (schema.type === "object" && schema.properties) return { type: "object" };
  const items = schema.items as JsonSchema | undefined;
  if (schema.type === "array" && items?.type === "object" && items.properties) {
    return { ...schema, items: { type: "object" } };
  }
  return schema;
}
