/**
 * A dimension's value for an "is" or "is not" condition, checked against the values GA has for it (console
 * review s13, finding 2): "united" typed for Country and added before "United States" was picked made the
 * filter Country = "united", which GA matches whole (any case) and so kept no row: the report was empty.
 * A typed value that names one value GA has (any case: "united states") becomes it; one that names none is
 * not added, and the box says the nearest values GA has. Checked only when the values listed are all the
 * values the dimension took (the most frequent 50 may leave out the one typed): else it is kept as typed.
 * "contains", "begins with" and the others match part of a value and keep the text as typed.
 */
import { distance } from "fastest-levenshtein";

/** The values GA has for the dimension (the report's first period), and whether those are all of them. */
export interface SeenValues {
  values: readonly string[];
  complete: boolean;
}

/** The operators that compare a whole value, and the one to choose instead to match part of it. */
const WHOLE: Readonly<Record<string, { instead: string; does: string }>> = {
  "=": { instead: "contains", does: "match part of a name" },
  "!=": { instead: "does not contain", does: "leave out part of a name" },
};

export type CheckedValue = { ok: true; value: string } | { ok: false; message: string };

const fold = (text: string) => text.trim().toLowerCase();

/**
 * Up to three values nearest to what was typed: those holding it (any case), the most frequent first,
 * then those a few letters from it ("Germny" for Germany).
 */
export function nearestValues(typed: string, values: readonly string[]): string[] {
  const wanted = fold(typed);
  const holding = values.filter((value) => fold(value).includes(wanted));
  const near = values
    .filter((value) => !holding.includes(value))
    .map((value) => ({ value, far: distance(wanted, fold(value)) }))
    .filter((one) => one.far <= Math.max(2, Math.floor(wanted.length / 3)))
    .sort((a, b) => a.far - b.far);
  return [...holding, ...near.map((one) => one.value)].slice(0, 3);
}

/** "A", "A or B", "A, B or C". */
const either = (names: readonly string[]) =>
  names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names.at(-1)}` : (names[0] ?? "");

/** The value to add: as typed, or the value GA has that it names; or why it is not one and what to do. */
export function checkedValue(field: string, op: string, typed: string, seen: SeenValues): CheckedValue {
  const value = typed.trim();
  const whole = WHOLE[op];
  if (!whole || !seen.complete || seen.values.length === 0 || seen.values.includes(value))
    return { ok: true, value };
  const named = seen.values.find((one) => fold(one) === fold(value));
  if (named !== undefined) return { ok: true, value: named };
  const nearest = nearestValues(value, seen.values);
  const guess = nearest.length > 0 ? `: did you mean ${either(nearest)}?` : ".";
  return {
    ok: false,
    message:
      `${field} has no value "${value}"${guess} Pick one from the list, ` +
      `or choose "${whole.instead}" to ${whole.does}.`,
  };
}
