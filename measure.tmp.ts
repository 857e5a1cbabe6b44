import { listTools } from "./src/mcp/tools.js";
const tools = listTools({ accounts: [] });
const all = JSON.stringify(tools);
const out = tools.map((t) => JSON.stringify(t.outputSchema ?? {})).join("");
console.log("tool list chars", all.length, "output schemas", out.length);
const warnings: string[] = [];
const walk = (s: unknown, path: string) => {
  if (s === true || s === false) { warnings.push(`${path}: boolean schema`); return; }
  if (typeof s !== "object" || s === null) return;
  const o = s as Record<string, unknown>;
  if (Array.isArray(o.type)) warnings.push(`${path}: array type ${JSON.stringify(o.type)}`);
  const keys = Object.keys(o).filter((k) => k !== "description" && k !== "title" && k !== "default");
  if (!("type" in o) && !o.anyOf && !o.oneOf && !o.allOf && !o.enum && !("const" in o) && !o.$ref) warnings.push(`${path}: no type ${JSON.stringify(o).slice(0,80)}`);
  for (const [k, v] of Object.entries(o)) {
    if (k === "properties" || k === "$defs" || k === "definitions") for (const [p, sub] of Object.entries(v as object)) walk(sub, `${path}.${k}.${p}`);
    else if (k === "items" || k === "additionalProperties" || k === "not") walk(v, `${path}.${k}`);
    else if (k === "anyOf" || k === "oneOf" || k === "allOf") (v as unknown[]).forEach((sub, i) => walk(sub, `${path}.${k}[${i}]`));
  }
};
for (const t of tools) { walk(t.inputSchema, `${t.name}.input`); if (t.outputSchema) walk(t.outputSchema, `${t.name}.output`); }
console.log(warnings.length); console.log(warnings.join("\n"));
