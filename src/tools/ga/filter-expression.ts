import { z } from "zod";
import { ValidationError } from "../../errors.js";
import { issuePath } from "../../schemas/json-schema.js";
import { isPlainObject, ownValue } from "../input/schema-walk.js";

/** GA's FilterExpression (REAL-API B2): exactly one of andGroup, orGroup, notExpression, filter. */
export type NumericValue = { int64Value: string } | { doubleValue: number };
export type StringMatchType =
  | "EXACT"
  | "BEGINS_WITH"
  | "ENDS_WITH"
  | "CONTAINS"
  | "FULL_REGEXP"
  | "PARTIAL_REGEXP";
export type NumericOperation =
  | "EQUAL"
  | "LESS_THAN"
  | "LESS_THAN_OR_EQUAL"
  | "GREATER_THAN"
  | "GREATER_THAN_OR_EQUAL";
export type GaFilter = { fieldName: string } & (
  | { stringFilter: { matchType?: StringMatchType; value: string; caseSensitive?: boolean } }
  | { inListFilter: { values: string[]; caseSensitive?: boolean } }
  | { numericFilter: { operation: NumericOperation; value: NumericValue } }
  | { betweenFilter: { fromValue: NumericValue; toValue: NumericValue } }
  | { emptyFilter: Record<string, never> }
);
export type FilterExpression =
  | { andGroup: { expressions: FilterExpression[] } }
  | { orGroup: { expressions: FilterExpression[] } }
  | { notExpression: FilterExpression }
  | { filter: GaFilter };

const NumericValueSchema: z.ZodType<NumericValue> = z.union([
  z.strictObject({ int64Value: z.string().regex(/^-?\d{1,19}$/) }),
  z.strictObject({ doubleValue: z.number() }),
]);
export const GaFilterSchema: z.ZodType<GaFilter> = z.union([
  z.strictObject({
    fieldName: z.string().min(1),
    stringFilter: z.strictObject({
      matchType: z
        .enum(["EXACT", "BEGINS_WITH", "ENDS_WITH", "CONTAINS", "FULL_REGEXP", "PARTIAL_REGEXP"])
        .optional(),
      value: z.string(),
      caseSensitive: z.boolean().optional(),
    }),
  }),
  z.strictObject({
    fieldName: z.string().min(1),
    inListFilter: z.strictObject({
      values: z.array(z.string()).min(1),
      caseSensitive: z.boolean().optional(),
    }),
  }),
  z.strictObject({
    fieldName: z.string().min(1),
    numericFilter: z.strictObject({
      operation: z.enum([
        "EQUAL",
        "LESS_THAN",
        "LESS_THAN_OR_EQUAL",
        "GREATER_THAN",
        "GREATER_THAN_OR_EQUAL",
      ]),
      value: NumericValueSchema,
    }),
  }),
  z.strictObject({
    fieldName: z.string().min(1),
    betweenFilter: z.strictObject({ fromValue: NumericValueSchema, toValue: NumericValueSchema }),
  }),
  z.strictObject({ fieldName: z.string().min(1), emptyFilter: z.strictObject({}) }),
]);
export const FilterExpressionSchema: z.ZodType<FilterExpression> = z.lazy(() =>
  z.union([
    z.strictObject({
      andGroup: z.strictObject({ expressions: z.array(FilterExpressionSchema).min(1).max(50) }),
    }),
    z.strictObject({
      orGroup: z.strictObject({ expressions: z.array(FilterExpressionSchema).min(1).max(50) }),
    }),
    z.strictObject({ notExpression: FilterExpressionSchema }),
    z.strictObject({ filter: GaFilterSchema }),
  ]),
);

const MAX_DEPTH = 32;

/** The sub-expressions a raw value names (before it is known to be a FilterExpression), for the depth check. */
function subExpressions(raw: unknown): unknown[] {
  if (!isPlainObject(raw)) return [];
  const groups = [ownValue(raw, "andGroup"), ownValue(raw, "orGroup")].flatMap((group) => {
    const expressions = isPlainObject(group) ? ownValue(group, "expressions") : undefined;
    return Array.isArray(expressions) ? expressions : [];
  });
  return Object.hasOwn(raw, "notExpression") ? [...groups, raw.notExpression] : groups;
}

/**
 * Whether a raw expression nests deeper than MAX_DEPTH groups. Checked before zod, whose recursive
 * validation of a 20,000-level notExpression overflowed the stack; iterative for the same reason.
 */
function nestsTooDeep(raw: unknown): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value: raw, depth: 1 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const children = subExpressions(next.value);
    if (children.length > 0 && next.depth >= MAX_DEPTH) return true;
    for (const value of children) pending.push({ value, depth: next.depth + 1 });
  }
  return false;
}

/**
 * Checks a raw FilterExpression object a caller passed instead of the simple syntax. It is validated here
 * rather than in the input's JSON Schema: its recursive definition would bloat every tool listing.
 */
export function checkFilterExpression(raw: unknown, field = "filter"): FilterExpression {
  if (nestsTooDeep(raw)) {
    throw new ValidationError(field, `it nests deeper than ${MAX_DEPTH} levels.`, {
      hint: "Flatten the groups.",
    });
  }
  const parsed = FilterExpressionSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${field}.${issuePath(issue.path)}` : field;
    throw new ValidationError(
      where,
      `not a valid GA FilterExpression (${issue?.message ?? "unexpected shape"}).`,
      {
        hint:
          "Give exactly one of andGroup{expressions}, orGroup{expressions}, notExpression or filter{fieldName, " +
          "stringFilter|inListFilter|numericFilter|betweenFilter|emptyFilter}, or use the simple syntax, " +
          'e.g. country == "France" and sessions > 10.',
      },
    );
  }
  return parsed.data;
}
