import type { JsonSchemaNode } from "./validation-wording.js";

/**
 * The input as zod checks it: strings that zod trims, trimmed (the server would trim them too, so
 * sending them trimmed changes nothing). Validate and send this, and the browser agrees with zod.
 */
export function trimAsZod(data: unknown, schema: JsonSchemaNode, trimmed: readonly string[]): unknown {
  const marks = new Set(trimmed);
  const visit = (value: unknown, node: JsonSchemaNode | undefined, path: string): unknown => {
    if (!node) return value;
    if (typeof value === "string") {
      const branches = (node.anyOf as JsonSchemaNode[] | undefined) ?? [];
      const trims =
        marks.has(path) || branches.some((b, i) => b.type === "string" && marks.has(`${path}/anyOf/${i}`));
      return trims ? value.trim() : value;
    }
    const branch = (type: string) =>
      node.type === type
        ? { node, path }
        : ((node.anyOf as JsonSchemaNode[] | undefined) ?? [])
            .map((b, i) => ({ node: b, path: `${path}/anyOf/${i}` }))
            .find((b) => b.node.type === type);
    if (Array.isArray(value)) {
      const list = branch("array");
      return list
        ? value.map((item) => visit(item, list.node.items as JsonSchemaNode, `${list.path}/items`))
        : value;
    }
    const object = value && typeof value === "object" ? branch("object") : undefined;
    if (!object) return value;
    const properties = (object.node.properties as Record<string, JsonSchemaNode> | undefined) ?? {};
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, item]) => [
        key,
        Object.hasOwn(properties, key)
          ? visit(item, properties[key], `${object.path}/properties/${key}`)
          : visit(
              item,
              object.node.additionalProperties as JsonSchemaNode,
              `${object.path}/additionalProperties`,
            ),
      ]),
    );
  };
  return visit(data, schema, "#");
}
