import type { FilterExpression, GaFilter, NumericValue } from "./filter-expression.js";

/**
 * Prints a FilterExpression in the simple syntax parseFilter reads (for messages, summaries and the
 * round-trip property test). Nested groups are parenthesized, so parsing the output gives the same tree.
 * caseSensitive flags have no simple syntax and are not printed.
 */
export function printFilter(expression: FilterExpression): string {
  if ("andGroup" in expression) return expression.andGroup.expressions.map(operand).join(" and ");
  if ("orGroup" in expression) return expression.orGroup.expressions.map(operand).join(" or ");
  if ("notExpression" in expression) return printNot(expression.notExpression);
  return printLeaf(expression.filter);
}

function operand(expression: FilterExpression): string {
  const grouped = ("andGroup" in expression || "orGroup" in expression) && groupSize(expression) > 1;
  return grouped ? `(${printFilter(expression)})` : printFilter(expression);
}

function groupSize(expression: FilterExpression): number {
  if ("andGroup" in expression) return expression.andGroup.expressions.length;
  if ("orGroup" in expression) return expression.orGroup.expressions.length;
  return 1;
}

function printNot(inner: FilterExpression): string {
  if ("filter" in inner) {
    const { filter } = inner;
    const field = filter.fieldName;
    if ("stringFilter" in filter && (filter.stringFilter.matchType ?? "EXACT") === "EXACT") {
      return `${field} != ${JSON.stringify(filter.stringFilter.value)}`;
    }
    if ("numericFilter" in filter && filter.numericFilter.operation === "EQUAL") {
      return `${field} != ${printNumber(filter.numericFilter.value)}`;
    }
    if ("inListFilter" in filter) return `${field} not in ${printList(filter.inListFilter.values)}`;
    if ("emptyFilter" in filter) return `${field} is not empty`;
  }
  return `not ${operand(inner)}`;
}

const STRING_OPERATORS = {
  EXACT: "==",
  CONTAINS: "contains",
  BEGINS_WITH: "begins_with",
  ENDS_WITH: "ends_with",
  FULL_REGEXP: "matches",
  PARTIAL_REGEXP: "=~",
} as const;
const NUMERIC_OPERATORS = {
  EQUAL: "==",
  LESS_THAN: "<",
  LESS_THAN_OR_EQUAL: "<=",
  GREATER_THAN: ">",
  GREATER_THAN_OR_EQUAL: ">=",
} as const;

function printLeaf(filter: GaFilter): string {
  const field = filter.fieldName;
  if ("stringFilter" in filter) {
    const { matchType = "EXACT", value } = filter.stringFilter;
    return `${field} ${STRING_OPERATORS[matchType]} ${JSON.stringify(value)}`;
  }
  if ("inListFilter" in filter) return `${field} in ${printList(filter.inListFilter.values)}`;
  if ("numericFilter" in filter) {
    const { operation, value } = filter.numericFilter;
    return `${field} ${NUMERIC_OPERATORS[operation]} ${printNumber(value)}`;
  }
  if ("betweenFilter" in filter) {
    const { fromValue, toValue } = filter.betweenFilter;
    return `${field} between ${printNumber(fromValue)} and ${printNumber(toValue)}`;
  }
  return `${field} is empty`;
}

function printList(values: readonly string[]): string {
  return `(${values.map((value) => JSON.stringify(value)).join(", ")})`;
}

/** Doubles always carry a "." or an exponent, so they parse back as doubles, not int64. */
export function printNumber(value: NumericValue): string {
  if ("int64Value" in value) return value.int64Value;
  const number = value.doubleValue;
  if (Object.is(number, -0)) return "-0.0";
  const text = String(number);
  return /[.e]/.test(text) ? text : `${text}.0`;
}
