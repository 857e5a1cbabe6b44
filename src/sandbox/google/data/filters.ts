/**
 * FilterExpression (dimensionFilter / metricFilter) parsing and evaluation, per the discovery document:
 * exactly one of andGroup, orGroup, notExpression, filter; a filter holds exactly one of stringFilter,
 * inListFilter, numericFilter, betweenFilter, emptyFilter. Dimensions and metrics cannot be mixed:
 * dimension filters run on facts before aggregation, metric filters on aggregated rows (SQL HAVING).
 */
import { Re2Refusal, re2Pattern, SandboxLimit } from "./regular-expressions.js";
import { invalidArgument, isObject, rejectUnknownKeys } from "./rpc.js";

export type FieldKind = "dimension" | "metric";
export type FieldValue = (field: string) => string | number;

export interface CompiledFilter {
  /** Every field the expression reads. */
  readonly fields: ReadonlySet<string>;
  test(value: FieldValue): boolean;
}

type Test = (value: FieldValue) => boolean;

interface FilterContext {
  kind: FieldKind;
  /** "dimension", "metric" or undefined for an unknown name. */
  kindOf(field: string): FieldKind | undefined;
  /** Builds the "not a valid dimension/metric" error with the schema link of this method. */
  unknownField(field: string, kind: FieldKind): Error;
  fields: Set<string>;
}

const EXPRESSION_KEYS = ["andGroup", "orGroup", "notExpression", "filter"];
const FILTER_KEYS = ["stringFilter", "inListFilter", "numericFilter", "betweenFilter", "emptyFilter"];
const MAX_REGEXP_LENGTH = 1_000;

function exactlyOne(body: Record<string, unknown>, keys: readonly string[], where: string): string {
  const present = keys.filter((k) => body[k] !== undefined);
  if (present.length !== 1) {
    throw invalidArgument(`${where} must set exactly one of ${keys.join(", ")}; it sets ${present.length}.`);
  }
  return present[0] as string;
}

function numericValue(raw: unknown, where: string): number {
  if (!isObject(raw))
    throw invalidArgument(`${where} must be a NumericValue ({"int64Value":"5"} or {"doubleValue":5}).`);
  rejectUnknownKeys(raw, ["int64Value", "doubleValue"], where);
  const key = exactlyOne(raw, ["int64Value", "doubleValue"], where);
  const value = raw[key];
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (
    typeof number !== "number" ||
    !Number.isFinite(number) ||
    (key === "int64Value" && !Number.isInteger(number))
  ) {
    throw invalidArgument(`${where}.${key} is not a valid ${key === "int64Value" ? "int64" : "double"}.`);
  }
  return number;
}

const toNumber = (value: string | number): number =>
  typeof value === "number" ? value : value.trim() === "" ? Number.NaN : Number(value);

function stringTest(raw: Record<string, unknown>, where: string): (actual: string) => boolean {
  rejectUnknownKeys(raw, ["matchType", "value", "caseSensitive"], where);
  if (typeof raw.value !== "string") throw invalidArgument(`${where}.value must be a string.`);
  const sensitive = raw.caseSensitive === true;
  const wanted = sensitive ? raw.value : raw.value.toLowerCase();
  const norm = (s: string): string => (sensitive ? s : s.toLowerCase());
  const matchType = raw.matchType ?? "EXACT";
  switch (matchType) {
    case "MATCH_TYPE_UNSPECIFIED":
    case "EXACT":
      return (s) => norm(s) === wanted;
    case "BEGINS_WITH":
      return (s) => norm(s).startsWith(wanted);
    case "ENDS_WITH":
      return (s) => norm(s).endsWith(wanted);
    case "CONTAINS":
      return (s) => norm(s).includes(wanted);
    case "FULL_REGEXP":
    case "PARTIAL_REGEXP": {
      if (raw.value.length > MAX_REGEXP_LENGTH)
        throw invalidArgument(`${where}.value: regular expression too long.`);
      let pattern: RegExp;
      try {
        pattern = re2Pattern(raw.value, { full: matchType === "FULL_REGEXP", caseSensitive: sensitive });
      } catch (error) {
        if (error instanceof SandboxLimit) {
          throw invalidArgument(
            `${where}.value: Google Analytics accepts this regular expression, the sandbox cannot run it: ${error.message}.`,
          );
        }
        // RE2's own words for what it refuses (lookahead, backreferences), after the pattern.
        const why = error instanceof Re2Refusal ? ` (${error.message})` : "";
        throw invalidArgument(`${where}.value is not a valid regular expression: ${raw.value}${why}`);
      }
      return (s) => pattern.test(s);
    }
    default:
      throw invalidArgument(
        `${where}.matchType '${String(matchType)}' is invalid. Use EXACT, BEGINS_WITH, ENDS_WITH, CONTAINS, FULL_REGEXP or PARTIAL_REGEXP.`,
      );
  }
}

function numericTest(raw: Record<string, unknown>, where: string): (actual: number) => boolean {
  rejectUnknownKeys(raw, ["operation", "value"], where);
  const wanted = numericValue(raw.value, `${where}.value`);
  switch (raw.operation) {
    case "EQUAL":
      return (n) => n === wanted;
    case "LESS_THAN":
      return (n) => n < wanted;
    case "LESS_THAN_OR_EQUAL":
      return (n) => n <= wanted;
    case "GREATER_THAN":
      return (n) => n > wanted;
    case "GREATER_THAN_OR_EQUAL":
      return (n) => n >= wanted;
    default:
      throw invalidArgument(
        `${where}.operation '${String(raw.operation)}' is invalid. Use EQUAL, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN or GREATER_THAN_OR_EQUAL.`,
      );
  }
}

function compileLeaf(raw: unknown, where: string, ctx: FilterContext): Test {
  if (!isObject(raw)) throw invalidArgument(`${where} must be an object.`);
  rejectUnknownKeys(raw, ["fieldName", ...FILTER_KEYS], where);
  const field = raw.fieldName;
  if (typeof field !== "string" || field === "") throw invalidArgument(`${where}.fieldName is required.`);
  const kind = ctx.kindOf(field);
  if (kind === undefined) throw ctx.unknownField(field, ctx.kind);
  if (kind !== ctx.kind) {
    const target = ctx.kind === "dimension" ? "metricFilter" : "dimensionFilter";
    throw invalidArgument(
      `Field ${field} is a ${kind}; ${ctx.kind}Filter accepts only ${ctx.kind}s. Move this filter to ${target}.`,
    );
  }
  ctx.fields.add(field);
  const type = exactlyOne(raw, FILTER_KEYS, where);
  const body = raw[type];
  if (!isObject(body)) throw invalidArgument(`${where}.${type} must be an object.`);
  const at = `${where}.${type}`;
  if (ctx.kind === "metric" && type !== "numericFilter" && type !== "betweenFilter") {
    throw invalidArgument(`${at} cannot be used on metric ${field}; use numericFilter or betweenFilter.`);
  }
  switch (type) {
    case "stringFilter": {
      const test = stringTest(body, at);
      return (value) => test(String(value(field)));
    }
    case "inListFilter": {
      rejectUnknownKeys(body, ["values", "caseSensitive"], at);
      const values = body.values;
      if (!Array.isArray(values) || values.length === 0 || values.some((v) => typeof v !== "string")) {
        throw invalidArgument(`${at}.values must be a non-empty list of strings.`);
      }
      const sensitive = body.caseSensitive === true;
      const set = new Set((values as string[]).map((v) => (sensitive ? v : v.toLowerCase())));
      return (value) => {
        const actual = String(value(field));
        return set.has(sensitive ? actual : actual.toLowerCase());
      };
    }
    case "numericFilter": {
      const test = numericTest(body, at);
      return (value) => {
        const n = toNumber(value(field));
        return !Number.isNaN(n) && test(n);
      };
    }
    case "betweenFilter": {
      rejectUnknownKeys(body, ["fromValue", "toValue"], at);
      const from = numericValue(body.fromValue, `${at}.fromValue`);
      const to = numericValue(body.toValue, `${at}.toValue`);
      return (value) => {
        const n = toNumber(value(field));
        return n >= from && n <= to;
      };
    }
    default: {
      rejectUnknownKeys(body, [], at);
      // EmptyFilter matches the values GA shows for missing data: "" and "(not set)".
      return (value) => {
        const actual = String(value(field));
        return actual === "" || actual === "(not set)";
      };
    }
  }
}

function compileExpression(raw: unknown, where: string, ctx: FilterContext, depth: number): Test {
  if (!isObject(raw)) throw invalidArgument(`${where} must be a FilterExpression object.`);
  if (depth > 32) throw invalidArgument(`${where} is nested too deeply.`);
  rejectUnknownKeys(raw, EXPRESSION_KEYS, where);
  const key = exactlyOne(raw, EXPRESSION_KEYS, where);
  const at = `${where}.${key}`;
  if (key === "filter") return compileLeaf(raw.filter, at, ctx);
  if (key === "notExpression") {
    const inner = compileExpression(raw.notExpression, at, ctx, depth + 1);
    return (value) => !inner(value);
  }
  const list = raw[key];
  if (!isObject(list)) throw invalidArgument(`${at} must be an object with expressions[].`);
  rejectUnknownKeys(list, ["expressions"], at);
  if (!Array.isArray(list.expressions) || list.expressions.length === 0) {
    throw invalidArgument(`${at}.expressions must be a non-empty list.`);
  }
  const parts = list.expressions.map((e, i) =>
    compileExpression(e, `${at}.expressions[${i}]`, ctx, depth + 1),
  );
  return key === "andGroup"
    ? (value) => parts.every((p) => p(value))
    : (value) => parts.some((p) => p(value));
}

export function compileFilter(
  raw: unknown,
  kind: FieldKind,
  kindOf: FilterContext["kindOf"],
  unknownField: FilterContext["unknownField"],
): CompiledFilter | undefined {
  if (raw === undefined || raw === null) return undefined;
  const fields = new Set<string>();
  const test = compileExpression(raw, `${kind}Filter`, { kind, kindOf, unknownField, fields }, 0);
  return { fields, test };
}
