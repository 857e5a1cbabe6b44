/**
 * The uiSchema the console derives from a step's JSON Schema, by the same rules for every step (none is
 * written per step): records of scalars get the key/value editor, free-form objects the JSON editor, a
 * union of text and JSON a text box, a list of presets-or-ranges the period picker, and the fields the
 * connected Google account can fill (by their schema names: `property`, `analytics_account`, the items of
 * `metrics` and `dimensions`) its pickers. Titles, help and enums come from the schema itself.
 */
import type { RJSFSchema, UiSchema } from "@rjsf/utils";

type Node = RJSFSchema & { [key: string]: unknown };

const isObject = (node: Node): boolean => node.type === "object" && !node.properties;
/** An object whose values may be anything: edited as JSON. */
const isFreeObject = (node: Node): boolean => {
  const extra = node.additionalProperties;
  return (
    isObject(node) && (extra === undefined || (typeof extra === "object" && Object.keys(extra).length === 0))
  );
};
/** An object whose values are scalars or lists of scalars: edited as key/value rows. */
const isScalarRecord = (node: Node): boolean => {
  const extra = node.additionalProperties as Node | undefined;
  return isObject(node) && typeof extra === "object" && Array.isArray(extra.anyOf ?? extra.type);
};
const branches = (node: Node): Node[] => (Array.isArray(node.anyOf) ? (node.anyOf as Node[]) : []);
/** A union whose first form is free text (a filter expression, "-sessions,date"): typed as text. */
const isTextFirst = (node: Node): boolean => {
  const [first] = branches(node);
  return first !== undefined && first.type === "string" && !Array.isArray(first.enum);
};
/** A union of presets and a range object (a period): the period picker. */
const isPresetOrRange = (node: Node): boolean =>
  branches(node).some((branch) => Array.isArray(branch.enum)) &&
  branches(node).some((branch) => branch.type === "object" && branch.properties !== undefined);

/** Fields the connected Google account fills, by their name in the schema. */
const PICKERS: Record<string, UiSchema> = {
  property: { "ui:field": "PropertyField" },
  analytics_account: { "ui:field": "AnalyticsAccountField" },
};
/** Lists of metric or dimension names: autocomplete from the chosen property's metadata. */
const NAME_LISTS: Record<string, string> = { metrics: "metric", dimensions: "dimension" };

const REPLACES_UNION = { "ui:fieldReplacesAnyOrOneOf": true };

export function uiSchemaFor(node: Node, name?: string): UiSchema {
  if (name && PICKERS[name]) return PICKERS[name];
  if (isFreeObject(node)) return { "ui:field": "JsonField" };
  if (isScalarRecord(node)) return { "ui:field": "KeyValueField" };
  if (isPresetOrRange(node)) return { "ui:field": "PresetOrRangeField", ...REPLACES_UNION };
  if (isTextFirst(node)) return { "ui:field": "TextOrJsonField", ...REPLACES_UNION };
  const ui: UiSchema = {};
  if (node.items && typeof node.items === "object") {
    ui.items =
      name && NAME_LISTS[name]
        ? { "ui:field": "FieldNameField", "ui:options": { kind: NAME_LISTS[name] } }
        : uiSchemaFor(node.items as Node);
  }
  for (const [key, child] of Object.entries((node.properties ?? {}) as Record<string, Node>)) {
    ui[key] = uiSchemaFor(child, key);
  }
  return ui;
}

/**
 * The form's first values: a required choice without a default starts on its first option (the method
 * on GET), so the form opens on something that runs.
 */
export function initialData(schema: Node): Record<string, unknown> {
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries((schema.properties ?? {}) as Record<string, Node>)) {
    if (
      required.has(key) &&
      child.default === undefined &&
      Array.isArray(child.enum) &&
      child.enum.length > 0
    )
      out[key] = child.enum[0];
  }
  return out;
}

/** Form errors keyed the library's way ({ field: { __errors: [...] } }) from "date_ranges[0].start_date" paths. */
export function errorSchemaFor(
  issues: readonly { field: string; message: string }[],
): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const issue of issues) {
    if (issue.field === "input") continue;
    const path =
      issue.field.match(/[^.[\]]+|\[\d+\]/g)?.map((part) => part.replace(/^\[(\d+)\]$/, "$1")) ?? [];
    let node = root;
    for (const part of path) {
      node[part] = node[part] ?? {};
      node = node[part] as Record<string, unknown>;
    }
    node.__errors = [...((node.__errors as string[] | undefined) ?? []), issue.message];
  }
  return root;
}
