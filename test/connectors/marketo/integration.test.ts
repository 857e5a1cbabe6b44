import nock from "nock";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { MarketoConnector } from "../../../src/connectors/marketo/connector.js";
import type { MarketoConnectorConfig } from "../../../src/connectors/marketo/types.js";
import {
  type MarketoSandbox,
  type MarketoSandboxOptions,
  startMarketoSandbox,
} from "../../../src/sandbox/marketo/index.js";
import { buildDataSet } from "../../../src/sandbox/marketo/seed.js";

// The real connector against the sandbox over loopback HTTP: nothing else may be reached.
beforeAll(() => {
  nock.disableNetConnect();
  nock.enableNetConnect(/127\.0\.0\.1|localhost/);
});

let sandbox: MarketoSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function setUp(
  options: MarketoSandboxOptions,
  config: Partial<MarketoConnectorConfig> = {},
): Promise<{ sandbox: MarketoSandbox; marketo: MarketoConnector }> {
  sandbox = await startMarketoSandbox({ leadCount: 2_000, ...options });
  const marketo = new MarketoConnector({
    clientId: sandbox.clientId,
    clientSecret: sandbox.clientSecret,
    restEndpoint: sandbox.restEndpoint,
    ...config,
  });
  return { sandbox, marketo };
}

const lead = (id: number) => ({ method: "GET" as const, path: `/rest/v1/lead/${id}.json` });

describe("MarketoConnector against the Marketo sandbox", () => {
  it("sends exactly one identity request for 1,000 concurrent cold calls", async () => {
    const { sandbox, marketo } = await setUp(
      { rateLimit: 100_000, maxConcurrent: 50 },
      { callsPerWindow: 100_000, maxConcurrent: 50 },
    );
    const pages = await Promise.all(
      Array.from({ length: 1_000 }, (_, i) => marketo.request(lead((i % 500) + 1))),
    );
    expect(pages.every((p) => p.result.length === 1)).toBe(true);
    const stats = sandbox.stats();
    expect(stats.identityRequests).toBe(1);
    expect(stats.apiCalls).toBe(1_000);
    expect(marketo.tokenRequests()).toBe(1);
  });

  it("gets a burst of 300 calls through a 100-per-2 s window without a single 606", async () => {
    const { sandbox, marketo } = await setUp({ rateWindowMs: 2_000 }, { windowMs: 2_000 });
    const started = Date.now();
    const pages = await Promise.all(Array.from({ length: 300 }, (_, i) => marketo.request(lead(i + 1))));
    expect(pages).toHaveLength(300);
    const stats = sandbox.stats();
    expect(stats.rejected["606"]).toBe(0);
    expect(stats.apiCalls).toBe(300);
    // Three windows' worth of calls needs at least two full windows of waiting.
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_000);
  }, 15_000);

  it("keeps at most 10 calls in flight when each takes 20 ms", async () => {
    const { sandbox, marketo } = await setUp(
      { latencyMs: 20, rateLimit: 10_000 },
      { callsPerWindow: 10_000 },
    );
    await Promise.all(Array.from({ length: 120 }, (_, i) => marketo.request(lead(i + 1))));
    const stats = sandbox.stats();
    expect(stats.maxInFlight).toBeLessThanOrEqual(10);
    expect(stats.maxInFlight).toBeGreaterThanOrEqual(5);
    expect(stats.rejected["615"]).toBe(0);
  });

  it("pages a big list's members to the end, each member once", async () => {
    const { sandbox, marketo } = await setUp({ rateLimit: 10_000 }, { callsPerWindow: 10_000 });
    const expected = buildDataSet({ leadCount: 2_000, seed: 42, now: Date.now() }).lists.find(
      (l) => l.id === 1001,
    );
    const pages: number[] = [];
    const result = await marketo.call({
      method: "GET",
      path: "/rest/v1/lists/1001/leads.json",
      query: { batchSize: 300, fields: ["id", "email"] },
      paginate: { maxBytes: 5_000_000, onPage: (p) => pages.push(p.items) },
    });
    const ids = result.result.map((r) => (r as { id: number }).id);
    expect(result.complete).toBe(true);
    expect(ids.length).toBeGreaterThanOrEqual(1_200);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(expected?.members);
    expect(result.pages).toBe(Math.ceil(ids.length / 300));
    expect(sandbox.stats().callsByPath["/rest/v1/lists/1001/leads.json"]).toBe(result.pages);
  });

  it("keeps succeeding across expireTokens() with one extra identity request", async () => {
    const { sandbox, marketo } = await setUp({ rateLimit: 10_000 }, { callsPerWindow: 10_000 });
    await Promise.all(Array.from({ length: 50 }, (_, i) => marketo.request(lead(i + 1))));
    sandbox.expireTokens();
    const after = await Promise.all(Array.from({ length: 50 }, (_, i) => marketo.request(lead(i + 51))));
    expect(after.every((p) => p.result.length === 1)).toBe(true);
    const stats = sandbox.stats();
    expect(stats.identityRequests).toBe(2);
    expect(stats.rejected["602"]).toBeGreaterThanOrEqual(1);
  });
});
