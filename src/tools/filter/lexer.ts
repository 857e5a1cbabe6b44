import { ValidationError } from "../../errors.js";
import { printable } from "../../schemas/json-schema.js";
import { readPath } from "../records/field-list.js";

export type Token =
  | { kind: "word"; text: string; pos: number }
  | { kind: "string"; value: string; pos: number }
  | { kind: "number"; text: string; pos: number }
  | { kind: "op"; text: string; pos: number }
  | { kind: "punct"; text: "(" | ")" | ","; pos: number }
  | { kind: "end"; pos: number };

/** Where a filter came from, for its errors: the input field, and the hint that shows the syntax with that field's names. */
export interface FilterSource {
  /** The input field the filter came in: Run Reports' filter, Marketo API Call's where… */
  field: string;
  /** Examples with names that field's records have. */
  hint: string;
  /** The text as the caller wrote it, when the source parsed stands in for it at the same positions. */
  written?: string;
}

export function filterSyntaxError(
  message: string,
  source: string,
  pos: number,
  at: FilterSource,
): ValidationError {
  const near = (at.written ?? source).slice(pos, pos + 20);
  return new ValidationError(
    at.field,
    `${message} at position ${pos + 1}${near ? ` (near ${printable(JSON.stringify(near))})` : " (at the end)"}.`,
    { hint: at.hint },
  );
}

const WORD = /[A-Za-z_][A-Za-z0-9_:.]*/y;
const NUMBER = /-?\d+(\.\d+)?([eE][+-]?\d+)?/y;
// "+" and "-" move a second field (`joined.activityDate - 24h`); a "-" before a digit is read as a number's sign.
const OPERATORS = ["==", "!=", "<=", ">=", "=~", "<", ">", "=", "+", "-"] as const;

/** Reads a double-quoted string with JSON escapes, or a single-quoted one where \' and \\ are the escapes. */
function readString(source: string, start: number, at: FilterSource): { value: string; end: number } {
  const quote = source[start];
  let i = start + 1;
  while (i < source.length && source[i] !== quote) i += source[i] === "\\" ? 2 : 1;
  if (i >= source.length) throw filterSyntaxError("unterminated text value", source, start, at);
  const body = source.slice(start + 1, i);
  if (quote === "'") return { value: body.replace(/\\([\\'])/g, "$1"), end: i + 1 };
  try {
    return { value: JSON.parse(`"${body}"`) as string, end: i + 1 };
  } catch {
    throw filterSyntaxError("invalid escape or control character in a text value", source, start, at);
  }
}

export function tokenize(source: string, at: FilterSource): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const char = source[i] as string;
    if (/\s/.test(char)) {
      i += 1;
      continue;
    }
    if (char === "(" || char === ")" || char === ",") {
      tokens.push({ kind: "punct", text: char, pos: i });
      i += 1;
      continue;
    }
    if (char === '"' || char === "'") {
      const { value, end } = readString(source, i, at);
      tokens.push({ kind: "string", value, pos: i });
      i = end;
      continue;
    }
    NUMBER.lastIndex = i;
    const number = NUMBER.exec(source);
    if (number) {
      tokens.push({ kind: "number", text: number[0], pos: i });
      i += number[0].length;
      continue;
    }
    WORD.lastIndex = i;
    const word = WORD.exec(source);
    // A dotted path with a quoted part: attributes."Campaign Run ID" names attributes.Campaign Run ID.
    const quoted = word?.[0].endsWith(".") && /["']/.test(source[i + word[0].length] ?? "");
    const path = quoted ? readPath(source.slice(i)) : undefined;
    if (path) {
      tokens.push({ kind: "word", text: path.field, pos: i });
      i = source.length - path.rest.length;
      continue;
    }
    if (word) {
      tokens.push({ kind: "word", text: word[0], pos: i });
      i += word[0].length;
      continue;
    }
    const op = OPERATORS.find((candidate) => source.startsWith(candidate, i));
    if (!op) throw filterSyntaxError(`unexpected character ${JSON.stringify(char)}`, source, i, at);
    tokens.push({ kind: "op", text: op, pos: i });
    i += op.length;
  }
  tokens.push({ kind: "end", pos: source.length });
  return tokens;
}
