import { ValidationError } from "../../errors.js";
import type { FieldCatalog, FieldKind, NameProblem } from "./field-catalog.js";
import type { FilterExpression } from "./filter-expression.js";
import { printFilter } from "./filter-print.js";

export interface SplitFilters {
  dimensionFilter?: FilterExpression;
  metricFilter?: FilterExpression;
}

type TreeKind = FieldKind | "mixed";

/** Field names used by an expression, in order of appearance. */
export function filterFields(expression: FilterExpression): string[] {
  if ("andGroup" in expression) return expression.andGroup.expressions.flatMap(filterFields);
  if ("orGroup" in expression) return expression.orGroup.expressions.flatMap(filterFields);
  if ("notExpression" in expression) return filterFields(expression.notExpression);
  return [expression.filter.fieldName];
}

/** Unknown names in the filter, with "did you mean" from the property's metadata. */
export function filterNameProblems(expression: FilterExpression, catalog: FieldCatalog): NameProblem[] {
  const names = [...new Set(filterFields(expression))];
  return names.flatMap((name) => catalog.problem(name, undefined, "filter") ?? []);
}

function kindOf(expression: FilterExpression, catalog: FieldCatalog): TreeKind {
  const kinds = new Set(filterFields(expression).map((name) => catalog.get(name)?.kind ?? "dimension"));
  return kinds.size === 1 ? ([...kinds][0] as FieldKind) : "mixed";
}

const combine = (expressions: FilterExpression[]): FilterExpression | undefined =>
  expressions.length <= 1 ? expressions[0] : { andGroup: { expressions } };

/**
 * GA takes dimension conditions in dimensionFilter and metric conditions in metricFilter and ANDs the two
 * (REAL-API B2: "dimensions and metrics cannot mix in one expression"). An `and` that mixes both kinds is
 * therefore split; an `or` or a `not` over both kinds has no equivalent and is refused with why.
 * Call after filterNameProblems: every name must be in the catalog.
 */
export function splitFilter(expression: FilterExpression, catalog: FieldCatalog): SplitFilters {
  const dimensions: FilterExpression[] = [];
  const metrics: FilterExpression[] = [];
  const visit = (node: FilterExpression) => {
    const kind = kindOf(node, catalog);
    if (kind === "dimension") dimensions.push(node);
    else if (kind === "metric") metrics.push(node);
    else if ("andGroup" in node) node.andGroup.expressions.forEach(visit);
    else refuse(node, catalog);
  };
  visit(expression);
  const dimensionFilter = combine(dimensions);
  const metricFilter = combine(metrics);
  return { ...(dimensionFilter ? { dimensionFilter } : {}), ...(metricFilter ? { metricFilter } : {}) };
}

function refuse(node: FilterExpression, catalog: FieldCatalog): never {
  const names = [...new Set(filterFields(node))];
  const of = (kind: FieldKind) => names.filter((name) => catalog.get(name)?.kind === kind).join(", ");
  const operator = "orGroup" in node ? "or" : "not";
  throw new ValidationError(
    "filter",
    `(${printFilter(node).slice(0, 300)}) combines dimensions (${of("dimension")}) and metrics (${of("metric")}) ` +
      `under "${operator}". GA applies a dimension filter and a metric filter separately and keeps rows that pass ` +
      "both, so such a condition cannot be expressed in one report.",
    {
      hint:
        "Join dimension and metric conditions with and only, or run one report per alternative of the or " +
        '(e.g. one report with country == "France", another with sessions > 100).',
    },
  );
}
