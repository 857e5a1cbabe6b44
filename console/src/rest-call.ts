/** A step's input as the REST request it makes: method, path and query, then its JSON body or file. */
type Input = Record<string, unknown>;

const queryString = (query: unknown) => {
  if (typeof query !== "object" || query === null) return "";
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    params.set(key, Array.isArray(value) ? value.join(",") : String(value));
  const text = params.toString().replaceAll("%2C", ",").replaceAll("%40", "@");
  return text ? `?${text}` : "";
};

/** JSON indented by object, a list of plain values on one line ("fields": ["id", "email"]): short to read. */
export function compactJson(value: unknown, indent = ""): string {
  if (Array.isArray(value) && value.every((item) => item === null || typeof item !== "object"))
    return `[${value.map((item) => JSON.stringify(item)).join(", ")}]`;
  const inner = `${indent}  `;
  if (Array.isArray(value))
    return `[\n${value.map((item) => inner + compactJson(item, inner)).join(",\n")}\n${indent}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    const body = entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${compactJson(item, inner)}`);
    return `{\n${body.join(",\n")}\n${indent}}`;
  }
  return JSON.stringify(value);
}

/** The request line, then its body or file, one string each. */
export function restCallLines(input: Input): string[] {
  const lines = [`${String(input.method)} ${String(input.endpoint)}${queryString(input.query_parameters)}`];
  if (input.body !== undefined) lines.push(compactJson(input.body));
  if (typeof input.file === "string") lines.push(input.file);
  return lines;
}
