/**
 * The uiSchema the console derives from a step's JSON Schema, by the same rules for every step (none is
 * written per step): records of scalars get the key/value editor, free-form objects the JSON editor, a
 * union of text and JSON a text box, a list of presets-or-ranges the period picker, and the fields the
 * connected Google account can fill (by their schema names: `property`, `analytics_account`, the items of
 * `metrics` and `dimensions`, a funnel's `steps` and `breakdown`) its pickers, an optional object with
 * required fields of its own a switch that shows them (a funnel), and an enum of API names its options in
 * words. Titles, help and enums come from the schema itself. A mode (MODES) hides the fields it refuses.
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
  // A report's sort: one of its columns and a direction (google/SortByField.tsx), typed when it holds more.
  order_by: { "ui:field": "SortByField", "ui:fieldReplacesAnyOrOneOf": true },
  // A report's filter: its text box, and a condition built from the property's fields (google/FilterBuilder.tsx).
  filter: { "ui:field": "ReportFilterField", "ui:fieldReplacesAnyOrOneOf": true },
};
/** Lists of metric or dimension names: picked by UI name from the chosen property's metadata. */
const NAME_LISTS: Record<string, string> = { metrics: "metric", dimensions: "dimension" };
/** One dimension's name (a funnel's breakdown): the same picker. */
const NAME_FIELDS: Record<string, string> = { breakdown: "dimension" };
/** Lists of event names (a funnel's steps): picked from the events the property collects. */
const EVENT_LISTS: Record<string, string> = { steps: "Step" };

/**
 * Modes of a step that take only some of its fields, by the field that switches them on: a funnel report
 * (Run Reports' `funnel`) takes the property, the periods and the funnel, and refuses the rest
 * (checkReportMode in src/tools/ga/report-request.ts). While a mode is on, the other fields are hidden
 * and not sent; its switch is shown right after these first fields.
 */
export const MODES: Record<
  string,
  {
    keeps: readonly string[];
    after: readonly string[];
    /** What the mode changes in the fields it keeps, for the data as it stands. */
    fields?: (data: Record<string, unknown>) => Record<string, UiSchema>;
  }
> = {
  funnel: {
    keeps: ["account", "property", "date_ranges", "funnel"],
    after: ["account", "property"],
    fields: (data) => ({ date_ranges: funnelPeriods(data.date_ranges) }),
  },
};

/**
 * A funnel covers one period (checkReportMode in src/tools/ga/report-request.ts refuses several: GA
 * splits each funnel row by period, and one summary over them would add periods up:
 * https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1alpha/properties/runFunnelReport#body.request_body.FIELDS.date_ranges). The periods field
 * says so before Run, and offers no second period: with one already there, it says to remove it.
 * With none yet it offers Add, as the report does, so the one period can be chosen (presets or custom
 * dates); without it a funnel could only ever cover the default last 7 days.
 */
function funnelPeriods(periods: unknown): UiSchema {
  const count = Array.isArray(periods) ? periods.length : 0;
  const extra = count - 1;
  const help =
    extra > 0
      ? `A funnel covers one period: remove ${extra === 1 ? "Period 2" : `Periods 2 to ${extra + 1}`} before Run, or switch the funnel off to compare periods.`
      : "A funnel covers one period. To compare periods, run the funnel once for each, or switch the funnel off.";
  return {
    "ui:description":
      count === 0
        ? "The period the funnel covers: the last 7 days unless you add one."
        : "The period the funnel covers.",
    "ui:help": help,
    "ui:options": { addable: count === 0 },
  };
}

/** Nothing but the form's empty placeholders all the way down (a typed `[]` or `false` is a value). */
export function untouched(value: unknown): boolean {
  if (value === null || value === undefined || value === "") return true;
  if (Array.isArray(value)) return value.length > 0 && value.every(untouched);
  if (value && typeof value === "object") return Object.values(value).every(untouched);
  return false;
}

/** The mode the data has switched on (its switch holds a value the person gave), if any. */
export function modeOf(data: Record<string, unknown>): string | undefined {
  return Object.keys(MODES).find((key) => data[key] !== undefined && !untouched(data[key]));
}

/** An optional object with required fields of its own (a funnel): shown behind a switch, off at first. */
const isSwitched = (node: Node, required: boolean): boolean =>
  !required &&
  node.type === "object" &&
  node.properties !== undefined &&
  Array.isArray(node.required) &&
  node.required.length > 0;

/** An enum of camelCase API names (eventName, pagePath): its options read as words. */
const isNameEnum = (node: Node): boolean =>
  Array.isArray(node.enum) &&
  node.enum.every((value) => typeof value === "string" && /^[a-z]+(?:[A-Z][a-z0-9]*)+$/.test(value));
const words = (name: string) => {
  const spaced = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
};

const REPLACES_UNION = { "ui:fieldReplacesAnyOrOneOf": true };

export function uiSchemaFor(node: Node, name?: string, required = true): UiSchema {
  if (name && PICKERS[name]) return PICKERS[name];
  if (name && NAME_FIELDS[name])
    return { "ui:field": "FieldNameField", "ui:options": { kind: NAME_FIELDS[name] } };
  if (isNameEnum(node)) return { "ui:enumNames": (node.enum as string[]).map(words) };
  if (isFreeObject(node)) return { "ui:field": "JsonField" };
  if (isScalarRecord(node)) return { "ui:field": "KeyValueField" };
  if (isPresetOrRange(node)) return { "ui:field": "PresetOrRangeField", ...REPLACES_UNION };
  if (isTextFirst(node)) return { "ui:field": "TextOrJsonField", ...REPLACES_UNION };
  const ui: UiSchema = isSwitched(node, required) ? { "ui:field": "SwitchedObjectField" } : {};
  if (node.items && typeof node.items === "object") ui.items = itemsUi(node.items as Node, name);
  const requiredKeys = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
  for (const [key, child] of Object.entries((node.properties ?? {}) as Record<string, Node>)) {
    ui[key] = uiSchemaFor(child, key, requiredKeys.has(key));
  }
  const switches = Object.keys(MODES).filter((key) => node.properties && key in (node.properties as object));
  if (switches.length > 0) {
    const after = MODES[switches[0] as string]?.after ?? [];
    const first = after.filter((key) => key in (node.properties as object));
    ui["ui:order"] = [...first, ...switches, "*"];
  }
  return ui;
}

function itemsUi(items: Node, name: string | undefined): UiSchema {
  if (name && NAME_LISTS[name])
    return { "ui:field": "FieldNameField", "ui:options": { kind: NAME_LISTS[name] } };
  if (name && EVENT_LISTS[name])
    return { "ui:field": "EventNameField", "ui:options": { title: EVENT_LISTS[name] } };
  return uiSchemaFor(items);
}

/** The uiSchema while a mode is on: the fields it does not take are hidden, those it keeps changed as it says. */
export function uiSchemaInMode(
  ui: UiSchema,
  mode: string | undefined,
  data: Record<string, unknown> = {},
): UiSchema {
  const keeps = mode ? MODES[mode]?.keeps : undefined;
  if (!keeps) return ui;
  const hidden: UiSchema = { ...ui };
  for (const [key, change] of Object.entries(MODES[mode as string]?.fields?.(data) ?? {})) {
    const now = (ui[key] ?? {}) as UiSchema;
    hidden[key] = {
      ...now,
      ...change,
      "ui:options": { ...(now["ui:options"] ?? {}), ...(change["ui:options"] ?? {}) },
    };
  }
  for (const key of Object.keys(ui)) {
    if (!key.startsWith("ui:") && !keeps.includes(key))
      hidden[key] = { "ui:field": "Nothing", "ui:widget": "hidden" };
  }
  return hidden;
}

/** The input as a mode sends it: only the fields it takes. */
export function inMode(input: Record<string, unknown>, mode: string | undefined): Record<string, unknown> {
  const keeps = mode ? MODES[mode]?.keeps : undefined;
  return keeps ? Object.fromEntries(Object.entries(input).filter(([key]) => keeps.includes(key))) : input;
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
