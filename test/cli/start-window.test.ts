import { spawn } from "node:child_process";
import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { childEnv } from "../helpers/child-env.js";
import { BIN, freshHome, stopChild } from "../helpers/cli.js";
import { freePort } from "../helpers/free-port.js";

/**
 * Issue 26, item 0: while the server started, the OAuth-protected /mcp answered tool calls without a token
 * (the OAuth layer was mounted after the socket opened), /readyz said 200 and the Protected Resource
 * Metadata was 404. Each start below is polled from its first accepted connection: the pollers run before
 * the process is spawned, on the port it is told to take, and keep trying until it answers.
 */

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "poll", version: "1" } },
};
/** A 2026-07-28 call needs no session: the one request a client without a token would try. */
const CALL = {
  jsonrpc: "2.0",
  id: 2,
  method: "tools/call",
  params: {
    name: "marketo_api_call",
    arguments: { method: "GET", endpoint: "/rest/v1/lists.json" },
    _meta: META,
  },
};
const CALL_HEADERS = {
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "tools/call",
  "mcp-name": "marketo_api_call",
};

type Probe = "initialize" | "call" | "readyz" | "metadata";

interface Sample {
  probe: Probe;
  /** When the request was sent and when its answer ended (ms, this process's clock). */
  sent: number;
  answered: number;
  /** 0: no connection (not listening yet). */
  status: number;
  text: string;
}

function once(port: number, probe: Probe): Promise<Sample> {
  const sent = performance.now();
  const post = probe === "initialize" || probe === "call";
  const path = post ? "/mcp" : probe === "readyz" ? "/readyz" : "/.well-known/oauth-protected-resource/mcp";
  return new Promise((resolve) => {
    const done = (status: number, text: string) =>
      resolve({ probe, sent, answered: performance.now(), status, text });
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: post ? "POST" : "GET",
        agent: false,
        headers: {
          host: `127.0.0.1:${port}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(probe === "call" ? CALL_HEADERS : {}),
        },
        timeout: 10_000,
      },
      (res) => {
        let text = "";
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () => done(res.statusCode ?? 0, text));
        res.on("error", () => done(res.statusCode ?? 0, text));
      },
    );
    req.on("timeout", () => req.destroy());
    req.on("error", () => done(0, ""));
    req.end(post ? JSON.stringify(probe === "call" ? CALL : INITIALIZE) : undefined);
  });
}

interface Mode {
  name: string;
  args: string[];
  env: Record<string, string>;
  /** /mcp refuses a request without a credential once started (OAuth or API keys). */
  guarded: boolean;
  /** The Protected Resource Metadata is served once started. */
  oauth: boolean;
}

/** Spawns the command on a reserved port with the pollers already running; every sample until it is ready. */
async function pollStart(mode: Mode): Promise<Sample[]> {
  const port = await freePort();
  const samples: Sample[] = [];
  let readyAt: number | undefined;
  let stop = false;
  const deadline = performance.now() + 45_000;
  const loop = async (probe: Probe) => {
    while (!stop && performance.now() < deadline) {
      const sample = await once(port, probe);
      samples.push(sample);
      if (sample.status === 0) await new Promise((resolve) => setImmediate(resolve));
      if (probe === "readyz" && sample.status === 200) readyAt ??= sample.answered;
      // A few rounds after ready, to see that everything answers as mounted.
      if (readyAt !== undefined && sample.sent > readyAt + 300) stop = true;
    }
  };
  const probes: Probe[] = ["initialize", "call", "readyz", ...(mode.oauth ? (["metadata"] as const) : [])];
  const polling = Promise.all(probes.map(loop));
  const child = spawn(process.execPath, [BIN, ...mode.args, "--port", String(port)], {
    env: childEnv({ MARTECH_STEPS_HOME: await freshHome("start-window-"), ...mode.env }),
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  try {
    await polling;
  } finally {
    await stopChild(child);
  }
  expect(readyAt, `${mode.name} never became ready: ${stderr}`).toBeDefined();
  return samples;
}

/** What a start must never show, counted by kind (empty when it held), with one answer of each kind. */
function violations(mode: Mode, samples: Sample[]): Record<string, { count: number; example: string }> {
  const found: Record<string, { count: number; example: string }> = {};
  const add = (what: string, s: Sample) => {
    const key = `${mode.name}: ${s.probe} ${s.status} ${what}`;
    found[key] ??= { count: 0, example: s.text.slice(0, 160) };
    (found[key] as { count: number }).count += 1;
  };
  const readyAt = Math.min(
    ...samples.filter((s) => s.probe === "readyz" && s.status === 200).map((s) => s.answered),
  );
  for (const s of samples) {
    if (s.status === 0) continue;
    const mcp = s.probe === "initialize" || s.probe === "call";
    if (mode.guarded && mcp && s.status < 300) add("without a credential", s);
    if (mode.oauth && s.probe === "metadata" && s.status === 404) add("(no metadata)", s);
    // Once /readyz said 200, every route answers as mounted.
    if (s.sent > readyAt && mode.guarded && mcp && s.status !== 401) add("after /readyz said ready", s);
    if (s.sent > readyAt && s.probe === "metadata" && s.status !== 200) add("after /readyz said ready", s);
  }
  return found;
}

const embedded = { MARTECH_STEPS_OAUTH: "embedded" };

const MODES: Mode[] = [
  ...[1, 2].map((n) => ({
    name: `start, embedded OAuth #${n}`,
    args: ["start"],
    env: embedded,
    guarded: true,
    oauth: true,
  })),
  {
    name: "serve --http, embedded OAuth",
    args: ["serve", "--http", "--sandbox"],
    env: embedded,
    guarded: true,
    oauth: true,
  },
  {
    name: "serve --http, external issuer",
    // Nothing is asked of the issuer without a token: it need not answer.
    args: ["serve", "--http", "--sandbox"],
    env: { MARTECH_STEPS_OAUTH_ISSUER: "http://127.0.0.1:9/" },
    guarded: true,
    oauth: true,
  },
  {
    name: "serve --http, API keys",
    args: ["serve", "--http", "--sandbox"],
    env: { MARTECH_STEPS_API_KEYS: `default:${"k".repeat(32)}` },
    guarded: true,
    oauth: false,
  },
  { name: "start, loopback without keys", args: ["start"], env: {}, guarded: false, oauth: false },
];

describe("a starting server, polled from its first accepted connection", () => {
  it("never serves /mcp before its credential check, and /readyz is 200 only once every route is mounted", async () => {
    const found: ReturnType<typeof violations> = {};
    for (const mode of MODES) {
      const samples = await pollStart(mode);
      // The pollers reached the server: the window, if any, was observed.
      expect(samples.some((s) => s.status !== 0)).toBe(true);
      Object.assign(found, violations(mode, samples));
    }
    expect(found).toEqual({});
  }, 300_000);
});
