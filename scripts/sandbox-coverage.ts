/**
 * `npm run sandbox:coverage`: how many operations of the real APIs' reference definitions the sandbox
 * serves, per API. The definitions are the operation lists of test/fixtures/real-api/*.json (made by
 * scripts/real-api.ts from Adobe's Marketo Swagger files and Google's GA4 discovery documents). An
 * operation counts as served when the sandbox answers it with something other than "this is not
 * emulated" or "no such method":
 *   - Marketo: the sandbox's own route table decides (src/sandbox/marketo/routes/index.ts `matchRoute`);
 *   - GA4 Data and Admin: each method is asked of a running Google sandbox, whatever way its routes
 *     are registered, and the answer read.
 * `npm run sandbox:coverage -- --docs` also writes the table into docs/sandbox.md between its markers.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET, startGoogleSandbox } from "../src/sandbox/google/index.js";
import { matchRoute } from "../src/sandbox/marketo/routes/index.js";

export interface ApiCoverage {
  api: string;
  served: string[];
  total: number;
}

const root = new URL("../", import.meta.url);

/** "METHOD /path/{param}" of one reference definition. */
export function operationsOf(fixture: string): string[] {
  const text = readFileSync(new URL(`test/fixtures/real-api/${fixture}.json`, root), "utf8");
  return Object.keys((JSON.parse(text) as { operations: Record<string, unknown> }).operations).sort();
}

/** A concrete request path for a template: every parameter a plausible numeric id. */
const concrete = (template: string) => template.replace(/\{[^}]+\}/g, "1");

function marketoCoverage(): ApiCoverage[] {
  const served = (op: string) => {
    const [method = "", template = ""] = op.split(" ");
    const kind = matchRoute(method, concrete(template)).kind;
    // A served route whose id is not a number answers a parameter error: still served.
    return kind === "found" || kind === "bad-parameter";
  };
  const mapi = operationsOf("marketo-mapi");
  const isBulk = (op: string) => op.split(" ")[1]?.startsWith("/bulk/") === true;
  const groups: [string, string[]][] = [
    ["Marketo Lead DB", mapi.filter((op) => !isBulk(op))],
    ["Marketo bulk", mapi.filter(isBulk)],
    ["Marketo asset", operationsOf("marketo-asset")],
  ];
  return groups.map(([api, ops]) => ({ api, served: ops.filter(served), total: ops.length }));
}

async function googleToken(oauthUrl: string, refreshToken: string): Promise<string> {
  const res = await fetch(`${oauthUrl}/token`, {
    method: "POST",
    body: new URLSearchParams({
      grant_type: "refresh_token",
      refresh_token: refreshToken,
      client_id: DEFAULT_CLIENT_ID,
      client_secret: DEFAULT_CLIENT_SECRET,
    }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

/** Asks each method of the discovery document of one API; served unless the answer says it is not. */
async function probe(base: string, token: string, ops: string[]): Promise<string[]> {
  const served: string[] = [];
  for (const op of ops) {
    const [method = "", template = ""] = op.split(" ");
    const res = await fetch(`${base}${concrete(template)}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(method === "GET" || method === "DELETE" ? {} : { body: "{}" }),
    });
    const text = await res.text();
    const unserved = res.status === 404 && /does not emulate|Method not found/.test(text);
    if (!unserved) served.push(op);
  }
  return served;
}

async function googleCoverage(): Promise<ApiCoverage[]> {
  const sandbox = await startGoogleSandbox();
  try {
    const email = "analyst@sandbox.example";
    const token = await googleToken(sandbox.oauthUrl, sandbox.issueRefreshToken(email));
    const data = operationsOf("ga4-data");
    const admin = operationsOf("ga4-admin");
    return [
      { api: "GA4 Data", served: await probe(sandbox.dataApiUrl, token, data), total: data.length },
      { api: "GA4 Admin", served: await probe(sandbox.adminApiUrl, token, admin), total: admin.length },
    ];
  } finally {
    await sandbox.close();
  }
}

export async function measureCoverage(): Promise<ApiCoverage[]> {
  return [...marketoCoverage(), ...(await googleCoverage())];
}

/** The table as the command prints it (and docs/sandbox.md shows it). */
export function renderCoverage(rows: readonly ApiCoverage[]): string {
  const marketo = rows.filter((r) => r.api.startsWith("Marketo"));
  const total = {
    api: "Marketo (all)",
    served: marketo.flatMap((r) => r.served),
    total: marketo.reduce((sum, r) => sum + r.total, 0),
  };
  const lines = [...rows.slice(0, marketo.length), total, ...rows.slice(marketo.length)].map((r) => {
    const share = r.total === 0 ? 0 : Math.round((100 * r.served.length) / r.total);
    return `${r.api.padEnd(16)} ${String(r.served.length).padStart(3)} of ${String(r.total).padStart(3)} operations (${share}%)`;
  });
  return `${["API              served of the reference definitions", ...lines].join("\n")}\n`;
}

export const TABLE_START = "<!-- sandbox-coverage:start -->";
export const TABLE_END = "<!-- sandbox-coverage:end -->";

/** A Markdown text (docs/sandbox.md) with the table between its markers. */
export function withTable(markdown: string, table: string): string {
  const start = markdown.indexOf(TABLE_START);
  const end = markdown.indexOf(TABLE_END);
  if (start < 0 || end < start)
    throw new Error(`docs/sandbox.md has no ${TABLE_START} … ${TABLE_END} block.`);
  return `${markdown.slice(0, start + TABLE_START.length)}\n\`\`\`text\n${table}\`\`\`\n${markdown.slice(end)}`;
}

async function main(): Promise<void> {
  const table = renderCoverage(await measureCoverage());
  process.stdout.write(table);
  if (process.argv.includes("--docs")) {
    const path = new URL("docs/sandbox.md", root);
    writeFileSync(path, withTable(readFileSync(path, "utf8"), table));
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
