/**
 * Every input field of every step, as tools/list publishes it, carries a human title (MCP clients and
 * the console's form both show it) and examples; only the opaque cursor and the connected-account
 * choice (an enum of the workspace's own labels) have no example to give.
 */
import { describe, expect, it } from "vitest";
import { listedSteps } from "../../src/tools/listing.js";

type Node = { [key: string]: unknown };
const NO_EXAMPLE = new Set(["cursor", "account"]);

/** Every property of a schema, at any depth (object fields, list items, union branches), with its path. */
function fields(node: unknown, path: string): [string, Node][] {
  if (!node || typeof node !== "object") return [];
  const schema = node as Node;
  const own = Object.entries((schema.properties ?? {}) as Record<string, Node>).flatMap(
    ([name, child]): [string, Node][] => [[`${path}.${name}`, child], ...fields(child, `${path}.${name}`)],
  );
  const inner = [
    ...(schema.items ? fields(schema.items, `${path}[]`) : []),
    ...((schema.anyOf ?? []) as Node[]).flatMap((branch) => fields(branch, path)),
  ];
  return [...own, ...inner];
}

describe("the published input fields", () => {
  const all = listedSteps().flatMap((step) => fields(step.inputSchema, step.name));

  it("are many (the walk reaches nested fields)", () => {
    expect(all.length).toBeGreaterThan(40);
    expect(all.map(([path]) => path)).toContain("google_analytics_run_reports.date_ranges[].start_date");
  });

  it("each have a title", () => {
    expect(all.filter(([, node]) => typeof node.title !== "string").map(([path]) => path)).toEqual([]);
  });

  it("each have examples, but the cursor and the account", () => {
    const missing = all.filter(
      ([path, node]) => !NO_EXAMPLE.has(path.split(".").at(-1) ?? "") && !Array.isArray(node.examples),
    );
    expect(missing.map(([path]) => path)).toEqual([]);
  });
});
