/**
 * Issue 27 §5: the tool list a model loads on every conversation stays within 4,000 o200k_base tokens for
 * the five tools (6,157 before: every field's title, examples, patterns and lengths, and the output
 * schemas' descriptions). What it leaves out the console's schemas (tool-schemas/) keep, and what it
 * no longer states the steps still enforce, with a refusal that names the field and what is accepted.
 */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryCredentialStore } from "../../src/auth/credential-store.js";
import { listTools } from "../../src/mcp/tools.js";
import { MemoryState } from "../../src/state/memory.js";
import { listedSteps } from "../../src/tools/listing.js";
import { Workspace } from "../../src/workspace.js";
import { type McpSession, mcpSession } from "../helpers/mcp.js";

const BUDGET = 4_000;

type Node = { [key: string]: unknown };

/** Every input property of a schema, at any depth, with its path. */
function fields(node: unknown, path: string): [string, Node][] {
  if (!node || typeof node !== "object") return [];
  const schema = node as Node;
  const own = Object.entries((schema.properties ?? {}) as Record<string, Node>).flatMap(
    ([name, child]): [string, Node][] => [[`${path}.${name}`, child], ...fields(child, `${path}.${name}`)],
  );
  return [
    ...own,
    ...(schema.items ? fields(schema.items, `${path}[]`) : []),
    ...((schema.anyOf ?? []) as Node[]).flatMap((branch) => fields(branch, path)),
  ];
}

describe("the tool list's size in tokens", () => {
  let workspace: Workspace;
  let session: McpSession;
  beforeAll(async () => {
    workspace = new Workspace({ env: {}, store: new MemoryCredentialStore(), state: new MemoryState() });
    session = await mcpSession(workspace);
  });
  afterAll(async () => session.close());

  it(`is at most ${BUDGET} o200k_base tokens for the five tools, with or without a connected account`, async () => {
    const { tools } = await session.client.listTools();
    expect(tools).toHaveLength(5);
    const counts = [JSON.stringify(tools), JSON.stringify(listTools({ accounts: ["main"] }))].map((text) =>
      countTokens(text),
    );
    console.info(`tools/list: ${counts.join(" and ")} o200k_base tokens (budget ${BUDGET})`);
    for (const count of counts) expect(count).toBeLessThanOrEqual(BUDGET);
  });

  it("keeps every field's description and every required name, and the console's schemas their titles", async () => {
    const { tools } = await session.client.listTools();
    for (const tool of tools) {
      const listed = listedSteps().find((step) => step.name === tool.name);
      const lean = fields(tool.inputSchema, tool.name);
      const full = fields(listed?.inputSchema, tool.name);
      expect(lean.map(([path]) => path)).toEqual(full.map(([path]) => path));
      for (const [path, node] of lean) {
        const described = full.find(([other]) => other === path)?.[1].description;
        expect(node.description, path).toBe(described);
        expect(node.title, path).toBeUndefined();
      }
      expect((tool.inputSchema as Node).required).toEqual(listed?.inputSchema.required);
      expect(full.filter(([, node]) => typeof node.title === "string").length).toBeGreaterThan(0);
    }
  });

  it("still refuses what it no longer lists, naming the field and the accepted values", async () => {
    const { tools } = await session.client.listTools();
    const create = tools.find((tool) => tool.name === "google_analytics_create_properties");
    const schema = create?.inputSchema as { properties?: Record<string, Node> } | undefined;
    const industry = schema?.properties?.industry_category;
    expect(industry?.description).toMatch(/TECHNOLOGY/);
    expect(industry?.enum).toBeUndefined();
    const answer = await session.client.callTool({
      name: "google_analytics_create_properties",
      arguments: { display_name: "Shop", time_zone: "Europe/Paris", industry_category: "SPACE" },
    });
    expect(answer.isError).toBe(true);
    const text = (answer.content as { text: string }[]).map((part) => part.text).join("\n");
    expect(text).toMatch(/industry_category/);
    expect(text).toMatch(/TECHNOLOGY/);
  });
});
