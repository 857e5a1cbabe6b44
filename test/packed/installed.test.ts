/**
 * What the tests prove must be what ships (issue 25). The package is packed (`npm pack` of the built
 * checkout), installed from the tarball into an empty project, and driven only as its users drive it: the
 * installed bin over stdio (`serve --sandbox`) and over HTTP (`start`, with the console), through an MCP
 * client, a browser's requests and Node's own `import`/`require`. No file of this folder imports the
 * checkout's src/ or dist/ (test/architecture/packed-imports.test.ts): a file the bundle or the package
 * leaves out, or a path that holds only in the checkout, fails here (the MCP App view was read from
 * dist/dist/mcp-app/ by the bin while every test of the source passed).
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { type CallToolResult, Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { childEnv } from "../helpers/child-env.js";
import {
  type Installed,
  npmWarnings,
  packAndInstall,
  type Running,
  runBin,
  startBin,
} from "../helpers/packed.js";
import { loadPage, servedAsItsKind, spendLoginLink } from "../helpers/packed-console.js";
import {
  committedManifest,
  committedTools,
  type LinkedResult,
  listAll,
  matchesTemplate,
  readLinks,
  readSome,
} from "../helpers/packed-mcp.js";

type Tool = Record<string, unknown> & { name: string; inputSchema: { properties?: Record<string, unknown> } };
const TRANSPORTS = ["stdio", "HTTP"] as const;
type TransportName = (typeof TRANSPORTS)[number];
const VIEW = "ui://martech-steps/report-chart";

/** The values a prompt's arguments take on the sandbox: a prompt with another argument fails the test. */
const PROMPT_VALUES: Record<string, string> = {
  property: "412345671",
  account: "sandbox",
  email: "lead3@example.com",
  from: "2026-11-01",
  to: "2026-11-30",
};

/**
 * What a tool's listing must keep of its committed schema: names, types, descriptions (inputs), required
 * fields and closed objects, at every depth. tools/list serves the schemas lean (titles, examples and the
 * validation keywords the steps apply again are left out: docs/ARCHITECTURE.md, the token budget), so the
 * listing is compared with tool-schemas/ on this, the part an agent reads.
 */
function agentView(node: unknown, withDescriptions: boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => agentView(item, withDescriptions));
  if (node === null || typeof node !== "object") return node;
  const kept = ["type", "properties", "required", "items", "additionalProperties", "anyOf", "oneOf", "allOf"];
  if (withDescriptions) kept.push("description");
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (!kept.includes(key)) continue;
    out[key] =
      key === "properties" && value && typeof value === "object"
        ? Object.fromEntries(
            Object.entries(value).map(([field, schema]) => [field, agentView(schema, withDescriptions)]),
          )
        : agentView(value, withDescriptions);
  }
  // A union of unions reads as one union (the listing serves it flat).
  if (Array.isArray(out.anyOf)) {
    out.anyOf = out.anyOf.flatMap((branch: unknown) => {
      const keys = branch && typeof branch === "object" ? Object.keys(branch) : [];
      return keys.length === 1 && keys[0] === "anyOf" ? (branch as { anyOf: unknown[] }).anyOf : [branch];
    });
  }
  return out;
}

type Schema = Record<string, unknown>;

/** A field's schema with the objects inside it as "object", as tools/list serves output fields. */
function shallow(field: Schema): Schema {
  if (field.type === "object" && field.properties) return { type: "object" };
  const items = field.items as Schema | undefined;
  return field.type === "array" && items?.type === "object" && items.properties
    ? { ...field, items: { type: "object" } }
    : field;
}

/** An output schema as an agent reads it: its fields and their types, the objects inside them as "object". */
function outputView(node: unknown): unknown {
  const view = agentView(node, false) as Schema;
  const properties = view.properties as Record<string, Schema> | undefined;
  if (!properties) return view;
  return {
    ...view,
    properties: Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, shallow(v)])),
  };
}

const toolView = (tool: Record<string, unknown>) => ({
  name: tool.name,
  description: tool.description,
  inputSchema: agentView(tool.inputSchema, true),
  outputSchema: outputView(tool.outputSchema),
  _meta: tool._meta,
});

let installed: Installed;
let http: Running;
const clients = {} as Record<TransportName, Client>;
const stdioStderr: string[] = [];

beforeAll(async () => {
  installed = await packAndInstall();
  const home = (name: string) => join(installed.work, `home-${name}`);
  const stdio = new StdioClientTransport({
    command: installed.bin,
    args: ["serve", "--sandbox"],
    cwd: installed.project,
    env: childEnv({ MARTECH_STEPS_HOME: home("stdio") }),
    stderr: "pipe",
  });
  stdio.stderr?.on("data", (chunk) => stdioStderr.push(String(chunk)));
  clients.stdio = new Client({ name: "packed-stdio", version: "1" });
  http = await startBin(installed, ["start", "--port", "0"], { MARTECH_STEPS_HOME: home("http") });
  const mcpUrl = /MCP server \(Streamable HTTP\): (http:\/\/\S+\/mcp)/.exec(http.banner)?.[1] ?? "";
  clients.HTTP = new Client({ name: "packed-http", version: "1" });
  await Promise.all([
    clients.stdio.connect(stdio),
    clients.HTTP.connect(new StreamableHTTPClientTransport(new URL(mcpUrl))),
  ]);
}, 300_000);

afterAll(async () => {
  await Promise.all(TRANSPORTS.map((name) => clients[name]?.close()));
  await http?.stop();
});

describe("the installed package, as a library", () => {
  it("installs with no npm warning, and without echarts (bundled, only what the server draws)", () => {
    expect(npmWarnings(installed.installStderr)).toEqual([]);
    expect(existsSync(join(installed.packageDir, "LICENSE"))).toBe(true);
    // The README's links and the hints that name a page of docs/ resolve in the installed package too.
    expect(existsSync(join(installed.packageDir, "docs/remote-sign-in.md"))).toBe(true);
    expect(existsSync(join(installed.project, "node_modules/echarts"))).toBe(false);
  });

  it("ships the licences of what its browser bundles contain, beside them (Apache-2.0 and MIT ask for it)", async () => {
    const dist = join(installed.packageDir, "dist");
    const consoleLicences = await readFile(join(dist, "console-web/THIRD-PARTY-LICENSES.md"), "utf8");
    const viewLicences = await readFile(join(dist, "mcp-app/report-chart.THIRD-PARTY-LICENSES.md"), "utf8");
    for (const text of [consoleLicences, viewLicences])
      for (const library of ["echarts", "zrender", "react"]) expect(text).toContain(`## ${library} - `);
    expect(viewLicences).toContain("## @modelcontextprotocol/ext-apps - ");
  });

  it("is imported as an ES module, with its manifest and package.json", async () => {
    const script = `
      const entry = await import("martech-steps");
      const { default: manifest } = await import("martech-steps/manifest.json", { with: { type: "json" } });
      const { default: pkg } = await import("martech-steps/package.json", { with: { type: "json" } });
      console.log(JSON.stringify([entry.TOOL_STEPS.map((step) => step.id),
        entry.searchToolSteps("marketing automation")[0].id, manifest.steps.map((step) => step.id), pkg.version]));`;
    const { stdout } = await nodeIn(["--input-type=module", "-e", script]);
    const ids = committedManifest().steps.map((step) => step.id);
    expect(JSON.parse(stdout)).toEqual([ids, "marketo_api_call", ids, installed.version]);
  });

  it("is required from CommonJS (require(esm): the entry has no top-level await)", async () => {
    // require(esm) is on by default since Node 20.19 and 22.12; engines asks for 20.19 or newer.
    const script = `const entry = require("martech-steps");
      console.log(typeof entry.runToolStep, entry.TOOL_STEPS.length, require("martech-steps/package.json").name);`;
    const { stdout } = await nodeIn(["-e", script]);
    expect(stdout.trim()).toBe(`function ${committedManifest().steps.length} martech-steps`);
  });

  it("runs its bin, and draws the Run Reports chart with the bundled ECharts and resvg", async () => {
    expect((await runBin(installed, ["--version"])).stdout.trim()).toBe(installed.version);
    const input = { account: "sandbox", property: "412345671", metrics: ["sessions"], dimensions: ["date"] };
    const { stdout } = await runBin(
      installed,
      [
        "call",
        "--sandbox",
        "google_analytics_run_reports",
        "--input",
        JSON.stringify({ ...input, chart: true }),
      ],
      { MARTECH_STEPS_HOME: join(installed.work, "home-call") },
    );
    expect((JSON.parse(stdout) as { rows: unknown[] }).rows.length).toBeGreaterThan(0);
  }, 60_000);
});

describe.each(TRANSPORTS)("the installed bin over %s, on the sandbox", (name) => {
  const read = new Set<string>();

  it("lists the committed tools (tool-schemas/), with the sandbox's Google account as the account choice", async () => {
    const tools = await listAll<Tool>((params) => clients[name].listTools(params), "tools");
    const expected = committedTools().map((tool) => {
      const properties = (tool.inputSchema as Tool["inputSchema"]).properties ?? {};
      const account = properties.account as Record<string, unknown> | undefined;
      if (!account) return tool;
      // One connected account: the field is that label, and its default (src/tools/account-schema.ts).
      const { title, description, "x-mcp-header": header } = account;
      const choice = {
        default: "sandbox",
        title,
        description,
        "x-mcp-header": header,
        type: "string",
        enum: ["sandbox"],
      };
      return {
        ...tool,
        inputSchema: { ...(tool.inputSchema as object), properties: { ...properties, account: choice } },
      };
    });
    // Run Reports names its chart view, an MCP App.
    const withView = (tool: Record<string, unknown>) =>
      tool.name === "google_analytics_run_reports"
        ? { ...tool, _meta: { ui: { resourceUri: VIEW }, "ui/resourceUri": VIEW } }
        : tool;
    expect(tools.map(toolView)).toEqual(expected.map(withView).map(toolView));
    expect(tools.map((tool) => tool.name)).toEqual(committedManifest().steps.map((step) => step.id));
  });

  it("reads every listed resource, the MCP App chart view among them", async () => {
    const resources = await listAll<{ uri: string; mimeType?: string }>(
      (params) => clients[name].listResources(params),
      "resources",
    );
    expect(resources.map((resource) => resource.uri)).toEqual(
      expect.arrayContaining(["martech-steps://manifest", VIEW]),
    );
    for (const resource of resources) {
      const [content] = await readSome(clients[name], resource.uri);
      expect(content?.mimeType, resource.uri).toBe(resource.mimeType);
      read.add(resource.uri);
    }
    const [view] = await readSome(clients[name], VIEW);
    expect(view?.mimeType).toBe("text/html;profile=mcp-app");
    expect(view?.text?.slice(0, 15).toLowerCase()).toBe("<!doctype html>");
  });

  it("gets every listed prompt, with content", async () => {
    const prompts = await listAll<{ name: string; arguments?: { name: string; required?: boolean }[] }>(
      (params) => clients[name].listPrompts(params),
      "prompts",
    );
    expect(prompts.length).toBeGreaterThan(0);
    for (const prompt of prompts) {
      const args = Object.fromEntries(
        (prompt.arguments ?? []).map((arg) => {
          const value = PROMPT_VALUES[arg.name];
          if (value === undefined)
            throw new Error(`prompt ${prompt.name}: give argument ${arg.name} a value`);
          return [arg.name, value];
        }),
      );
      const { messages } = await clients[name].getPrompt({ name: prompt.name, arguments: args });
      expect(messages.length, prompt.name).toBeGreaterThan(0);
      // Each message is text that uses the values given (a prompt that ignored them would read the same).
      for (const message of messages) {
        expect(message.content.type, prompt.name).toBe("text");
        const text = message.content.type === "text" ? message.content.text : "";
        for (const value of Object.values(args)) expect(text, prompt.name).toContain(value);
      }
    }
  });

  it("answers a call of each of the five steps, and serves the whole result a capped answer links", async () => {
    const call = async (tool: string, args: Record<string, unknown>) => {
      const result = (await clients[name].callTool({ name: tool, arguments: args })) as CallToolResult;
      expect(result.isError, `${tool}: ${JSON.stringify(result.content).slice(0, 500)}`).toBeFalsy();
      expect(result.structuredContent, tool).toBeTypeOf("object");
      called.add(tool);
      return result;
    };
    const called = new Set<string>();
    const summaries = (
      await call("google_analytics_api_call", { method: "GET", endpoint: "v1beta/accountSummaries" })
    ).structuredContent as {
      body: { accountSummaries: { account: string; propertySummaries?: { property: string }[] }[] };
    };
    const first = summaries.body.accountSummaries.find((one) => (one.propertySummaries?.length ?? 0) > 0);
    const property = first?.propertySummaries?.[0]?.property ?? "";
    const report = await call("google_analytics_run_reports", {
      property,
      metrics: ["sessions"],
      dimensions: ["date"],
      date_ranges: ["last7days"],
    });
    expect((report.structuredContent as { rows: unknown[] }).rows).toHaveLength(7);
    await call("google_analytics_create_key_events", {
      property,
      event_name: `packed_${name.toLowerCase()}`,
      skip_collection_check: true,
    });
    await call("google_analytics_create_properties", {
      analytics_account: first?.account ?? "",
      display_name: `Packed over ${name}`,
      time_zone: "Europe/Paris",
      currency_code: "EUR",
    });
    // List 1001's members, more than an answer shows: the answer links the whole read.
    const members = await call("marketo_api_call", {
      method: "GET",
      endpoint: "/rest/v1/lists/1001/leads.json",
      query_parameters: { batchSize: 300, fields: "id,email,firstName,lastName,company,title,country,city" },
      paginate: true,
    });
    expect(called).toEqual(new Set(committedManifest().steps.map((step) => step.id)));
    const shown = (members.structuredContent as { result: { id: number }[] }).result;
    const links = await readLinks(clients[name], members);
    expect(links.map((link) => link.mimeType)).toEqual(["application/json", "text/csv"]);
    for (const link of links) for (const page of link.pages) read.add(page.uri);
    const [json, csv] = links as [LinkedResult, LinkedResult];
    const ids = json.pages.flatMap((page) =>
      (JSON.parse(page.text ?? "[]") as { id: number }[]).map((r) => r.id),
    );
    expect(ids.length).toBe(json.meta[0]?.total_items);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.slice(0, shown.length)).toEqual(shown.map((record) => record.id));
    expect(ids.length).toBeGreaterThan(shown.length);
    // Each CSV page has its header row, then one row per record of the JSON page.
    expect(csv.pages.map((page) => (page.text ?? "").trim().split("\n").length - 1)).toEqual(
      json.meta.map((meta) => meta.items),
    );
    // The answer shows page 1 exactly (trial s36, N531: one record more, read twice with page 2).
    expect(JSON.parse(json.pages[0]?.text ?? "[]")).toHaveLength(shown.length);
    // join takes that kept result by its link: each lead of list 1002 on list 1001 gets its row.
    const joined = await call("marketo_api_call", {
      method: "GET",
      endpoint: "/rest/v1/lists/1002/leads.json",
      query_parameters: { fields: "id" },
      paginate: true,
      join: `${json.pages[0]?.uri} on id`,
      where: "joined is not empty",
    });
    const both = (joined.structuredContent as { computed: { matched: number } }).computed.matched;
    const onBoth = new Set(ids.map(String));
    const second = await call("marketo_api_call", {
      method: "GET",
      endpoint: "/rest/v1/lists/1002/leads.json",
      query_parameters: { fields: "id" },
      paginate: true,
    });
    const all = (await readLinks(clients[name], second))[0]?.pages.flatMap(
      (page) => JSON.parse(page.text ?? "[]") as { id: number }[],
    );
    expect(both).toBe((all ?? []).filter((lead) => onBoth.has(String(lead.id))).length);
    expect(both).toBeGreaterThan(0);
  }, 120_000);

  it("serves a resource under each resource template: listed, or linked from an answer", async () => {
    const templates = await listAll<{ uriTemplate: string }>(
      (params) => clients[name].listResourceTemplates(params),
      "resourceTemplates",
    );
    expect(templates.length).toBeGreaterThan(0);
    for (const { uriTemplate } of templates)
      expect(
        [...read].some((uri) => matchesTemplate(uriTemplate, uri)),
        uriTemplate,
      ).toBe(true);
  });
});

describe("the console of the installed bin's start", () => {
  it("loads from the printed login link, and every asset the page references is served as its kind", async () => {
    const link = /Console \(open in your browser; the login link works once\): (http:\/\/\S+)/.exec(
      http.banner,
    )?.[1];
    expect(link).toMatch(/\/\?token=/);
    const base = new URL("/", link).href;
    const { cookie, location } = await spendLoginLink(link ?? "");
    expect(location).toBe("/");
    const { html, assets } = await loadPage(base, cookie);
    expect(html).toContain('<div id="root">');
    // The entry script, its stylesheet and the lazy chunks it imports (the step runner, the chart).
    expect(assets.length).toBeGreaterThanOrEqual(4);
    expect(assets.filter((asset) => !servedAsItsKind(asset))).toEqual([]);
    const session = await fetch(new URL("/console/api/session", base), { headers: { cookie } });
    expect(session.status).toBe(200);
    expect(await session.json()).toMatchObject({ workspace: "default", csrfToken: expect.any(String) });
  });
});

/** Node, in the consumer project, with only PATH and TMPDIR of the runner's environment. */
function nodeIn(args: string[]): Promise<{ stdout: string }> {
  return promisify(execFile)(process.execPath, args, { cwd: installed.project, env: childEnv() });
}
