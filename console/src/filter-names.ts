/**
 * A filter as a person types it, with the field names the pickers show ("Page path contains /pricing",
 * "Country = Germany", "Lead Score > 50"), turned into the filter language the steps read
 * (src/tools/filter/parser.ts: `pagePath contains "/pricing"`, `country = "Germany"`, `leadScore > 50`):
 * each field's UI name, or its API name, in any case, becomes its API name, and a bare text value is
 * quoted. A field name that neither names is refused with the nearest names. What this does not follow
 * (a parenthesis where a value is due, say) is left as typed, for the step's own check to word.
 */
import { distance } from "fastest-levenshtein";

/** A field as the picker shows it (`ui`) and as the step reads it (`api`). */
export interface NamedField {
  api: string;
  ui: string;
}

export type FilterWords =
  | { ok: true; filter: string }
  | { ok: false; unknown: string; nearest: string[]; message: string };

const SYMBOLS = ["==", "!=", "<=", ">=", "=~", "<", ">", "="];
/** Operators written as words, with the spaced spellings a person types ("begins with"). */
const WORD_OPS: [RegExp, string][] = [
  [/^(?:not\s+in)\b/i, "not in"],
  [/^(?:does\s+not\s+contain|not\s+contains)\b/i, "not contains"],
  [/^contains\b/i, "contains"],
  [/^(?:begins|starts)(?:_|\s+)with\b/i, "begins_with"],
  [/^ends(?:_|\s+)with\b/i, "ends_with"],
  [/^matches\b/i, "matches"],
  [/^in\b/i, "in"],
  [/^between\b/i, "between"],
  [/^is\s+not\s+empty\b/i, "is not empty"],
  [/^is\s+empty\b/i, "is empty"],
];

/** Whether `text` at `at` is an operator: its length and how the step writes it. */
function operatorAt(text: string, at: number): { length: number; op: string } | undefined {
  const rest = text.slice(at);
  const symbol = SYMBOLS.find((one) => rest.startsWith(one));
  if (symbol) return { length: symbol.length, op: symbol };
  for (const [pattern, op] of WORD_OPS) {
    const found = pattern.exec(rest);
    if (found) return { length: found[0].length, op };
  }
  return undefined;
}

/** The operators that take a text (a number after them is text too: "Page path contains 2026"). */
const TEXT_OPS = new Set(["contains", "not contains", "begins_with", "ends_with", "matches", "=~"]);

const boundary = (text: string, at: number) => at >= text.length || /[\s=!<>(),"']/.test(text[at] ?? "");

/** The longest field name (UI or API, any case) that starts at `at` and ends at a word's end. */
function fieldAt(text: string, at: number, fields: readonly NamedField[]) {
  const rest = text.slice(at).toLowerCase();
  let best: { length: number; api: string } | undefined;
  for (const field of fields)
    for (const name of [field.ui, field.api]) {
      const wanted = name.toLowerCase();
      if (!wanted || !rest.startsWith(wanted) || !boundary(text, at + wanted.length)) continue;
      if (!best || wanted.length > best.length) best = { length: wanted.length, api: field.api };
    }
  return best;
}

/** Up to three UI names nearest to what was typed (by edit distance to either name), the near ones when any are. */
export function nearestNames(typed: string, fields: readonly NamedField[]): string[] {
  const wanted = typed.toLowerCase();
  const ranked = fields
    .map((field) => ({
      name: field.ui,
      far: Math.min(distance(wanted, field.ui.toLowerCase()), distance(wanted, field.api.toLowerCase())),
    }))
    .sort((a, b) => a.far - b.far || a.name.localeCompare(b.name));
  // Near: a third of the letters wrong at most ("Page pth" is "Page path"; "Country" is not).
  const near = ranked.filter((one) => one.far <= Math.max(2, Math.floor(wanted.length / 3)));
  return (near.length > 0 ? near : ranked).slice(0, 3).map((one) => one.name);
}

/** ` Did you mean "A", "B" or "C"?`, or nothing when there is no name to offer. */
export function didYouMean(names: readonly string[]): string {
  const quoted = names.map((name) => `"${name}"`);
  if (quoted.length === 0) return "";
  return ` Did you mean ${[quoted.slice(0, -1).join(", "), quoted.at(-1)].filter(Boolean).join(" or ")}?`;
}

/** A quoted or bare value at `at`: the text the step reads and where it ends. */
function valueAt(text: string, at: number, textOnly = false): { value: string; end: number } {
  const quote = text[at];
  if (quote === '"' || quote === "'") {
    let i = at + 1;
    while (i < text.length && text[i] !== quote) i += text[i] === "\\" ? 2 : 1;
    return { value: text.slice(at, i + 1), end: i + 1 };
  }
  // A bare value runs to the next " and " / " or " / closing parenthesis.
  const rest = text.slice(at);
  const stop = /\s+(?:and|or)\s|\)/i.exec(rest);
  const raw = (stop ? rest.slice(0, stop.index) : rest).trim();
  const end = at + (stop ? stop.index : rest.length);
  if (!textOnly && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(raw)) return { value: raw, end };
  return { value: JSON.stringify(raw), end };
}

/** Up to the parenthesis closing the one at `at` (quotes respected): an `in (…)` list, kept as typed. */
function listAt(text: string, at: number): { value: string; end: number } | undefined {
  if (text[at] !== "(") return undefined;
  let i = at + 1;
  while (i < text.length && text[i] !== ")") {
    const quote = text[i];
    if (quote === '"' || quote === "'") {
      i += 1;
      while (i < text.length && text[i] !== quote) i += text[i] === "\\" ? 2 : 1;
    }
    i += 1;
  }
  return i < text.length ? { value: text.slice(at, i + 1), end: i + 1 } : undefined;
}

const skip = (text: string, at: number) => at + (/^\s*/.exec(text.slice(at))?.[0].length ?? 0);

/** The condition's operator and value from `at`: the parts the step reads, and where they end. */
function conditionRest(text: string, at: number): { parts: string[]; end: number } | undefined {
  const operator = operatorAt(text, at);
  if (!operator) return undefined;
  let i = skip(text, at + operator.length);
  if (operator.op.endsWith("empty")) return { parts: [operator.op], end: i };
  if (operator.op.endsWith("in")) {
    const list = listAt(text, i);
    return list ? { parts: [operator.op, list.value], end: list.end } : undefined;
  }
  if (operator.op === "between") {
    const from = valueAt(text, i);
    i = skip(text, from.end);
    const and = /^and\s/i.exec(text.slice(i));
    if (!and) return undefined;
    const to = valueAt(text, skip(text, i + and[0].length));
    return { parts: ["between", from.value, "and", to.value], end: to.end };
  }
  const value = valueAt(text, i, TEXT_OPS.has(operator.op));
  return { parts: [operator.op, value.value], end: value.end };
}

/**
 * The filter with API names, or the first name no field has (with the nearest ones). An empty filter
 * stays empty; a filter this cannot follow is returned as typed.
 */
export function withApiNames(typed: string, fields: readonly NamedField[]): FilterWords {
  const out: string[] = [];
  let i = skip(typed, 0);
  let expectField = true;
  while (i < typed.length) {
    const rest = typed.slice(i);
    const connector = expectField ? /^(?:not\b|\()/i.exec(rest) : /^(?:and\b|or\b|\))/i.exec(rest);
    if (connector) {
      out.push(connector[0].toLowerCase());
      if (!expectField && connector[0] !== ")") expectField = true;
      i = skip(typed, i + connector[0].length);
      continue;
    }
    if (!expectField) return { ok: true, filter: typed };
    const field = fieldAt(typed, i, fields);
    const after = field ? skip(typed, i + field.length) : i;
    const condition = field ? conditionRest(typed, after) : undefined;
    if (!field || !condition) {
      if (field) return { ok: true, filter: typed };
      return unknownName(typed, i, fields);
    }
    const [operator, ...value] = condition.parts;
    // "does not contain" is `not field contains …` in the step's language.
    if (operator === "not contains") out.push("not", field.api, "contains", ...value);
    else out.push(field.api, ...condition.parts);
    expectField = false;
    i = skip(typed, condition.end);
  }
  return { ok: true, filter: out.join(" ") };
}

/** The words from `at` to the next operator: the name typed, refused with the nearest names. */
function unknownName(typed: string, at: number, fields: readonly NamedField[]): FilterWords {
  let end = at;
  while (end < typed.length && !(boundary(typed, end) && operatorAt(typed, skip(typed, end)))) end += 1;
  const unknown = typed.slice(at, end).trim() || typed.slice(at).trim();
  const nearest = nearestNames(unknown, fields);
  const near = didYouMean(nearest);
  return {
    ok: false,
    unknown,
    nearest,
    message: `No field is named "${unknown}".${near} Start each condition with a field's name as the lists show it.`,
  };
}
