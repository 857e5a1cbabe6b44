import type { Condition, Expression, Literal, TextMatch } from "../filter/ast.js";
import { printExpression } from "../filter/print.js";
import { filterInWords } from "../filter/words.js";
import type { FilterExpression, GaFilter, NumericValue, StringMatchType } from "./filter-expression.js";

/**
 * Prints a GA FilterExpression in the shared filter syntax (tools/filter/print.ts), for messages,
 * summaries and the round-trip property test. caseSensitive flags have no simple syntax and are not printed.
 */
export function printFilter(expression: FilterExpression): string {
  return printExpression(fromGa(expression));
}

const MATCHES: Record<StringMatchType, TextMatch | "eq"> = {
  EXACT: "eq",
  CONTAINS: "contains",
  BEGINS_WITH: "begins_with",
  ENDS_WITH: "ends_with",
  FULL_REGEXP: "full_regex",
  PARTIAL_REGEXP: "partial_regex",
};
const COMPARISONS = {
  EQUAL: "eq",
  LESS_THAN: "lt",
  LESS_THAN_OR_EQUAL: "le",
  GREATER_THAN: "gt",
  GREATER_THAN_OR_EQUAL: "ge",
} as const;

const number = (value: NumericValue): Literal => {
  const text = printNumber(value);
  return { kind: "number", text, value: Number(text) };
};

function condition(filter: GaFilter): Condition {
  const field = filter.fieldName;
  if ("stringFilter" in filter) {
    const match = MATCHES[filter.stringFilter.matchType ?? "EXACT"];
    const value = filter.stringFilter.value;
    return match === "eq"
      ? { kind: "compare", field, op: "eq", value: { kind: "text", value } }
      : { kind: "match", field, op: match, value };
  }
  if ("inListFilter" in filter) {
    return {
      kind: "in",
      field,
      values: filter.inListFilter.values.map((value) => ({ kind: "text", value })),
    };
  }
  if ("numericFilter" in filter) {
    const { operation, value } = filter.numericFilter;
    return { kind: "compare", field, op: COMPARISONS[operation], value: number(value) };
  }
  if ("betweenFilter" in filter) {
    const { fromValue, toValue } = filter.betweenFilter;
    return { kind: "between", field, from: number(fromValue), to: number(toValue) };
  }
  return { kind: "empty", field };
}

/** The shared tree of a GA FilterExpression (the inverse of filter-parser.ts' toGa). */
export function fromGa(expression: FilterExpression): Expression {
  if ("andGroup" in expression) return { kind: "and", of: expression.andGroup.expressions.map(fromGa) };
  if ("orGroup" in expression) return { kind: "or", of: expression.orGroup.expressions.map(fromGa) };
  if ("notExpression" in expression) return { kind: "not", of: fromGa(expression.notExpression) };
  return condition(expression.filter);
}

/** Doubles always carry a "." or an exponent, so they parse back as doubles, not int64. */
export function printNumber(value: NumericValue): string {
  if ("int64Value" in value) return value.int64Value;
  const number = value.doubleValue;
  if (Object.is(number, -0)) return "-0.0";
  const text = String(number);
  return /[.e]/.test(text) ? text : `${text}.0`;
}

/**
 * A report's filter (its request's dimensionFilter and metricFilter, which GA ANDs) in a person's words,
 * each field by its UI name: "Device category = mobile and Country = United States"; none without one.
 */
export function reportFilterWords(
  request: { dimensionFilter?: unknown; metricFilter?: unknown },
  ui: (field: string) => string,
): string | undefined {
  const parts = [request.dimensionFilter, request.metricFilter].filter(Boolean) as FilterExpression[];
  if (parts.length === 0) return undefined;
  const [one] = parts;
  return filterInWords(parts.length === 1 && one ? fromGa(one) : { kind: "and", of: parts.map(fromGa) }, ui);
}
