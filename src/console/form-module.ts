/**
 * A step's form, as one JavaScript module the browser imports from the console's own origin: the
 * step's input JSON Schema (the same as manifest.json and the MCP tool list, with this workspace's
 * account labels), ajv validators precompiled here for @rjsf/validator-ajv8's precompiled mode, and
 * hints on what zod checks that JSON Schema cannot say (custom messages, trimming). Validators compiled in the browser would need
 * `new Function`, which the console's Content-Security-Policy forbids
 * (https://rjsf-team.github.io/react-jsonschema-form/docs/usage/validation#precompiled-validators).
 */
import { z } from "zod";
import { type JsonSchema, toJsonSchema } from "../schemas/json-schema.js";
import { PATTERN_MESSAGES } from "../schemas/patterns.js";
import { TOOL_STEPS } from "../tools/registry.js";
import type { SchemaContext, ToolStep } from "../tools/types.js";
import type { FormHints, JsonSchemaNode, PatternMessages } from "./validation-wording.js";

/**
 * The only runtime helper ajv's standalone code imports: ucs2length, a string's length in code
 * points (as zod measures it too), here as Array.from counts it.
 */
const RUNTIME_SHIM = `const exports = {};
const require = (id) => {
  if (id === "ajv/dist/runtime/ucs2length") return { default: (text) => Array.from(text).length };
  throw new Error("The form validator needs an unknown module: " + id);
};`;

const cache = new Map<string, string>();
const CACHE_ENTRIES = 32;

/** An error function's text, or undefined when it needs more of an issue than an empty one. */
function safely(read: () => unknown): unknown {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/** A zod check as this module reads it: a regex with its message, or an overwrite such as trim. */
interface CheckDef {
  check?: string;
  format?: string;
  pattern?: RegExp;
  error?: (issue: object) => unknown;
  tx?: (input: string) => unknown;
}

const TRIM_MARK = "x-martech-trim";
const UNION_MARK = "x-martech-union-message";

/**
 * What zod says and does that JSON Schema cannot, so the browser can do the same: the message of
 * each regex check (keyed by its pattern), the messages unions have of their own and the strings
 * zod trims before checking them (both by schema path). The schema is converted once more with a mark on trimmed strings: a schema
 * used twice is converted once and copied, so every copy carries the mark.
 */
export function formHints(schema: z.ZodType): FormHints {
  // Patterns the schema publishes for clients while the server checks the rule itself (the endpoint guard).
  const messages: PatternMessages = { ...PATTERN_MESSAGES };
  const marked = z.toJSONSchema(schema, {
    io: "input",
    unrepresentable: "any",
    override: (ctx) => {
      for (const check of ctx.zodSchema._zod.def.checks ?? []) {
        const def = check._zod.def as CheckDef;
        const text = def.format === "regex" ? def.error?.({}) : undefined;
        if (typeof text === "string" && def.pattern) messages[def.pattern.source] ??= text;
        if (def.check === "overwrite" && def.tx?.(" x ") === "x") ctx.jsonSchema[TRIM_MARK] = true;
      }
      const def = ctx.zodSchema._zod.def as { type?: string; error?: (issue: object) => unknown };
      if (def.type === "union") {
        const text = safely(() => def.error?.({}));
        if (typeof text === "string") ctx.jsonSchema[UNION_MARK] = text;
      }
    },
  }) as JsonSchemaNode;
  const trimmed: string[] = [];
  const unions: Record<string, string> = {};
  const walk = (node: unknown, path: string): void => {
    if (!node || typeof node !== "object") return;
    const marks = node as JsonSchemaNode;
    if (marks[TRIM_MARK] === true) trimmed.push(path);
    if (typeof marks[UNION_MARK] === "string") unions[path] = marks[UNION_MARK];
    for (const [key, child] of Object.entries(node)) walk(child, `${path}/${key}`);
  };
  walk(marked, "#");
  return { messages, unions, trimmed };
}

/** Every branch of every union (anyOf/oneOf) in a schema, wherever it sits. */
function unionBranches(node: unknown): JsonSchemaNode[] {
  if (!node || typeof node !== "object") return [];
  const own = (["anyOf", "oneOf"] as const).flatMap((key) => {
    const list = (node as JsonSchemaNode)[key];
    return Array.isArray(list) ? (list as JsonSchemaNode[]) : [];
  });
  return [...own, ...Object.values(node).flatMap(unionBranches)];
}

/**
 * ajv standalone code for the validators the form library calls: the root schema and the
 * sub-schemas its parser finds (as compileSchemaValidatorsCode does), plus every union branch,
 * which the library validates alone to pick the branch a value matches, also where its parser does
 * not look (the values of a record such as query_parameters). Each is keyed by the library's hash.
 */
async function compileValidators(schema: JsonSchema): Promise<string> {
  const { hashForSchema, schemaParser } = await import("@rjsf/utils");
  const { default: createAjvInstance } = await import("@rjsf/validator-ajv8/lib/createAjvInstance.js");
  // A CommonJS module: its default export is the namespace, whose own default is the function.
  const standaloneCode = (await import("ajv/dist/standalone/index.js")).default.default;
  const schemas: Record<string, JsonSchemaNode> = { ...schemaParser(schema as never) };
  for (const branch of unionBranches(schema)) {
    const id = hashForSchema(branch as never);
    schemas[id] ??= { ...branch, $id: id };
  }
  const ajv = createAjvInstance(undefined, undefined, {
    code: { source: true, lines: false },
    schemas: Object.values(schemas),
  });
  return standaloneCode(ajv);
}

/** The form module of a step for a workspace's schema context (ajv and RJSF load on first use). */
export async function formModule(step: ToolStep, context: SchemaContext): Promise<string> {
  const zodSchema = step.input(context);
  const schema: JsonSchema = toJsonSchema(zodSchema, "input");
  const key = JSON.stringify([step.id, schema]);
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const code = await compileValidators(schema);
  const module = [
    RUNTIME_SHIM,
    code.replace(/^"use strict";/, ""),
    "export const validators = exports;",
    `export const schema = ${JSON.stringify(schema)};`,
    `export const hints = ${JSON.stringify(formHints(zodSchema))};`,
    // The registry's step ids: a hint naming one is an agent's, which the form leaves out (titled-issues.ts).
    `export const steps = ${JSON.stringify(TOOL_STEPS.map((listed) => listed.id))};`,
    "",
  ].join("\n");
  if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
  cache.set(key, module);
  return module;
}
