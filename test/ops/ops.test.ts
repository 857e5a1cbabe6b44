import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CredentialStore, MemoryCredentialStore } from "../../src/auth/credential-store.js";
import { NetworkError } from "../../src/errors.js";
import { type HttpServerHandle, startHttpServer } from "../../src/host/http.js";
import { MemoryState } from "../../src/state/memory.js";
import { RedisState } from "../../src/state/redis.js";
import { Workspace } from "../../src/workspace.js";
import { CANARY_SECRET, type MarketoFixture, marketoFixture } from "../helpers/fixtures.js";
import { raw } from "../helpers/raw-http.js";

const get = (url: string, headers: Record<string, string> = {}) => raw(url, { method: "GET", headers });
const base = (handle: HttpServerHandle) => handle.url.replace(/\/mcp$/, "");

/** The value of one sample of the Prometheus text, or undefined when it is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) continue;
    const match = /^([a-z_]+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = (match[2] ?? "").split(",").filter(Boolean);
    if (want.every((w) => have.includes(w)) && have.length === want.length) return Number(match[3]);
  }
  return undefined;
}

async function callMarketo(handle: HttpServerHandle, endpoint: string): Promise<CallToolResult> {
  const client = new Client({ name: "ops-test", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
  try {
    return (await client.callTool({
      name: "marketo_api_call",
      arguments: { method: "GET", endpoint },
    })) as CallToolResult;
  } finally {
    await client.close();
  }
}

describe("operations endpoints", () => {
  let fixture: MarketoFixture;
  let http: HttpServerHandle;

  beforeAll(async () => {
    // A window of 2 calls per 400 ms at the sandbox while the server believes in 100: the burst below
    // draws 606s, which the metrics must count (with the retries that follow them).
    fixture = await marketoFixture(
      { rateLimit: 2, rateWindowMs: 400 },
      { MARKETO_WINDOW_MS: "400", MARKETO_CALLS_PER_WINDOW: "100" },
    );
    http = await startHttpServer({ workspace: () => fixture.workspace });
  });
  afterAll(async () => {
    await http.close();
    await fixture.close();
  });

  it("/healthz answers 200 JSON while the process runs", async () => {
    const res = await get(`${base(http)}/healthz`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toContain("application/json");
    expect(JSON.parse(res.text)).toEqual({ status: "alive" });
  });

  it("/readyz answers 200 when the store reads and no Redis is configured", async () => {
    const res = await get(`${base(http)}/readyz`);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({
      status: "ready",
      checks: { routes: "ok", credential_store: "ok", redis: "not configured" },
    });
  });

  it("the ops paths sit behind the Host check (DNS rebinding) and take GET only", async () => {
    for (const path of ["/healthz", "/readyz", "/metrics"]) {
      expect((await get(`${base(http)}${path}`, { host: "evil.example:80" })).status).toBe(403);
    }
    expect((await raw(`${base(http)}/healthz`, { method: "POST", body: {} })).status).toBe(405);
  });

  it("/metrics counts a sandbox call: step and outcome, upstream status, 606s, retries, waits, tokens, window, quota", async () => {
    const results = await Promise.all(
      [1, 2, 3, 4].map((id) => callMarketo(http, `/rest/v1/lead/${id}.json`)),
    );
    expect(results.every((r) => !r.isError)).toBe(true);
    expect(fixture.sandbox.stats().rejected["606"]).toBeGreaterThan(0);
    const refused606 = fixture.sandbox.stats().rejected["606"];
    const bad = await callMarketo(http, "https://evil.example/rest/v1/leads.json");
    expect(bad.isError).toBe(true);

    const res = await get(`${base(http)}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toContain("text/plain");
    const text = res.text;
    const step = { step: "marketo_api_call" };
    expect(sample(text, "martech_steps_tool_calls_total", { ...step, outcome: "ok" })).toBe(4);
    expect(sample(text, "martech_steps_tool_calls_total", { ...step, outcome: "invalid_input" })).toBe(1);
    expect(sample(text, "martech_steps_tool_call_duration_seconds_count", step)).toBe(5);
    expect(sample(text, "martech_steps_upstream_requests_total", { service: "marketo", status: "200" })).toBe(
      4 + refused606,
    );
    expect(
      sample(text, "martech_steps_upstream_limit_refusals_total", { service: "marketo", code: "606" }),
    ).toBe(refused606);
    expect(sample(text, "martech_steps_retries_total", { service: "marketo" })).toBe(refused606);
    expect(sample(text, "martech_steps_limiter_wait_seconds_count", { service: "marketo" })).toBe(
      4 + refused606,
    );
    expect(sample(text, "martech_steps_tokens_fetched_total", { service: "marketo" })).toBe(1);
    const windowUse = sample(text, "martech_steps_marketo_window_use_ratio", { service: "marketo" });
    expect(windowUse).toBeGreaterThan(0);
    expect(windowUse).toBeLessThanOrEqual(1);
    expect(sample(text, "martech_steps_marketo_daily_quota_remaining", { service: "marketo" })).toBe(
      50_000 - (4 + refused606),
    );
    // Process metrics come with it.
    expect(sample(text, "martech_steps_process_resident_memory_bytes")).toBeGreaterThan(0);
  });

  it("/metrics holds no secret, host, path or caller input in any label", async () => {
    const text = (await get(`${base(http)}/metrics`)).text;
    expect(text).not.toContain(CANARY_SECRET);
    expect(text).not.toContain(fixture.sandbox.clientId);
    expect(text).not.toContain("127.0.0.1");
    expect(text).not.toContain("evil.example");
    expect(text).not.toContain("/rest/");
    const labelValues = [...text.matchAll(/(\w+)="([^"]*)"/g)].map(([, key, value]) => `${key}=${value}`);
    const allowed =
      /^(step=(marketo_api_call|google_\w+|unknown)|outcome=[a-z_]+|service=(marketo|google_analytics)|status=(\d{3}|network_error)|code=(606|615|429)|le=[\d.+Inf]+|version=[\w.-]+|major=\d+|minor=\d+|patch=\d+|space=\w+|kind=\w+|type=\w+)$/;
    expect(labelValues.filter((l) => !allowed.test(l))).toEqual([]);
  });
});

describe("readiness when a dependency fails", () => {
  const serve = async (workspace: Workspace) => startHttpServer({ workspace: () => workspace });

  it("answers 503 naming Redis when REDIS_URL's server does not answer, without the URL or its password", async () => {
    const state = new RedisState({ url: `redis://:${CANARY_SECRET}@127.0.0.1:1/0` });
    const workspace = new Workspace({ env: {}, store: new MemoryCredentialStore(), state });
    const http = await serve(workspace);
    try {
      const res = await get(`${base(http)}/readyz`);
      expect(res.status).toBe(503);
      const body = JSON.parse(res.text);
      expect(body.status).toBe("not ready");
      expect(body.checks.credential_store).toBe("ok");
      expect(body.checks.redis).toMatch(/^failed/);
      expect(res.text).not.toContain(CANARY_SECRET);
      expect(res.text).not.toContain("127.0.0.1:1");
      // Alive all the same: a load balancer takes it out of rotation, nothing restarts it.
      expect((await get(`${base(http)}/healthz`)).status).toBe(200);
    } finally {
      await http.close();
      await state.close();
    }
  });

  it("answers 503 naming the credential store when it cannot be read", async () => {
    const broken: CredentialStore = {
      read: async () => {
        throw new NetworkError(`store at redis://:${CANARY_SECRET}@10.0.0.1 is down`);
      },
      update: async () => {
        throw new Error("unused");
      },
    };
    const workspace = new Workspace({ env: {}, store: broken, state: new MemoryState() });
    const http = await serve(workspace);
    try {
      const res = await get(`${base(http)}/readyz`);
      expect(res.status).toBe(503);
      expect(JSON.parse(res.text)).toEqual({
        status: "not ready",
        checks: { routes: "ok", credential_store: "failed: network_error", redis: "not configured" },
      });
      expect(res.text).not.toContain(CANARY_SECRET);
    } finally {
      await http.close();
    }
  });
});

describe("/metrics with API keys", () => {
  it("needs a key of this server when it has keys; health and readiness do not", async () => {
    const key = "ops-test-key-0123456789abcdef";
    const workspace = new Workspace({
      env: {},
      store: new MemoryCredentialStore(),
      state: new MemoryState(),
    });
    const http = await startHttpServer({ workspace: () => workspace, apiKeys: new Map([[key, "default"]]) });
    try {
      expect((await get(`${base(http)}/healthz`)).status).toBe(200);
      expect((await get(`${base(http)}/readyz`)).status).toBe(200);
      const refused = await get(`${base(http)}/metrics`);
      expect(refused.status).toBe(401);
      expect(refused.text).not.toContain("martech_steps_");
      expect(
        (await get(`${base(http)}/metrics`, { authorization: "Bearer not-a-key-of-this-server" })).status,
      ).toBe(401);
      const allowed = await get(`${base(http)}/metrics`, { authorization: `Bearer ${key}` });
      expect(allowed.status).toBe(200);
      expect(allowed.text).toContain("martech_steps_tool_calls_total");
      expect(allowed.text).not.toContain(key);
    } finally {
      await http.close();
    }
  });
});
