import type { Condition, Expression, Literal } from "./ast.js";
import { isFilterKeyword } from "./parser.js";
import { printShift } from "./shift.js";

const PLAIN = /^[A-Za-z_][A-Za-z0-9_:.]*$/;

/** A field as the parser reads it back: as it is, or quoted when it has other characters or is a keyword. */
function printField(field: string): string {
  return PLAIN.test(field) && !isFilterKeyword(field) ? field : JSON.stringify(field);
}

/**
 * A field as the parser reads it after an operator, where a quoted text is a value: a name with other characters
 * inside a dotted path has them quoted after its head (joined."Visit Webpage", as the lexer reads a path with a
 * quoted part); a name with no plain head cannot be written there, and is quoted as the field it is elsewhere.
 */
export function operandField(field: string): string {
  if (PLAIN.test(field) && !isFilterKeyword(field)) return field;
  for (let at = field.lastIndexOf("."); at > 0; at = field.lastIndexOf(".", at - 1)) {
    const head = field.slice(0, at);
    if (PLAIN.test(head) && at < field.length - 1) return `${head}.${JSON.stringify(field.slice(at + 1))}`;
  }
  return JSON.stringify(field);
}

/**
 * Prints an expression in the syntax parseExpression reads (for messages, summaries and the round-trip
 * property tests). Nested groups are parenthesized, so parsing the output gives the same tree.
 */
export function printExpression(expression: Expression): string {
  if (expression.kind === "and" || expression.kind === "or") {
    return expression.of.map(operand).join(` ${expression.kind} `);
  }
  if (expression.kind === "not") return printNot(expression.of);
  return printCondition(expression);
}

function operand(expression: Expression): string {
  const grouped = (expression.kind === "and" || expression.kind === "or") && expression.of.length > 1;
  return grouped ? `(${printExpression(expression)})` : printExpression(expression);
}

function printNot(inner: Expression): string {
  if (inner.kind === "compare" && inner.op === "eq") {
    return `${printField(inner.field)} != ${printLiteral(inner.value)}`;
  }
  if (inner.kind === "fields" && inner.op === "eq") {
    return `${printField(inner.field)} != ${operandField(inner.other)}${printShift(inner.shift)}`;
  }
  if (inner.kind === "in") return `${printField(inner.field)} not in ${printList(inner.values)}`;
  if (inner.kind === "empty") return `${printField(inner.field)} is not empty`;
  return `not ${operand(inner)}`;
}

const COMPARISONS = { eq: "==", lt: "<", le: "<=", gt: ">", ge: ">=" } as const;
const MATCHES = {
  contains: "contains",
  begins_with: "begins_with",
  ends_with: "ends_with",
  full_regex: "matches",
  partial_regex: "=~",
} as const;

function printCondition(condition: Condition): string {
  const field = printField(condition.field);
  switch (condition.kind) {
    case "compare":
      return `${field} ${COMPARISONS[condition.op]} ${printLiteral(condition.value)}`;
    case "match":
      return `${field} ${MATCHES[condition.op]} ${JSON.stringify(condition.value)}`;
    case "in":
      return `${field} in ${printList(condition.values)}`;
    case "between":
      return `${field} between ${printLiteral(condition.from)} and ${printLiteral(condition.to)}`;
    case "fields":
      return `${field} ${COMPARISONS[condition.op]} ${operandField(condition.other)}${printShift(condition.shift)}`;
    default:
      return `${field} is empty`;
  }
}

export function printLiteral(literal: Literal): string {
  return literal.kind === "text" ? JSON.stringify(literal.value) : literal.text;
}

function printList(values: readonly Literal[]): string {
  return `(${values.map(printLiteral).join(", ")})`;
}
