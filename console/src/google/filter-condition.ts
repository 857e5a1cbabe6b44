/**
 * One condition of Run Reports' filter as the builder beside the Filter box makes it (FilterBuilder.tsx):
 * a field by its name in Google Analytics, an operator in words that suits its kind, and a value, written
 * in the Filter box's own language ("Device category = \"mobile\"", "Sessions > 10",
 * console/src/filter-names.ts), so the text stays the one source and stays editable.
 */
import { checkedValue, type SeenValues } from "./filter-value.js";

export type FieldKind = "dimension" | "metric";

export interface Operator {
  /** As the Filter box reads it. */
  op: string;
  /** As the builder's select says it. */
  label: string;
}

/**
 * A dimension's values are text (GA's stringFilter), a metric's numbers (numericFilter):
 * https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/FilterExpression#Filter
 */
export const OPERATORS: Readonly<Record<FieldKind, readonly Operator[]>> = {
  dimension: [
    { op: "=", label: "is" },
    { op: "!=", label: "is not" },
    { op: "contains", label: "contains" },
    { op: "does not contain", label: "does not contain" },
    { op: "begins with", label: "begins with" },
    { op: "ends with", label: "ends with" },
  ],
  metric: [
    { op: "=", label: "is (=)" },
    { op: "!=", label: "is not (≠)" },
    { op: ">", label: "is more than (>)" },
    { op: ">=", label: "is at least (≥)" },
    { op: "<", label: "is less than (<)" },
    { op: "<=", label: "is at most (≤)" },
  ],
};

export type Condition =
  | { ok: true; text: string }
  | { ok: false; part: "field" | "operator" | "value"; message: string };

const NUMBER = /^-?\d+(?:\.\d+)?$/;

/**
 * The condition's text, or which part is missing or wrong and what to do. A dimension's value compared
 * whole is checked against the values GA has for it (`seen`, filter-value.ts).
 */
export function conditionText(
  field: { ui: string; kind: FieldKind } | undefined,
  op: string,
  value: string,
  seen: SeenValues = { values: [], complete: false },
): Condition {
  if (!field) return { ok: false, part: "field", message: "Pick a dimension or metric from the list first." };
  if (!OPERATORS[field.kind].some((one) => one.op === op))
    return { ok: false, part: "operator", message: "Choose how to compare." };
  const typed = value.trim();
  if (typed === "") return { ok: false, part: "value", message: "Type or pick a value to compare with." };
  if (field.kind === "metric" && !NUMBER.test(typed))
    return {
      ok: false,
      part: "value",
      message: `${field.ui} is a number: type one, e.g. 10 or 2.5, without spaces or commas.`,
    };
  if (field.kind === "metric") return { ok: true, text: `${field.ui} ${op} ${typed}` };
  const checked = checkedValue(field.ui, op, typed, seen);
  if (!checked.ok) return { ok: false, part: "value", message: checked.message };
  return { ok: true, text: `${field.ui} ${op} ${JSON.stringify(checked.value)}` };
}

/** Whether a filter has an "or" outside its quoted values: then the new condition must not bind to its last part. */
const hasOr = (filter: string) =>
  /\bor\b/i.test(filter.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""'));

/** The filter with the condition added: "… and <condition>" (a filter with an "or" in parentheses first). */
export function withCondition(filter: string | undefined, condition: string): string {
  const now = (filter ?? "").trim();
  if (now === "") return condition;
  return hasOr(now) ? `(${now}) and ${condition}` : `${now} and ${condition}`;
}
