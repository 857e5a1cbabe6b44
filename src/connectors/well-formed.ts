import { ValidationError } from "../errors.js";

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function member(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/**
 * Refuses a string anywhere in `value` (keys included) that holds half of a UTF-16 surrogate pair.
 * Such a string has no UTF-8 form: encodeURIComponent throws an untyped URIError, URLSearchParams
 * silently turns it into U+FFFD, and JSON.stringify sends an escape the service cannot decode. So it is
 * a bad input, named by its field (e.g. `query_parameters.filterValues`, `body.input[0].email`), and
 * nothing is sent.
 */
export function checkWellFormed(value: unknown, field: string): void {
  if (typeof value === "string") {
    if (LONE_SURROGATE.test(value)) {
      throw new ValidationError(
        field,
        "it contains half of a UTF-16 surrogate pair (a broken character), which cannot be sent as UTF-8.",
        {
          hint: "Send complete characters: remove or replace the broken one, then call again; nothing was sent.",
        },
      );
    }
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      checkWellFormed(item, `${field}[${index}]`);
    });
    return;
  }
  if (value === null || typeof value !== "object") return;
  for (const [key, item] of Object.entries(value)) {
    checkWellFormed(key, member(field, key));
    checkWellFormed(item, member(field, key));
  }
}
