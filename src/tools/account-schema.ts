import type { JsonSchema } from "../schemas/json-schema.js";

/**
 * A step's `account` field (a connected account to use, by label) as JSON Schema, without zod: tools/list
 * builds each workspace's variant from the one committed base schema (tool-schemas/), keeping the base
 * field's words; the step's room builds the zod field (src/tools/ga/account-field.ts, with ACCOUNT_HEADER).
 * A test compares the two for several label sets.
 *
 * MCP 2026-07-28 clients over HTTP copy this argument into an `Mcp-Param-Account` header (SEP-2243), so
 * a gateway can route or meter by account without reading the body; the server checks that both agree.
 * https://modelcontextprotocol.io/seps/2243-http-standardization
 */
export const ACCOUNT_HEADER = { "x-mcp-header": "Account" } as const;

const isObject = (value: unknown): value is JsonSchema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The `account` property of a step's input schema made with no connected account, if it has one. */
function accountProperty(input: JsonSchema): JsonSchema | undefined {
  const properties = input.properties;
  if (!isObject(properties)) return undefined;
  const account = properties.account;
  return isObject(account) && account["x-mcp-header"] === ACCOUNT_HEADER["x-mcp-header"]
    ? account
    : undefined;
}

/**
 * A step's input JSON Schema for the workspace's connected accounts, from the one made with none, as zod
 * makes it from accountField(): one label is an enum of it and its default, several an enum the caller
 * must choose from (so `account` joins `required`, in property order). Key order is kept: it is part of
 * what clients receive.
 */
export function withAccountLabels(input: JsonSchema, accounts: readonly string[]): JsonSchema {
  // As accountField(): duplicate labels are one choice. z.enum() keeps its values as the keys of an
  // object and lists them back from it, so integer-like labels ("2", "10") come first in ascending
  // order, as JavaScript orders such keys: the console's select and the MCP enum must agree.
  // https://tc39.es/ecma262/#sec-ordinaryownpropertykeys
  const labels = Object.values(Object.fromEntries(accounts.map((label) => [label, label])));
  const [first] = labels;
  const base = accountProperty(input);
  if (first === undefined || !base) return input;
  const properties = input.properties as JsonSchema;
  // The field's words as its room wrote them (zod puts them in this order: title, description, header).
  const meta = { title: base.title, description: base.description, ...ACCOUNT_HEADER };
  const account =
    labels.length === 1
      ? { default: first, ...meta, type: "string", enum: [first] }
      : { type: "string", enum: labels, ...meta };
  const out: JsonSchema = { ...input, properties: { ...properties, account } };
  if (labels.length === 1) return out;
  const required = new Set(Array.isArray(input.required) ? input.required : []);
  required.add("account");
  // zod lists `required` in property order, right after `properties`.
  const entries = Object.entries(out).filter(([key]) => key !== "required");
  const at = entries.findIndex(([key]) => key === "properties") + 1;
  entries.splice(at, 0, ["required", Object.keys(properties).filter((name) => required.has(name))]);
  return Object.fromEntries(entries);
}
