/**
 * Token cost, after the method of the public GA4 MCP token benchmarks: the tokens of the tool list an
 * agent loads once, plus the tokens of each answer it reads, per marketer task. This package's MCP
 * answers (the text content a client hands to the model) are counted against the raw API JSON of the
 * same request (what an agent calling the REST API, or a thin wrapper passing JSON through, reads), on
 * the sandboxes. Counted with a real tokenizer: gpt-tokenizer's o200k_base (the GPT-4o / GPT-5 encoding).
 */
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { MemoryCredentialStore } from "../../src/auth/credential-store.js";
import { createMcpServer } from "../../src/mcp/server.js";
import { sandboxEnv, startGoogleSandbox, startMarketoSandbox } from "../../src/sandbox/index.js";
import { MemoryState } from "../../src/state/memory.js";
import { Workspace } from "../../src/workspace.js";

export const ENCODING = "o200k_base";

export interface TokenTask {
  name: string;
  tool: string;
  input: Record<string, unknown>;
  /** The same request on the raw API: method, URL (from the sandboxes' bases), body. */
  raw(bases: { rest: string; data: string; admin: string }): { method: string; url: string; body?: unknown };
  api: "marketo" | "google";
}

const PROPERTY = "412345671";
const REPORT_BODY = {
  dateRanges: [{ startDate: "2026-08-01", endDate: "2026-10-31" }],
  dimensions: [{ name: "date" }, { name: "deviceCategory" }],
  metrics: [{ name: "sessions" }, { name: "totalUsers" }],
  limit: 200,
};

export const TASKS: readonly TokenTask[] = [
  {
    name: "200-row GA4 report (date × device: sessions, users)",
    tool: "google_analytics_run_reports",
    input: {
      property: PROPERTY,
      date_ranges: [{ start_date: "2026-08-01", end_date: "2026-10-31" }],
      dimensions: ["date", "deviceCategory"],
      metrics: ["sessions", "totalUsers"],
      limit: 200,
    },
    raw: (b) => ({
      method: "POST",
      url: `${b.data}/v1beta/properties/${PROPERTY}:runReport`,
      body: REPORT_BODY,
    }),
    api: "google",
  },
  {
    name: "GA4 account and property list",
    tool: "google_analytics_api_call",
    input: { method: "GET", endpoint: "v1beta/accountSummaries" },
    raw: (b) => ({ method: "GET", url: `${b.admin}/v1beta/accountSummaries` }),
    api: "google",
  },
  {
    name: "Marketo lead lookup by email",
    tool: "marketo_api_call",
    input: {
      method: "GET",
      endpoint: "/rest/v1/leads.json",
      query_parameters: { filterType: "email", filterValues: "lead42@example.com" },
    },
    raw: (b) => ({
      method: "GET",
      url: `${b.rest}/v1/leads.json?filterType=email&filterValues=lead42%40example.com`,
    }),
    api: "marketo",
  },
  {
    name: "Marketo static list read (first 100 members)",
    tool: "marketo_api_call",
    input: {
      method: "GET",
      endpoint: "/rest/v1/lists/1001/leads.json",
      query_parameters: { batchSize: "100" },
    },
    raw: (b) => ({ method: "GET", url: `${b.rest}/v1/lists/1001/leads.json?batchSize=100` }),
    api: "marketo",
  },
];

export interface TokenCounts {
  toolList: number;
  tasks: { name: string; ours: number; raw: number }[];
}

/** What the model reads of a tools/call answer: its text content. */
function answerText(result: { content?: unknown }): string {
  const content = Array.isArray(result.content) ? (result.content as { type: string; text?: string }[]) : [];
  return content
    .filter((part) => part.type === "text")
    .map((part) => part.text ?? "")
    .join("\n");
}

async function bearer(url: string, form: Record<string, string>): Promise<string> {
  const response = await fetch(url, { method: "POST", body: new URLSearchParams(form) });
  const body = (await response.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`no access token from ${url}`);
  return body.access_token;
}

/** Counts the tool list and each task's answer, ours and raw, on fresh sandboxes. */
export async function countTaskTokens(): Promise<TokenCounts> {
  const [marketo, google] = await Promise.all([startMarketoSandbox(), startGoogleSandbox()]);
  const workspace = new Workspace({
    env: sandboxEnv({ marketo, google }),
    store: new MemoryCredentialStore(),
    state: new MemoryState(),
  });
  const client = new Client({ name: "bench-tokens", version: "1.0.0" });
  try {
    const refreshToken = google.issueRefreshToken("analyst@sandbox.example");
    await workspace.importAccount({ label: "analyst", refreshToken });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer({ workspace }).server.connect(serverSide);
    await client.connect(clientSide);
    const { tools } = await client.listTools();
    const tokens = {
      marketo: await bearer(`${marketo.url}/identity/oauth/token`, {
        grant_type: "client_credentials",
        client_id: marketo.clientId,
        client_secret: marketo.clientSecret,
      }),
      google: await bearer(`${google.oauthUrl}/token`, {
        grant_type: "refresh_token",
        refresh_token: refreshToken,
        client_id: google.clientId,
        client_secret: google.clientSecret,
      }),
    };
    const bases = { rest: marketo.restEndpoint, data: google.dataApiUrl, admin: google.adminApiUrl };
    const tasks = [];
    for (const task of TASKS) {
      const ours = await client.callTool({ name: task.tool, arguments: task.input });
      if (ours.isError) throw new Error(`${task.name}: ${answerText(ours)}`);
      const request = task.raw(bases);
      const response = await fetch(request.url, {
        method: request.method,
        headers: { authorization: `Bearer ${tokens[task.api]}`, "content-type": "application/json" },
        ...(request.body ? { body: JSON.stringify(request.body) } : {}),
      });
      if (!response.ok) throw new Error(`${task.name}: raw API answered HTTP ${response.status}`);
      // Raw JSON as the API sends it: the sandboxes, like Google and Marketo, answer compact JSON.
      tasks.push({
        name: task.name,
        ours: countTokens(answerText(ours)),
        raw: countTokens(await response.text()),
      });
    }
    return { toolList: countTokens(JSON.stringify(tools)), tasks };
  } finally {
    await client.close();
    await workspace.close();
    await Promise.all([marketo.close(), google.close()]);
  }
}

/** The printed table: tokens per task, ours against raw JSON, and the tool list loaded once. */
export function tokenTable(counts: TokenCounts): string {
  const k = (n: number) => `${(n / 1000).toFixed(1)} K`;
  const lines = [
    `Token cost (${ENCODING}, gpt-tokenizer): tool list once, then each answer the model reads.`,
    "",
    "| task | martech-steps (MCP text) | raw API JSON | ratio |",
    "|---|---|---|---|",
    `| tools/list (${counts.toolList} tokens, loaded once) | ${k(counts.toolList)} | – | – |`,
    ...counts.tasks.map(
      (t) =>
        `| ${t.name} | ${k(t.ours)} (${t.ours}) | ${k(t.raw)} (${t.raw}) | ${(t.ours / t.raw).toFixed(2)} |`,
    ),
  ];
  const ours = counts.toolList + counts.tasks.reduce((sum, t) => sum + t.ours, 0);
  const raw = counts.tasks.reduce((sum, t) => sum + t.raw, 0);
  lines.push(
    `| all tasks, tool list included | ${k(ours)} (${ours}) | ${k(raw)} (${raw}) | ${(ours / raw).toFixed(2)} |`,
  );
  return lines.join("\n");
}
