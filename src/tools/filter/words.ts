/**
 * A filter in a person's words, for a title: each field by the name a person knows (`name`, e.g. a
 * property's UI names), values as they are ("Device category = mobile and Country = United States"), in the
 * words the console's Filter box reads (console/src/filter-names.ts). Not for the parser: a value is not
 * quoted. A chart's title says its report's filter (console review s10, C2).
 */
import type { Condition, Expression, Literal } from "./ast.js";
import { shiftWords } from "./shift.js";

const COMPARISONS = { eq: "=", lt: "<", le: "≤", gt: ">", ge: "≥" } as const;
const MATCHES = {
  contains: "contains",
  begins_with: "begins with",
  ends_with: "ends with",
  full_regex: "matches",
  partial_regex: "contains a match for",
} as const;

const value = (literal: Literal) => (literal.kind === "text" ? literal.value : literal.text);
const list = (values: readonly Literal[]) => values.map(value).join(", ");

/** The expression in words, its fields named by `name`. */
export function filterInWords(expression: Expression, name: (field: string) => string): string {
  const words = (node: Expression): string => {
    if (node.kind === "and" || node.kind === "or")
      return node.of.map((part) => grouped(part, words)).join(` ${node.kind} `);
    if (node.kind === "not") return negated(node.of, name, words);
    return condition(node, name);
  };
  return words(expression);
}

/** An and/or inside another in parentheses, so the grouping reads as it was asked. */
function grouped(node: Expression, words: (node: Expression) => string): string {
  return (node.kind === "and" || node.kind === "or") && node.of.length > 1 ? `(${words(node)})` : words(node);
}

function negated(inner: Expression, name: (field: string) => string, words: (node: Expression) => string) {
  if (inner.kind === "compare" && inner.op === "eq") return `${name(inner.field)} ≠ ${value(inner.value)}`;
  if (inner.kind === "fields" && inner.op === "eq")
    return `${name(inner.field)} ≠ ${name(inner.other)}${shiftWords(inner.shift)}`;
  if (inner.kind === "in") return `${name(inner.field)} is not one of ${list(inner.values)}`;
  if (inner.kind === "empty") return `${name(inner.field)} is not empty`;
  if (inner.kind === "match" && inner.op === "contains")
    return `${name(inner.field)} does not contain ${inner.value}`;
  return `not ${grouped(inner, words)}`;
}

function condition(node: Condition, name: (field: string) => string): string {
  const field = name(node.field);
  switch (node.kind) {
    case "compare":
      return `${field} ${COMPARISONS[node.op]} ${value(node.value)}`;
    case "match":
      return `${field} ${MATCHES[node.op]} ${node.value}`;
    case "in":
      return `${field} is one of ${list(node.values)}`;
    case "between":
      return `${field} between ${value(node.from)} and ${value(node.to)}`;
    case "fields":
      return `${field} ${COMPARISONS[node.op]} ${name(node.other)}${shiftWords(node.shift)}`;
    default:
      return `${field} is empty`;
  }
}
