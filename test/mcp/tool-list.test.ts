import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryCredentialStore } from "../../src/auth/credential-store.js";
import { buildManifest } from "../../src/manifest.js";
import { listTools } from "../../src/mcp/tools.js";
import { MemoryState } from "../../src/state/memory.js";
import { Workspace } from "../../src/workspace.js";
import { type McpSession, mcpSession } from "../helpers/mcp.js";

/**
 * What the MCP Inspector's strict schema check flags in a tool list, as its issue describes it
 * (modelcontextprotocol/inspector#1005, the schema forms strict clients such as Claude Code refuse):
 * a `type` given as a list (["string","null"]), a boolean schema (`true`) where a schema is expected,
 * and a schema that says no type at all (a bare `{}` from z.unknown()). `additionalProperties: false`
 * is the usual closed object, not a boolean schema in that sense.
 */
function strictWarnings(schema: unknown, path: string): string[] {
  const warnings: string[] = [];
  const visit = (node: unknown, at: string, key = ""): void => {
    if (typeof node === "boolean") {
      if (!(key === "additionalProperties" && node === false)) warnings.push(`${at}: boolean schema ${node}`);
      return;
    }
    if (typeof node !== "object" || node === null || Array.isArray(node)) return;
    const s = node as Record<string, unknown>;
    if (Array.isArray(s.type)) warnings.push(`${at}: type is a list ${JSON.stringify(s.type)}`);
    const typed = ["type", "anyOf", "oneOf", "allOf", "enum", "const", "$ref"].some((k) => k in s);
    if (!typed) warnings.push(`${at}: no type ${JSON.stringify(s).slice(0, 60)}`);
    for (const [k, v] of Object.entries(s)) {
      if (
        ["properties", "patternProperties", "$defs", "definitions"].includes(k) &&
        v &&
        typeof v === "object"
      ) {
        for (const [name, inner] of Object.entries(v)) visit(inner, `${at}.${k}.${name}`, k);
      } else if (["items", "additionalProperties", "not", "propertyNames", "contains"].includes(k)) {
        visit(v, `${at}.${k}`, k);
      } else if (["anyOf", "oneOf", "allOf", "prefixItems"].includes(k) && Array.isArray(v)) {
        for (const [i, inner] of v.entries()) visit(inner, `${at}.${k}[${i}]`, k);
      }
    }
  };
  visit(schema, path);
  return warnings;
}

describe("the tool list, as an MCP client receives it", () => {
  let workspace: Workspace;
  let session: McpSession;
  beforeAll(async () => {
    workspace = new Workspace({ env: {}, store: new MemoryCredentialStore(), state: new MemoryState() });
    session = await mcpSession(workspace);
  });
  afterAll(async () => session.close());

  it("gives the Inspector's strict checks nothing to warn about, with and without connected accounts", async () => {
    const { tools: listed } = await session.client.listTools();
    expect(listed).toHaveLength(5);
    const tools = [...listed, ...listTools({ accounts: ["main", "agency"] })];
    const warnings = tools.flatMap((tool) => [
      ...strictWarnings(tool.inputSchema, `${tool.name}.inputSchema`),
      ...strictWarnings(tool.outputSchema, `${tool.name}.outputSchema`),
    ]);
    expect(warnings).toEqual([]);
  });

  it("compiles every schema with Ajv's JSON Schema 2020-12 strict mode, warnings counted as failures", () => {
    const problems: string[] = [];
    const tools = listTools({ accounts: ["main", "agency"] });
    for (const tool of tools) {
      for (const [which, schema] of [
        ["inputSchema", tool.inputSchema],
        ["outputSchema", tool.outputSchema],
      ] as const) {
        const at = `${tool.name}.${which}`;
        const warn = (message: unknown) => problems.push(`${at}: ${String(message)}`);
        const ajv = new Ajv2020({
          strict: true,
          strictTypes: true,
          strictTuples: true,
          strictRequired: true,
          logger: { log: () => undefined, warn, error: warn },
        });
        addFormats.default(ajv);
        // The header-mirroring annotation of MCP (SEP-2243), on the Google `account` input.
        ajv.addKeyword("x-mcp-header");
        try {
          ajv.compile(schema ?? {});
        } catch (error) {
          warn((error as Error).message);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("finds what the strict checks look for (they can fail)", () => {
    expect(
      strictWarnings(
        { type: "object", properties: { a: { type: ["string", "null"] }, b: {}, c: true } },
        "x",
      ),
    ).toEqual([
      'x.properties.a: type is a list ["string","null"]',
      "x.properties.b: no type {}",
      "x.properties.c: boolean schema true",
    ]);
  });

  it("is lean: under 25,000 characters, under 6,000 of them output schemas", async () => {
    // The list a workspace with one connected Google account gets (the account enum is part of it).
    const tools = listTools({ accounts: ["main"] });
    const total = JSON.stringify(tools).length;
    const outputs = tools.reduce((sum, tool) => sum + JSON.stringify(tool.outputSchema ?? {}).length, 0);
    // Measured before this change: 22,036 characters, 7,751 of them output schemas (same account list).
    // Every input field's title and examples and the Marketo endpoint's pattern (issue 19) added 2,531:
    // 20,679 before them, 23,210 with them. Then Run Reports' funnel mode (issue 17) and the Marketo step's
    // bulk-import file and run_to_completion fields, each with its title: 24,4xx.
    // Run Reports' `_meta` naming its MCP App view (ui.resourceUri and the deprecated flat key): 24,648.
    // Marketo's where, order_by and count_by (issue 27), with other Marketo descriptions made shorter: 24,917.
    // Served lean since issue 27 (src/mcp/lean-schema.ts): 16,6xx, 3,369 of them output schemas; the token
    // budget is test/mcp/tool-list-tokens.test.ts.
    console.info(`tool list: ${total} characters, output schemas ${outputs}`);
    expect(total).toBeLessThan(25_000);
    expect(outputs).toBeLessThan(6_000);
  });

  it("puts the same strict-clean schemas in manifest.json", () => {
    const warnings = buildManifest().steps.flatMap((step) => [
      ...strictWarnings(step.inputSchema, `${step.id}.inputSchema`),
      ...strictWarnings(step.outputSchema, `${step.id}.outputSchema`),
    ]);
    expect(warnings).toEqual([]);
  });
});
