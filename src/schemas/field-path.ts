/**
 * How an input error prints a caller's key names and values: field paths, control characters escaped,
 * long keys cut. No zod and nothing of Node here: the console's browser bundle words its form errors
 * with these too (src/tools/input/words.ts).
 */

// C0 and C1 controls, DEL, and the JSON line and paragraph separators.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters escaped
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const NAMED_ESCAPES: Record<string, string> = {
  "\b": "\\b",
  "\t": "\\t",
  "\n": "\\n",
  "\f": "\\f",
  "\r": "\\r",
};

/**
 * Text from a caller (a key name, a value) as an error may print it: control characters escaped JSON-style ("\n", "\u001b"), so
 * a key cannot start a forged `error:` line on the CLI's stderr or send terminal escapes.
 */
export function printable(text: string): string {
  return text.replace(
    CONTROL,
    (c) => NAMED_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

// As received values are cut in messages (src/tools/input/words.ts): a 2 MB key is not repeated whole.
const MAX_KEY_SHOWN = 60;

/** A caller's key name as a field path prints it: printable, and cut to MAX_KEY_SHOWN characters. */
export function keyShown(key: string): string {
  return printable(key.length > MAX_KEY_SHOWN ? `${key.slice(0, MAX_KEY_SHOWN - 1)}…` : key);
}

/** Field path of a zod issue in the caller's terms: `query_parameters.filterType`, `dateRanges[0].startDate`. */
export function issuePath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${keyShown(String(part))}` : keyShown(String(part));
  }
  return out || "input";
}
