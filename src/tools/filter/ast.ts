/**
 * The filter language's tree, the same for every service: Run Reports turns it into GA's FilterExpression
 * (tools/ga/filter-parser.ts), Marketo API Call evaluates it on the records it reads (tools/records/match.ts).
 */

/** A value as written: text (quoted), or a number with its source text (GA keeps int64 exact from it). */
export type Literal = { kind: "text"; value: string } | { kind: "number"; text: string; value: number };

export type Comparison = "eq" | "lt" | "le" | "gt" | "ge";
export type TextMatch = "contains" | "begins_with" | "ends_with" | "full_regex" | "partial_regex";

export type Condition =
  | { kind: "compare"; field: string; op: Comparison; value: Literal }
  | { kind: "match"; field: string; op: TextMatch; value: string }
  | { kind: "in"; field: string; values: Literal[] }
  | { kind: "between"; field: string; from: Literal; to: Literal }
  | { kind: "empty"; field: string }
  /**
   * Two fields of the same record compared (records only): `updatedAt > createdAt`, `joined.later > joined.earlier`,
   * the second moved by a shift when one is written (`createdAt >= joined.activityDate - 24h`).
   */
  | { kind: "fields"; field: string; op: Comparison; other: string; shift?: Shift };

/**
 * What is added to the second field before comparing: with a unit, a span of time (both sides compared as times);
 * without, a number (both compared as numbers). Signed: `- 24h` is -24 hours.
 */
export interface Shift {
  amount: number;
  /** The number as written, without its sign: printed back as it was (int64's largest is no exact double). */
  text: string;
  unit?: ShiftUnit;
}
export type ShiftUnit = "minute" | "hour" | "day" | "week";

export type Expression =
  | { kind: "and"; of: Expression[] }
  | { kind: "or"; of: Expression[] }
  | { kind: "not"; of: Expression }
  | Condition;

/** An expression's conditions in order of appearance, each with whether a `not` (an odd number of them) holds it. */
function leaves(expression: Expression, negated = false): { condition: Condition; negated: boolean }[] {
  if (expression.kind === "and" || expression.kind === "or")
    return expression.of.flatMap((of) => leaves(of, negated));
  if (expression.kind === "not") return leaves(expression.of, !negated);
  return [{ condition: expression, negated }];
}

/** Field names an expression uses, in order of appearance (repeats included). */
export function expressionFields(expression: Expression): string[] {
  return leaves(expression).flatMap(({ condition }) =>
    condition.kind === "fields" ? [condition.field, condition.other] : [condition.field],
  );
}

/** The fields conditions test (the names before the operator), in order of appearance. */
export function testedFields(expression: Expression): string[] {
  return leaves(expression).map(({ condition }) => condition.field);
}

/** The operators as written: `!=` is a negated `==`. */
const WRITTEN: Record<Comparison, string> = { eq: "==", lt: "<", le: "<=", gt: ">", ge: ">=" };

/**
 * The pairs of fields an expression compares (`other`: the name after the operator, `op` the operator as written),
 * in order of appearance.
 */
export function comparedFields(expression: Expression): { field: string; other: string; op: string }[] {
  return leaves(expression).flatMap(({ condition, negated }) =>
    condition.kind === "fields"
      ? [
          {
            field: condition.field,
            other: condition.other,
            op: negated && condition.op === "eq" ? "!=" : WRITTEN[condition.op],
          },
        ]
      : [],
  );
}
