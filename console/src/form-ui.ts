/**
 * The uiSchema the console derives from a step's JSON Schema, the same for every step: labels for
 * the branches of a union, the key/value editor for records of scalars (query_parameters) and the
 * JSON editor for free-form objects (body). Titles, help and enums come from the schema itself.
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

function branchLabel(node: Node): string {
  if (Array.isArray(node.enum)) return "preset";
  if (isFreeObject(node)) return "JSON";
  if (node.type === "object") return "fields";
  if (node.type === "array") return "list";
  if (node.type === "string") return "text";
  return String(node.type ?? "value");
}

export function uiSchemaFor(node: Node): UiSchema {
  if (isFreeObject(node)) return { "ui:field": "JsonField" };
  const ui: UiSchema = {};
  // The value's own union would otherwise add a type picker after the text field.
  if (isScalarRecord(node)) {
    ui.additionalProperties = { "ui:field": "ScalarTextField", "ui:fieldReplacesAnyOrOneOf": true };
  }
  if (Array.isArray(node.anyOf)) {
    ui.anyOf = (node.anyOf as Node[]).map((branch) => ({
      "ui:title": branchLabel(branch),
      ...uiSchemaFor(branch),
    }));
  }
  if (node.items && typeof node.items === "object") ui.items = uiSchemaFor(node.items as Node);
  for (const [key, child] of Object.entries((node.properties ?? {}) as Record<string, Node>)) {
    ui[key] = uiSchemaFor(child);
  }
  return ui;
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
