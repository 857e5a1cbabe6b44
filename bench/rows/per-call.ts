/**
 * Per-call cost rows: MarketoConnector.request, runToolStep (credentials in the environment, and saved
 * by `marketo configure`) and an MCP call in memory, each against its floor in the same run: a raw
 * fetch of the same URL (parsing the same JSON), or the SDK's minimal one-tool server.
 */
import { spawnSync } from "node:child_process";
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { MarketoConnector } from "../../src/connectors/marketo/connector.js";
import { createMcpServer } from "../../src/mcp/server.js";
import { MemoryState } from "../../src/state/memory.js";
import { runToolStep } from "../../src/tools/run.js";
import { Workspace } from "../../src/workspace.js";
import type { BenchConfig } from "../lib/config.js";
import { minimalServer } from "../lib/minimal-server.js";
import { interleaved, percentile, type Row, ratioRow } from "../lib/stats.js";
import { benchHome } from "../lib/temp-home.js";
import { type MarketoTarget, OPEN_LIMITS, rawMarketoToken, type Upstream } from "../lib/upstream.js";

const QUERY = { filterType: "id", filterValues: "1" };
const INPUT = { method: "GET", endpoint: "/rest/v1/leads.json", query_parameters: QUERY };

/** The p50 of `calls` sequential calls, after `warmup` unmeasured ones. */
async function p50(calls: number, warmup: number, call: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < warmup; i++) await call();
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const start = performance.now();
    await call();
    times.push(performance.now() - start);
  }
  return percentile(times, 0.5);
}

function rawCall(target: MarketoTarget, token: string): () => Promise<unknown> {
  const url = `${target.restEndpoint}/v1/leads.json?${new URLSearchParams(QUERY)}`;
  return async () => {
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const body = (await res.json()) as { success: boolean };
    if (!body.success) throw new Error("raw call failed");
    return body;
  };
}

/** Limits raised to the sandbox's: the rows measure cost per call, never a wait in the window. */
const OPEN_ENV = {
  MARKETO_CALLS_PER_WINDOW: "1000000000",
  MARKETO_MAX_CONCURRENT: "1000",
  MARKETO_DAILY_QUOTA: "1000000000",
};

/** A credential folder of its own, with the Marketo credentials saved by the real `marketo configure`. */
function configuredHome(target: MarketoTarget): string {
  const home = benchHome();
  const result = spawnSync(
    process.execPath,
    [
      "dist/cli/main.js",
      "marketo",
      "configure",
      "--client-id",
      target.clientId,
      "--endpoint",
      target.restEndpoint,
    ],
    {
      input: `${target.clientSecret}\n`,
      env: { ...process.env, MARTECH_STEPS_HOME: home },
      encoding: "utf8",
    },
  );
  if (result.status !== 0) throw new Error(`marketo configure failed: ${result.stderr}`);
  return home;
}

/** A sample of one call: the p50 of `calls` of them, after the warm-up. */
type Measure = (call: () => Promise<unknown>) => () => Promise<number>;

export async function perCallRows(up: Upstream, cfg: BenchConfig): Promise<Row[]> {
  const target = await up.marketo(OPEN_LIMITS);
  const token = await rawMarketoToken(target);
  const raw = rawCall(target, token);
  const measure: Measure = (call) => () => p50(cfg.calls, cfg.warmup, call);
  const rows: Row[] = [];

  rows.push(await connectorRow(target, cfg, measure, raw));

  const emptyHome = benchHome();
  const envWorkspace = new Workspace({
    env: {
      MARTECH_STEPS_HOME: emptyHome,
      MARKETO_CLIENT_ID: target.clientId,
      MARKETO_CLIENT_SECRET: target.clientSecret,
      MARKETO_REST_ENDPOINT: target.restEndpoint,
      ...OPEN_ENV,
    },
  });
  const savedWorkspace = new Workspace({ env: { MARTECH_STEPS_HOME: configuredHome(target), ...OPEN_ENV } });
  rows.push(...(await stepRows(envWorkspace, savedWorkspace, cfg, measure, raw)));

  const { row, clients } = await mcpRow(envWorkspace, cfg, measure, raw);
  rows.push(row);
  await Promise.all([...clients.map((c) => c.close()), envWorkspace.close(), savedWorkspace.close()]);
  await up.close(target.handle);
  return rows;
}

/** MarketoConnector.request against a raw fetch of the same URL. */
async function connectorRow(
  target: MarketoTarget,
  cfg: BenchConfig,
  measure: Measure,
  raw: () => Promise<unknown>,
): Promise<Row> {
  const connector = new MarketoConnector(
    {
      clientId: target.clientId,
      clientSecret: target.clientSecret,
      restEndpoint: target.restEndpoint,
      callsPerWindow: 1_000_000_000,
      dailyQuota: 1_000_000_000,
    },
    { state: new MemoryState() },
  );
  const viaConnector = () => connector.request({ method: "GET", path: "/rest/v1/leads.json", query: QUERY });
  return ratioRow(
    { name: "MarketoConnector.request, p50", unit: "ms", floorName: "raw fetch" },
    await interleaved(cfg.repeats, measure(viaConnector), measure(raw)),
    1.15,
  );
}

/** runToolStep with the credentials in the environment, then saved by `marketo configure`. */
async function stepRows(
  envWorkspace: Workspace,
  savedWorkspace: Workspace,
  cfg: BenchConfig,
  measure: Measure,
  raw: () => Promise<unknown>,
): Promise<Row[]> {
  const step = (workspace: Workspace) => async () =>
    runToolStep("marketo_api_call", INPUT, await workspace.toolContext({}));
  const rows: Row[] = [];
  rows.push(
    ratioRow(
      { name: "runToolStep, credentials in the environment, p50", unit: "ms", floorName: "raw fetch" },
      await interleaved(cfg.repeats, measure(step(envWorkspace)), measure(raw)),
      1.25,
    ),
  );
  rows.push(
    ratioRow(
      {
        name: "runToolStep, credentials saved by `marketo configure`, p50",
        unit: "ms",
        floorName: "raw fetch",
      },
      await interleaved(cfg.repeats, measure(step(savedWorkspace)), measure(raw)),
      1.25,
    ),
  );
  return rows;
}

/** An MCP tools/call in memory against the SDK's minimal one-tool server; the clients are closed by the caller. */
async function mcpRow(
  envWorkspace: Workspace,
  cfg: BenchConfig,
  measure: Measure,
  raw: () => Promise<unknown>,
): Promise<{ row: Row; clients: Client[] }> {
  // One SDK v2 client for both servers, linked in memory.
  const connect = async (server: { connect: (t: InMemoryTransport) => Promise<void> }) => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "bench", version: "1.0.0" });
    await client.connect(clientSide);
    return client;
  };
  const ours = await connect(createMcpServer({ workspace: envWorkspace }).server);
  const floor = await connect(minimalServer(raw));
  const viaMcp = (client: Client, name: string, args: Record<string, unknown>) => async () => {
    const result = await client.callTool({ name, arguments: args });
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
    return result;
  };
  const row = ratioRow(
    { name: "MCP tools/call in memory, p50", unit: "ms", floorName: "SDK minimal server" },
    await interleaved(
      cfg.repeats,
      measure(viaMcp(ours, "marketo_api_call", INPUT)),
      measure(viaMcp(floor, "get_lead", { id: 1 })),
    ),
    1.25,
  );
  return { row, clients: [ours, floor] };
}
