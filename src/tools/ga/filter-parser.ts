import type { Condition, Expression, Literal, TextMatch } from "../filter/ast.js";
import type { FilterSource } from "../filter/lexer.js";
import { GA_DIALECT, parseExpression } from "../filter/parser.js";
import type {
  FilterExpression,
  GaFilter,
  NumericOperation,
  NumericValue,
  StringMatchType,
} from "./filter-expression.js";

export { isFilterKeyword } from "../filter/parser.js";

/**
 * Run Reports' filter: the shared syntax (tools/filter/parser.ts, GA's dialect) turned into a GA
 * FilterExpression (REAL-API B2). An and/or chain becomes one andGroup/orGroup; `!=`, `not in` and
 * `is not empty` become a notExpression around the condition.
 */
export const FILTER_SYNTAX_HINT =
  'Write conditions as field operator value, e.g. country == "France", sessions > 10, pagePath contains "/blog", ' +
  'country in ("France", "Germany"), sessions between 10 and 20, pagePath is empty; quote text values; combine ' +
  "with and, or, not and parentheses.";

/** `field` names the input field the filter came in, in errors: filter, or dimensionFilter / metricFilter. */
export function parseFilter(source: string, field = "filter"): FilterExpression {
  const at: FilterSource = { field, hint: FILTER_SYNTAX_HINT };
  return toGa(parseExpression(source, at, GA_DIALECT));
}

const MATCH_TYPES: Record<TextMatch, StringMatchType> = {
  contains: "CONTAINS",
  begins_with: "BEGINS_WITH",
  ends_with: "ENDS_WITH",
  full_regex: "FULL_REGEXP",
  partial_regex: "PARTIAL_REGEXP",
};
const OPERATIONS = {
  eq: "EQUAL",
  lt: "LESS_THAN",
  le: "LESS_THAN_OR_EQUAL",
  gt: "GREATER_THAN",
  ge: "GREATER_THAN_OR_EQUAL",
} as const satisfies Record<string, NumericOperation>;

/** Integers become int64Value strings (GA's int64 encoding), others doubleValue. */
function numeric(literal: Literal): NumericValue {
  if (literal.kind !== "number") throw new TypeError("GA's dialect compares numbers only");
  return /[.eE]/.test(literal.text)
    ? { doubleValue: literal.value }
    : { int64Value: BigInt(literal.text).toString() };
}

function text(literal: Literal): string {
  return literal.kind === "text" ? literal.value : literal.text;
}

function leaf(condition: Condition): GaFilter {
  const fieldName = condition.field;
  switch (condition.kind) {
    case "compare":
      if (condition.op === "eq" && condition.value.kind === "text") {
        return { fieldName, stringFilter: { matchType: "EXACT", value: condition.value.value } };
      }
      return {
        fieldName,
        numericFilter: { operation: OPERATIONS[condition.op], value: numeric(condition.value) },
      };
    case "match":
      return { fieldName, stringFilter: { matchType: MATCH_TYPES[condition.op], value: condition.value } };
    case "in":
      return { fieldName, inListFilter: { values: condition.values.map(text) } };
    case "between":
      return {
        fieldName,
        betweenFilter: { fromValue: numeric(condition.from), toValue: numeric(condition.to) },
      };
    case "fields":
      // GA's dialect never parses one (GA_DIALECT.recordValues is false): a FilterExpression compares with values.
      throw new TypeError("GA's filter compares a field with a value, not with another field");
    default:
      return { fieldName, emptyFilter: {} };
  }
}

export function toGa(expression: Expression): FilterExpression {
  switch (expression.kind) {
    case "and":
      return { andGroup: { expressions: expression.of.map(toGa) } };
    case "or":
      return { orGroup: { expressions: expression.of.map(toGa) } };
    case "not":
      return { notExpression: toGa(expression.of) };
    default:
      return { filter: leaf(expression) };
  }
}
