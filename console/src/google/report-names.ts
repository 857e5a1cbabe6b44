/**
 * Run Reports' `filter` and Sort by typed with the property's UI names (the pickers' read of its metadata),
 * turned into API names before a run (console/src/person-filters.ts words a refusal).
 */
import type { ErrorInfo } from "../api.ts";
import { sortInApiNames } from "../column-names.ts";
import type { NamedField } from "../filter-names.ts";
import { inApiNames, type Named, nameProblem } from "../person-filters.ts";
import { propertyFields } from "./pickers.tsx";

type Input = Record<string, unknown>;

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
