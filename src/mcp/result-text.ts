/**
 * The text a model reads of a step's answer. The typed JSON goes out once, as structuredContent; the
 * text is a compact view of the same data rather than a second copy of it: each list of records or
 * rows as a table (a header row, then one tab-separated line per row), every other field as one
 * `name: value` line, empty lists left out.
 */

type Plain = Record<string, unknown>;

const isPlain = (value: unknown): value is Plain =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A cell: text with its tabs, line breaks and backslashes escaped; numbers as written; nested values as JSON. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.replace(/[\\\t\n\r]/g, (c) =>
    c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r",
  );
}

/** The rows' keys, those in `order` first in its order (an object lists integer-like keys first). */
function columns(rows: readonly Plain[], order: readonly string[] = []): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) seen.add(key);
  const first = order.filter((name) => seen.has(name));
  return [...new Set([...first, ...seen])];
}

/** A list of objects as a table: the header row, then one line per row, cells separated by tabs. */
export function table(rows: readonly Plain[], order?: readonly string[]): string {
  const names = columns(rows, order);
  return [
    names.map(cell).join("\t"),
    ...rows.map((row) => names.map((name) => cell(row[name])).join("\t")),
  ].join("\n");
}

function line(name: string, value: unknown, order?: readonly string[]): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) {
    if (value.length === 0) return undefined;
    if (value.every(isPlain)) return `${name} (${value.length}, tab-separated):\n${table(value, order)}`;
    if (value.every((item) => typeof item === "string"))
      return `${name}:\n${value.map((item) => `- ${item}`).join("\n")}`;
    return `${name}: ${JSON.stringify(value)}`;
  }
  if (isPlain(value)) {
    if (Object.keys(value).length === 0) return undefined;
    // An object that holds a list of objects (a Google response body) shows that list as a table too.
    const hasTable = Object.values(value).some((v) => Array.isArray(v) && v.length > 0 && v.every(isPlain));
    if (!hasTable) return `${name}: ${JSON.stringify(value)}`;
    return Object.entries(value)
      .flatMap(([key, inner]) => line(`${name}.${key}`, inner) ?? [])
      .join("\n");
  }
  return `${name}: ${String(value)}`;
}

/** The summary, then every field of the answer (tables for lists of objects; `result`'s columns in `order`). */
export function resultText(summary: string, data: unknown, order?: readonly string[]): string {
  if (!isPlain(data)) return `${summary}\n${JSON.stringify(data)}`;
  const lines = Object.entries(data).flatMap(
    ([name, value]) => line(name, value, name === "result" ? order : undefined) ?? [],
  );
  return [summary, ...lines].join("\n");
}
