/**
 * Marketo's limits: the steady share of the rolling window a burst uses with zero 606/615 (the time
 * from the LIMIT-th answer to the last full wave's last one, against one window per wave: the first
 * wave's own spread, 10 calls in flight at a time, is counted at both ends and cancels out),
 * node-marketo-rest 0.7.8 on the same burst and sandbox, and identity requests for a herd of cold calls.
 */
import Marketo from "node-marketo-rest";
import { MarketoConnector } from "../../src/connectors/marketo/connector.js";
import { MemoryState } from "../../src/state/memory.js";
import type { BenchConfig } from "../lib/config.js";
import { type Row, spread } from "../lib/stats.js";
import { type MarketoTarget, OPEN_LIMITS, type Upstream } from "../lib/upstream.js";

const LIMIT = 100;
const IN_FLIGHT = 10;
/** Per admitted call at the sandbox, so that concurrency is real. */
const LATENCY_MS = 5;
const QUERY = { filterType: "id", filterValues: "1" };

export interface BurstOutcome {
  completed: number;
  failed: number;
  wallMs: number;
  /** When each call that succeeded had its answer, in ms from the burst's start, in order. */
  answeredAt: number[];
  refused606: number;
  refused615: number;
  identityRequests: number;
}

async function limitedSandbox(up: Upstream, windowMs: number): Promise<MarketoTarget> {
  return up.marketo({
    rateLimit: LIMIT,
    rateWindowMs: windowMs,
    maxConcurrent: IN_FLIGHT,
    latencyMs: LATENCY_MS,
  });
}

async function outcome(
  up: Upstream,
  target: MarketoTarget,
  settled: PromiseSettledResult<unknown>[],
  wallMs: number,
  answeredAt: number[] = [],
): Promise<BurstOutcome> {
  const stats = await up.marketoStats(target.handle);
  await up.close(target.handle);
  return {
    completed: settled.filter((s) => s.status === "fulfilled").length,
    failed: settled.filter((s) => s.status === "rejected").length,
    wallMs,
    answeredAt: answeredAt.sort((a, b) => a - b),
    refused606: stats.rejected["606"],
    refused615: stats.rejected["615"],
    identityRequests: stats.identityRequests,
  };
}

/** Our connector: `calls` at once against a window of LIMIT calls per `windowMs`. */
export async function ourBurst(up: Upstream, calls: number, windowMs: number): Promise<BurstOutcome> {
  const target = await limitedSandbox(up, windowMs);
  const connector = new MarketoConnector(
    {
      clientId: target.clientId,
      clientSecret: target.clientSecret,
      restEndpoint: target.restEndpoint,
      windowMs,
    },
    { state: new MemoryState() },
  );
  const start = performance.now();
  const answeredAt: number[] = [];
  const settled = await Promise.allSettled(
    Array.from({ length: calls }, () =>
      connector
        .request({ method: "GET", path: "/rest/v1/leads.json", query: QUERY })
        .then(() => answeredAt.push(performance.now() - start)),
    ),
  );
  return outcome(up, target, settled, performance.now() - start, answeredAt);
}

function peerClient(target: MarketoTarget): Marketo {
  return new Marketo({
    endpoint: target.restEndpoint,
    identity: `${target.url}/identity`,
    clientId: target.clientId,
    clientSecret: target.clientSecret,
  });
}

/** node-marketo-rest 0.7.8, the same burst with its token fetched first (so the burst measures limits only). */
export async function peerBurst(up: Upstream, calls: number, windowMs: number): Promise<BurstOutcome> {
  const target = await limitedSandbox(up, windowMs);
  const peer = peerClient(target);
  await peer.getOAuthToken();
  const start = performance.now();
  const settled = await Promise.allSettled(Array.from({ length: calls }, () => peer.lead.find("id", [1])));
  return outcome(up, target, settled, performance.now() - start);
}

/** Share of the limit used: completed calls against what the window admits over the wall time. */
export function shareOfLimit(o: BurstOutcome, windowMs: number): number {
  return (100 * o.completed) / (LIMIT * Math.max(1, o.wallMs / windowMs));
}

/**
 * The steady time per wave of LIMIT calls: from the LIMIT-th answer to the last full wave's last one,
 * divided by the waves between them. The floor is one window per wave.
 */
export function steadyWaveMs(o: BurstOutcome): number {
  const full = Math.floor(o.answeredAt.length / LIMIT) * LIMIT;
  if (full < 2 * LIMIT) return Number.NaN;
  return (o.answeredAt[full - 1]! - o.answeredAt[LIMIT - 1]!) / (full / LIMIT - 1);
}

function windowRow(
  name: string,
  outcomes: BurstOutcome[],
  calls: number,
  windowMs: number,
  note?: string,
): Row {
  const waves = outcomes.map(steadyWaveMs);
  const shares = waves.map((w) => (100 * windowMs) / w);
  const refused = outcomes.reduce((n, o) => n + o.refused606 + o.refused615, 0);
  const failed = outcomes.reduce((n, o) => n + o.failed, 0);
  const share = spread(shares);
  return {
    name,
    unit: "ms",
    ours: spread(waves),
    floor: spread(outcomes.map(() => windowMs)),
    ratio: share,
    ratioUnit: "%",
    goal: "≥ 97 % and 0 refused",
    met: share.median >= 97 && refused === 0 && failed === 0,
    floorName: "one window per wave",
    note: `${calls} calls, ${LIMIT} per ${windowMs / 1000} s; whole burst ${(spread(outcomes.map((o) => o.wallMs)).median / 1000).toFixed(1)} s; 606/615 received: ${refused}; failed: ${failed}${note ? `; ${note}` : ""}`,
  };
}

/** `times` bursts one after the other, or all at once on separate sandboxes (each its own instance). */
async function repeat(
  times: number,
  parallel: boolean,
  run: () => Promise<BurstOutcome>,
): Promise<BurstOutcome[]> {
  if (parallel) return Promise.all(Array.from({ length: times }, run));
  const outcomes: BurstOutcome[] = [];
  for (let i = 0; i < times; i++) outcomes.push(await run());
  return outcomes;
}

export async function windowRows(up: Upstream, cfg: BenchConfig): Promise<{ rows: Row[]; peer: string[] }> {
  process.env.NODE_MARKETO_LOG_LEVEL ??= "fatal";
  const shrunk = cfg.shrunkWindowMs;
  // node-marketo-rest waits 20 s after each 606: its repeats run side by side, each on its own sandbox.
  const peerRuns =
    cfg.peerBurst > 0 ? repeat(cfg.repeats, true, () => peerBurst(up, cfg.peerBurst, shrunk)) : undefined;
  const rows: Row[] = [];
  if (cfg.burst20s > 0) {
    // Time-bound, not CPU-bound: the repeats run side by side, each on its own sandbox.
    const outcomes = await repeat(cfg.repeats, true, () => ourBurst(up, cfg.burst20s, 20_000));
    rows.push(
      windowRow(
        "steady share of the window, time per wave of a burst",
        outcomes,
        cfg.burst20s,
        20_000,
        "repeats side by side",
      ),
    );
  }
  const shrunkOutcomes = await repeat(cfg.repeats, false, () => ourBurst(up, cfg.burstShrunk, shrunk));
  rows.push(
    windowRow(
      "steady share of the window, time per wave of a burst",
      shrunkOutcomes,
      cfg.burstShrunk,
      shrunk,
    ),
  );

  const peer: string[] = [];
  if (peerRuns) {
    const [theirs, ours] = await Promise.all([
      peerRuns,
      repeat(cfg.repeats, false, () => ourBurst(up, cfg.peerBurst, shrunk)),
    ]);
    const line = (who: string, o: BurstOutcome[]) =>
      `| ${who} | ${spread(o.map((x) => x.completed)).median} of ${cfg.peerBurst} (${spread(o.map((x) => x.completed)).min}–${spread(o.map((x) => x.completed)).max}) | ${(spread(o.map((x) => x.wallMs)).median / 1000).toFixed(1)} s | ${spread(o.map((x) => shareOfLimit(x, shrunk))).median.toFixed(1)} % | ${spread(o.map((x) => x.refused606)).median} | ${spread(o.map((x) => x.refused615)).median} |`;
    peer.push(
      `Burst of ${cfg.peerBurst} calls at ${LIMIT} per ${shrunk / 1000} s, ${IN_FLIGHT} in flight (medians of ${cfg.repeats}):`,
      "",
      "| client | calls completed | wall | share of the limit | 606 received | 615 received |",
      "|---|---|---|---|---|---|",
      line("martech-steps", ours),
      line("node-marketo-rest 0.7.8", theirs),
    );
  }
  return { rows, peer };
}

/** 1,000 cold calls at once: identity requests sent, ours against node-marketo-rest. */
export async function tokenHerd(up: Upstream, calls: number): Promise<string> {
  process.env.NODE_MARKETO_LOG_LEVEL ??= "fatal";
  const oursTarget = await up.marketo(OPEN_LIMITS);
  const connector = new MarketoConnector(
    {
      clientId: oursTarget.clientId,
      clientSecret: oursTarget.clientSecret,
      restEndpoint: oursTarget.restEndpoint,
      callsPerWindow: 1_000_000,
      maxConcurrent: 1_000_000,
    },
    { state: new MemoryState() },
  );
  const ours = await Promise.allSettled(
    Array.from({ length: calls }, () =>
      connector.request({ method: "GET", path: "/rest/v1/leads.json", query: QUERY }),
    ),
  );
  const oursOutcome = await outcome(up, oursTarget, ours, 0);
  const peerTarget = await up.marketo(OPEN_LIMITS);
  const peer = peerClient(peerTarget);
  const theirs = await Promise.allSettled(Array.from({ length: calls }, () => peer.lead.find("id", [1])));
  const peerOutcome = await outcome(up, peerTarget, theirs, 0);
  return `${calls} concurrent cold calls: identity requests sent: martech-steps ${oursOutcome.identityRequests}, node-marketo-rest 0.7.8 ${peerOutcome.identityRequests}.`;
}
