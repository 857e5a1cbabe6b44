import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { MemoryCredentialStore } from "../../../src/auth/credential-store.js";
import { toJsonSchema } from "../../../src/schemas/json-schema.js";
import { MemoryState } from "../../../src/state/memory.js";
import { TOOL_STEPS } from "../../../src/tools/registry.js";
import { Workspace } from "../../../src/workspace.js";
import { mcpSession } from "../../helpers/mcp.js";

/**
 * Every object of a step's input that we define (not free-form maps such as body or query_parameters) says
 * additionalProperties: false, in every place the schema is published: the registry, manifest.json, MCP.
 */

type Node = { [key: string]: unknown };

/** Paths of objects with named properties, and of those among them that accept other properties too. */
function objectLevels(schema: unknown, path = "input"): { all: string[]; open: string[] } {
  const all: string[] = [];
  const open: string[] = [];
  const visit = (node: unknown, at: string) => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) visit(item, `${at}[${i}]`);
      return;
    }
    const schemaNode = node as Node;
    if (schemaNode.properties && typeof schemaNode.properties === "object") {
      all.push(at);
      if (schemaNode.additionalProperties !== false) open.push(at);
      for (const [name, child] of Object.entries(schemaNode.properties as Node))
        visit(child, `${at}.${name}`);
    }
    for (const key of ["items", "anyOf", "oneOf", "allOf", "additionalProperties", "$defs", "definitions"]) {
      if (key in schemaNode) visit(schemaNode[key], `${at}/${key}`);
    }
  };
  visit(schema, path);
  return { all, open };
}

const expectClosed = (id: string, schema: unknown) => {
  const { all, open } = objectLevels(schema, id);
  expect(all.length, `${id} has object levels`).toBeGreaterThan(0);
  expect((schema as Node).additionalProperties, `${id} top level`).toBe(false);
  expect(open, `${id}: objects that accept unknown properties`).toEqual([]);
};

describe("published input schemas refuse unknown properties at every level we own", () => {
  it.each(TOOL_STEPS.map((step) => [step.id, step] as const))("%s (registry)", (id, step) => {
    expectClosed(id, toJsonSchema(step.input({ accounts: [] }), "input"));
    expectClosed(id, toJsonSchema(step.input({ accounts: ["marketing", "sales"] }), "input"));
  });

  it("Run Reports closes its nested objects too (date ranges, minute ranges, order_by items)", () => {
    const report = TOOL_STEPS.find((step) => step.id === "google_analytics_run_reports");
    const { all } = objectLevels(toJsonSchema(report!.input({ accounts: [] }), "input"));
    expect(all.length).toBeGreaterThanOrEqual(4);
  });

  it("manifest.json says so for all five steps", async () => {
    const manifest = JSON.parse(
      await readFile(new URL("../../../manifest.json", import.meta.url), "utf8"),
    ) as {
      steps: { id: string; inputSchema: unknown }[];
    };
    expect(manifest.steps).toHaveLength(5);
    for (const step of manifest.steps) expectClosed(step.id, step.inputSchema);
  });

  it("the MCP tool list says so for all five steps", async () => {
    const workspace = new Workspace({
      env: {},
      store: new MemoryCredentialStore(),
      state: new MemoryState(),
    });
    const { client, close } = await mcpSession(workspace);
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(5);
      for (const tool of tools) expectClosed(tool.name, tool.inputSchema);
    } finally {
      await close();
      await workspace.close();
    }
  });
});
