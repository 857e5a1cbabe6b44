/**
 * The comma-separated field lists of order_by and count_by. A name is written as it is, or quoted the way
 * where's text values are (double quotes with JSON escapes, or single quotes), so a name with commas,
 * spaces or other characters can be given: order_by '-"Lead Score"', count_by '"Import Failure Reason"'.
 */

/**
 * The parts of a list split at commas outside quotes and parentheses (a count_by condition's `in ("a", "b")`),
 * trimmed; undefined when a quote is not closed.
 */
export function splitFieldList(text: string): string[] | undefined {
  const parts: string[] = [];
  let start = 0;
  let depth = 0;
  let i = 0;
  while (i < text.length) {
    const char = text[i];
    if (char === '"' || char === "'") {
      i += 1;
      while (i < text.length && text[i] !== char) i += text[i] === "\\" ? 2 : 1;
      if (i >= text.length) return undefined;
    } else if (char === "(" || char === ")") {
      depth = Math.max(0, depth + (char === "(" ? 1 : -1));
    } else if (char === "," && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
    i += 1;
  }
  parts.push(text.slice(start).trim());
  return parts;
}

/** A quoted name's text ('"Lead Score"' → Lead Score), or undefined when the part is not one quoted name. */
export function unquoteField(part: string): string | undefined {
  const quote = part[0];
  if ((quote !== '"' && quote !== "'") || part.length < 2 || part[part.length - 1] !== quote)
    return undefined;
  const body = part.slice(1, -1);
  if (quote === "'") {
    if (/(^|[^\\])'/.test(body)) return undefined;
    return body.replace(/\\([\\'])/g, "$1") || undefined;
  }
  try {
    const value = JSON.parse(part) as unknown;
    return typeof value === "string" && value !== "" ? value : undefined;
  } catch {
    return undefined;
  }
}

const SEGMENT = /[A-Za-z_][A-Za-z0-9_:]*/y;

/**
 * A dotted path whose parts may be quoted, at the start of `text`: attributes."Campaign Run ID" reads
 * attributes.Campaign Run ID (a quoted part holds spaces or other characters). The path as fields are named
 * (parts joined by dots) and the text after it; undefined when no path starts there.
 */
export function readPath(text: string): { field: string; rest: string } | undefined {
  const parts: string[] = [];
  let i = 0;
  for (;;) {
    const quote = text[i];
    if (quote === '"' || quote === "'") {
      let end = i + 1;
      while (end < text.length && text[end] !== quote) end += text[end] === "\\" ? 2 : 1;
      const part = end < text.length ? unquoteField(text.slice(i, end + 1)) : undefined;
      if (part === undefined) return undefined;
      parts.push(part);
      i = end + 1;
    } else {
      SEGMENT.lastIndex = i;
      const plain = SEGMENT.exec(text);
      if (!plain) return undefined;
      parts.push(plain[0]);
      i += plain[0].length;
    }
    if (text[i] !== "." || i + 1 >= text.length) break;
    i += 1;
  }
  return { field: parts.join("."), rest: text.slice(i) };
}
