import { ValidationError } from "../../errors.js";
import { issuePath } from "../../schemas/json-schema.js";
import type { Path } from "./schema-walk.js";

/**
 * How deep an input may nest. What checks an input is recursive (zod, the alias comparison, JSON.stringify
 * when it is sent), so a 50,000-level value threw a RangeError instead of a ValidationError. No input of
 * these steps needs more than a few dozen levels: a GA FilterExpression of 32 nested groups in an API Call
 * body is about 100.
 */
export const MAX_INPUT_DEPTH = 128;

/**
 * Refuses an input that nests deeper than MAX_INPUT_DEPTH, naming the top-level field that does. Iterative,
 * so it cannot itself exhaust the stack, and linear in the size of the input.
 */
export function checkInputDepth(input: unknown): void {
  const pending: { value: unknown; depth: number; field: Path }[] = [{ value: input, depth: 0, field: [] }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, depth, field } = next;
    if (value === null || typeof value !== "object") continue;
    if (depth >= MAX_INPUT_DEPTH) {
      throw new ValidationError(issuePath(field), `it nests deeper than ${MAX_INPUT_DEPTH} levels.`, {
        hint: "Fix the input and call again; nothing was sent.",
      });
    }
    const keys: PropertyKey[] = Array.isArray(value) ? value.map((_, index) => index) : Object.keys(value);
    for (const key of keys) {
      const child = (value as Record<PropertyKey, unknown>)[key];
      if (child !== null && typeof child === "object") {
        pending.push({ value: child, depth: depth + 1, field: depth === 0 ? [key] : field });
      }
    }
  }
}
