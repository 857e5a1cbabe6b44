/**
 * An invalid input in the console's words: the same problems as the server's (words.ts made them, from
 * zod's issues on the server or ajv's errors in the form), each named by its field's title in the step's
 * JSON Schema ("Endpoint", "Date ranges 1 › Start date") rather than its API name. The server's console
 * route words a refused run with this, and the form words its own check with it, so a person reads one
 * message whichever side found the problem. An MCP client or the CLI keeps the API names (an agent must
 * write them back); each issue keeps its API path in `field` so the form can put it under its field.
 * Pure and free of zod and Node: the browser bundle imports it.
 */
import { ownValue } from "../tools/input/own-value.js";
import type { JsonSchemaNode } from "./validation-wording.js";

export interface TitledIssue {
  /** The API path (`date_ranges[0].start_date`): where the form shows the message. */
  field: string;
  /** What a person reads as the field's name. */
  title: string;
  message: string;
}

/** The parts of a field path: `a.b[0].c` → ["a", "b", 0, "c"]. */
function partsOf(field: string): (string | number)[] {
  return (field.match(/[^.[\]]+|\[\d+\]/g) ?? []).map((part) =>
    /^\[\d+\]$/.test(part) ? Number(part.slice(1, -1)) : part,
  );
}

/** The schema itself and its union branches: where a named property may be declared. */
const candidates = (schema: JsonSchemaNode | undefined): JsonSchemaNode[] =>
  schema ? [schema, ...((schema.anyOf as JsonSchemaNode[] | undefined) ?? [])] : [];

function propertyOf(schema: JsonSchemaNode | undefined, key: string): JsonSchemaNode | undefined {
  for (const candidate of candidates(schema)) {
    const found = ownValue(candidate.properties as Record<string, JsonSchemaNode> | undefined, key);
    if (found) return found;
  }
  return undefined;
}

function itemsOf(schema: JsonSchemaNode | undefined): JsonSchemaNode | undefined {
  for (const candidate of candidates(schema)) {
    if (candidate.items && typeof candidate.items === "object") return candidate.items as JsonSchemaNode;
  }
  return undefined;
}

/**
 * A field path as the form names it: each property by its title (its API name when it has none, or
 * for a key the person typed), a list item by its own title and number ("Metric 1"), or its list's
 * ("Date ranges 1").
 */
export function fieldTitle(field: string, schema: JsonSchemaNode): string {
  if (field === "input") return "Input";
  const names: string[] = [];
  let node: JsonSchemaNode | undefined = schema;
  for (const part of partsOf(field)) {
    if (typeof part === "number") {
      node = itemsOf(node);
      // An item with a title of its own is named by it ("Metric 1"), else by its list's ("Date ranges 1").
      const last = names.pop() ?? "Item";
      names.push(`${typeof node?.title === "string" ? node.title : last} ${part + 1}`);
      continue;
    }
    const property = propertyOf(node, part);
    names.push(typeof property?.title === "string" ? property.title : part);
    const record = node?.additionalProperties;
    node = property ?? (record && typeof record === "object" ? (record as JsonSchemaNode) : undefined);
  }
  return names.join(" › ") || field;
}

/**
 * The problems of an invalid input, each with its title. A message that names its field's last part ("choose
 * an end date") goes with the title above it ("Period 1"), not "Period 1 › End date: choose an end date".
 */
export function titledIssues(
  issues: readonly { field: string; message: string }[],
  schema: JsonSchemaNode,
): TitledIssue[] {
  return issues.map((issue) => {
    const parts = fieldTitle(issue.field, schema).split(" › ");
    const last = parts.at(-1) ?? "";
    const named = parts.length > 1 && issue.message.toLowerCase().includes(last.toLowerCase());
    return { ...issue, title: (named ? parts.slice(0, -1) : parts).join(" › ") };
  });
}

/** The schema node at a field path, into list items and union branches. */
function nodeAt(field: string, schema: JsonSchemaNode): JsonSchemaNode | undefined {
  let node: JsonSchemaNode | undefined = schema;
  for (const part of partsOf(field))
    node = typeof part === "number" ? itemsOf(node) : propertyOf(node, String(part));
  return node;
}

/** The input's value at a field path (own keys and items only). */
function valueAt(field: string, input: unknown): unknown {
  let node = input;
  for (const part of partsOf(field))
    node =
      node && typeof node === "object" ? ownValue(node as Record<string, unknown>, String(part)) : undefined;
  return node;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const article = (word: string) => (/^[aeiou]/i.test(word) ? "an" : "a");

/**
 * What is missing from a value given in a union's object form, each under its own field. zod (and the form's
 * check, which words ajv's errors as zod does) blames the union itself when a branch lacks a required field,
 * naming every form it takes: a custom period with no end date read "expected a preset (…) or {start_date,
 * end_date, name?}; received an object" (trial s9, finding 2). The person chose the object form; what it
 * lacks is the answer, "choose an end date". A value with keys the form does not have keeps the union's
 * words, which name them.
 */
function missingInForm(issue: { field: string; message: string }, schema: JsonSchemaNode, input: unknown) {
  const forms = (nodeAt(issue.field, schema)?.anyOf as JsonSchemaNode[] | undefined) ?? [];
  const objects = forms.filter((form) => isRecord(form.properties));
  const value = valueAt(issue.field, input);
  const [form] = objects;
  if (objects.length !== 1 || !form || !isRecord(value)) return [issue];
  const properties = form.properties as Record<string, JsonSchemaNode>;
  if (Object.keys(value).some((key) => ownValue(properties, key) === undefined)) return [issue];
  const required = Array.isArray(form.required) ? (form.required as string[]) : [];
  const missing = required.filter((key) => value[key] === undefined || value[key] === "");
  if (missing.length === 0) return [issue];
  return missing.map((key) => {
    const property = ownValue(properties, key);
    const title = typeof property?.title === "string" ? property.title.toLowerCase() : key;
    return { field: `${issue.field}.${key}`, message: `choose ${article(title)} ${title}` };
  });
}

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/**
 * The message a person reads for these problems: one names its field's title; several are counted and
 * each named ("2 fields to fix. Method: required …; Endpoint: required …."), all of them at once.
 */
export function titledMessage(issues: readonly TitledIssue[]): string {
  const own = issues.filter((issue) => issue.field !== "input");
  const more = issues.filter((issue) => issue.field === "input").map((issue) => issue.message);
  const named = own.map((issue) => `${issue.title}: ${issue.message}`);
  const text =
    own.length <= 1
      ? (named[0] ?? "The input is not valid")
      : `${own.length} fields to fix. ${named.join("; ")}`;
  return sentence([text, ...more].join("; "));
}

/** What the page gets of an error (the JSON of a MartechError, with its hint). */
export interface ErrorBody {
  error: string;
  message: string;
  hint?: string;
  field?: string;
  issues?: { field: string; message: string }[];
  [key: string]: unknown;
}

/**
 * What marks a hint written for an agent: it names one of the registry's tool steps (`steps`, the ids the
 * server lists: this module ships to the browser, which cannot import the registry) or an API path to send
 * (the page's own controls, its pickers, are a person's way to the same answer).
 */
export function agentWords(steps: readonly string[]): RegExp {
  // A step id is lower-case words joined by "_" (the console's routes accept no other): nothing to escape.
  const ids = steps.filter((id) => /^[a-z0-9_]+$/.test(id));
  return new RegExp(`${ids.length > 0 ? `\\b(?:${ids.join("|")})\\b|` : ""}\\bv1(?:alpha|beta)\\/`);
}

/**
 * An invalid_input error as the console words it (any other error as it is): the message names each
 * field by its title, and `issues` lists every problem (also a single-field error's, so the form shows
 * it under its field). `issues` keep their API paths and the server's words, but for a union's object form
 * missing a field, said by what is missing (`input`, the value refused: missingInForm). A hint for an agent
 * (one that names a tool step or an API path) is left out.
 */
export function forPeople<E extends ErrorBody>(
  error: E,
  schema: JsonSchemaNode,
  steps: readonly string[],
  input?: unknown,
): E {
  if (error.error !== "invalid_input" || error.field === undefined) return error;
  const hint = error.hint && error.message.endsWith(error.hint) ? error.hint : undefined;
  const said = (hint ? error.message.slice(0, -hint.length) : error.message).trim();
  const issues = (
    error.issues ?? [
      { field: error.field, message: said.replace(`Invalid ${error.field}: `, "").replace(/\.$/, "") },
    ]
  ).flatMap((issue) => missingInForm(issue, schema, input));
  const text = titledMessage(titledIssues(issues, schema));
  const forPerson = hint && !agentWords(steps).test(hint) ? hintInTitles(hint, schema) : undefined;
  const { hint: _agent, ...rest } = error;
  return {
    ...rest,
    message: forPerson ? `${text} ${forPerson}` : text,
    ...(forPerson ? { hint: forPerson } : {}),
    issues,
  } as E;
}

/**
 * A hint naming fields by their API names ("Swap start_date and end_date.") as a person reads it, by the
 * fields' titles ("Swap start date and end date."): each snake_case name some property of the schema has
 * (at any depth: items, anyOf branches) with a title. (Issue 28 review, item 3: the page's words.)
 */
function hintInTitles(hint: string, schema: JsonSchemaNode): string {
  const titles = new Map<string, string>();
  const walk = (node: unknown): void => {
    if (!node || typeof node !== "object") return;
    const { properties, items, anyOf, oneOf } = node as Record<string, unknown>;
    for (const [key, child] of Object.entries((properties ?? {}) as Record<string, unknown>)) {
      const title = (child as { title?: unknown } | null)?.title;
      if (typeof title === "string" && !titles.has(key)) titles.set(key, title);
      walk(child);
    }
    for (const child of [items, ...[anyOf, oneOf].flatMap((list) => (Array.isArray(list) ? list : []))])
      walk(child);
  };
  walk(schema);
  return hint.replace(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g, (name, at: number) => {
    const title = titles.get(name);
    if (!title) return name;
    return at === 0 ? title : `${title.charAt(0).toLowerCase()}${title.slice(1)}`;
  });
}
