/**
 * Filters typed with the names a person sees (console/src/filter-names.ts), turned into the step's API
 * names before a run: Run Reports' `filter` with the property's metrics and dimensions (the pickers' read
 * of its metadata), and a Marketo export's `where` with the lead fields' display names (Describe Lead2,
 * GET /rest/v1/leads/describe2.json, whose fields carry `name` and `displayName`:
 * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/leads#describe).
 * A name no field has is refused under the filter's own field.
 */
import { api, type ErrorInfo, runStep } from "./api.ts";
import { sortInApiNames } from "./column-names.ts";
import { type NamedField, withApiNames } from "./filter-names.ts";
import { propertyFields } from "./pickers.tsx";

type Input = Record<string, unknown>;
export type Named = { input: Input; problem?: undefined } | { input?: undefined; problem: ErrorInfo };

/** The refusal of a name, under `field` (titled `title` above Run). */
export function nameProblem(field: string, title: string, message: string): ErrorInfo {
  return {
    error: "invalid_input",
    message: `${title}: ${message}`,
    field,
    issues: [{ field, message }],
    // What a task's field shows under it (TaskFields.tsx).
    fieldWords: message,
  };
}

/** `text` with API names, or the problem to show under `field`. */
export function inApiNames(text: string, fields: readonly NamedField[], field: string, title: string) {
  const words = withApiNames(text, fields);
  return words.ok ? { text: words.filter } : { problem: nameProblem(field, title, words.message) };
}

/** The report's columns (its metrics and dimensions) by the property's UI names, where it has them. */
function reportColumns(input: Input, fields: readonly NamedField[]): NamedField[] {
  const names = [input.metrics, input.dimensions].flatMap((list) => (Array.isArray(list) ? list : []));
  return names
    .filter((name): name is string => typeof name === "string")
    .map((name) => fields.find((field) => field.api === name) ?? { api: name, ui: name });
}

/** Sort by's text, or each of its items' field, in API names; or the problem under Sort by. */
function sortInApi(
  orderBy: unknown,
  columns: readonly NamedField[],
): { value: unknown; problem?: ErrorInfo } {
  const refused = (message: string) => ({
    value: orderBy,
    problem: nameProblem("order_by", "Sort by", message),
  });
  if (typeof orderBy === "string") {
    const sort = sortInApiNames(orderBy, columns);
    return sort.ok ? { value: sort.value } : refused(sort.message);
  }
  if (!Array.isArray(orderBy)) return { value: orderBy };
  const items: unknown[] = [];
  for (const item of orderBy as unknown[]) {
    const field = (item as { field?: unknown } | null)?.field;
    if (typeof field !== "string") {
      items.push(item);
      continue;
    }
    const sort = sortInApiNames(field, columns);
    if (!sort.ok) return refused(sort.message);
    items.push({ ...(item as object), field: sort.value });
  }
  return { value: items };
}

/**
 * Run Reports' input with its filter and its sort in API names (as typed when the property's fields
 * cannot be read): Sort by takes the report's columns as the pickers show them ("-Views").
 */
export async function reportInApiNames(input: Input): Promise<Named> {
  const { filter, property, account, order_by: orderBy } = input;
  const sorted = typeof orderBy === "string" ? orderBy.trim() !== "" : Array.isArray(orderBy);
  if (typeof property !== "string" || (typeof filter !== "string" && !sorted)) return { input };
  let fields: NamedField[];
  try {
    const read = await propertyFields(typeof account === "string" ? account : undefined, property);
    fields = [...read.dimensions, ...read.metrics].map((one) => ({ api: one.apiName, ui: one.uiName }));
  } catch {
    return { input };
  }
  const named = typeof filter === "string" ? inApiNames(filter, fields, "filter", "Filter") : undefined;
  if (named?.problem) return { problem: named.problem };
  const sort = sorted ? sortInApi(orderBy, reportColumns(input, fields)) : undefined;
  if (sort?.problem) return { problem: sort.problem };
  return {
    input: { ...input, ...(named ? { filter: named.text } : {}), ...(sort ? { order_by: sort.value } : {}) },
  };
}

/** The instance's lead fields, by the connection in force they were read from. */
const leadFields = new Map<string, Promise<NamedField[]>>();

/**
 * Which Marketo connection is in force (its REST endpoint and client, where they come from): fields read
 * from one instance are never offered for another after the connection is switched (saved, removed, or
 * changed in another tab). One local status read, no call to Marketo.
 */
async function marketoConnection(): Promise<string> {
  type Status = { active: { source: string; restEndpoint: string; clientId: string } | null };
  const { active } = await api<Status>("GET", "/console/api/marketo");
  return active ? JSON.stringify([active.source, active.restEndpoint, active.clientId]) : "";
}

/** The instance's lead fields by display name (one Describe Lead2 read per connection). */
export async function marketoLeadFields(step: string, signal?: AbortSignal): Promise<NamedField[]> {
  const connection = await marketoConnection();
  let fields = leadFields.get(connection);
  if (!fields) {
    fields = describeLeads(step, signal ?? new AbortController().signal);
    leadFields.set(connection, fields);
    fields.catch(() => leadFields.delete(connection));
  }
  return fields;
}

/** Describe Lead2's fields as API and display names. */
async function describeLeads(step: string, signal: AbortSignal): Promise<NamedField[]> {
  const describe = { method: "GET", endpoint: "/rest/v1/leads/describe2.json" };
  for await (const event of runStep(step, describe, signal)) {
    if (event.type === "error") throw new Error(event.error.message);
    if (event.type !== "result") continue;
    const [schema] = Array.isArray(event.data.result) ? event.data.result : [];
    const fields = (schema as { fields?: { name?: unknown; displayName?: unknown }[] } | undefined)?.fields;
    return (fields ?? []).flatMap((one) =>
      typeof one.name === "string" && typeof one.displayName === "string"
        ? [{ api: one.name, ui: one.displayName }]
        : [],
    );
  }
  return [];
}
