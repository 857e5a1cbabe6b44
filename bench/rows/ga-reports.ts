/**
 * 50 concurrent Run Reports on one property: the wall time of runToolStep (metadata, field checks,
 * compatibility, the report, flattening) against a raw client that posts the same report body with
 * 10 slots, quiet and with every core kept busy by other processes.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import { MemoryCredentialStore } from "../../src/auth/credential-store.js";
import { runToolStep } from "../../src/tools/run.js";
import { Workspace } from "../../src/workspace.js";
import type { BenchConfig } from "../lib/config.js";
import { interleaved, type Row, ratioRow } from "../lib/stats.js";
import type { GoogleTarget, Upstream } from "../lib/upstream.js";

const PROPERTY = "412345671";
const INPUT = {
  property: `properties/${PROPERTY}`,
  metrics: ["sessions", "activeUsers"],
  dimensions: ["country"],
  date_ranges: ["last7days"],
  order_by: "-sessions",
};
const SLOTS = 10;

async function rawToken(target: GoogleTarget): Promise<string> {
  const res = await fetch(`${target.oauthUrl}/token`, {
    method: "POST",
    body: new URLSearchParams({
      grant_type: "refresh_token",
      refresh_token: target.refreshToken,
      client_id: target.clientId,
      client_secret: target.clientSecret,
    }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

/** A raw client: `count` reports through 10 slots, each one POST and its JSON parsed. */
async function rawReports(target: GoogleTarget, token: string, body: string, count: number): Promise<void> {
  const url = `${target.dataApiUrl}/v1beta/properties/${PROPERTY}:runReport`;
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      const res = await fetch(url, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body,
      });
      const report = (await res.json()) as { rows?: unknown[] };
      if (!res.ok || !report.rows) throw new Error(`raw report failed: HTTP ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: SLOTS }, worker));
}

/** Keeps every core busy in other processes until stopped. */
function burners(): { stop(): void } {
  const children: ChildProcess[] = Array.from({ length: availableParallelism() }, () =>
    spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }),
  );
  return {
    stop: () => {
      for (const child of children) child.kill();
    },
  };
}

const wall = async (work: () => Promise<unknown>): Promise<number> => {
  const start = performance.now();
  await work();
  return performance.now() - start;
};

export async function gaReportRows(up: Upstream, cfg: BenchConfig): Promise<Row[]> {
  const target = await up.google(5);
  const store = new MemoryCredentialStore();
  const workspace = new Workspace({
    store,
    env: {
      GA4_DATA_API_URL: target.dataApiUrl,
      GA4_ADMIN_API_URL: target.adminApiUrl,
      GOOGLE_OAUTH_URL: target.oauthUrl,
      GOOGLE_OAUTH_AUTHORIZE_URL: target.authorizeUrl,
      GOOGLE_OAUTH_CLIENT_ID: target.clientId,
      GOOGLE_OAUTH_CLIENT_SECRET: target.clientSecret,
    },
  });
  await workspace.importAccount({ label: "bench", refreshToken: target.refreshToken });
  const report = async () =>
    runToolStep("google_analytics_run_reports", INPUT, await workspace.toolContext({}));
  // The raw client posts exactly the body our step built.
  const body = JSON.stringify(((await report()).data as { request: unknown }).request);
  const token = await rawToken(target);
  const ours = () => wall(() => Promise.all(Array.from({ length: cfg.reports }, report)));
  const floor = () => wall(() => rawReports(target, token, body, cfg.reports));
  await ours();
  await floor();
  const name = `${cfg.reports} concurrent Run Reports on one property, wall`;
  const quiet = ratioRow(
    { name, unit: "ms", floorName: "raw client, 10 slots", note: "quiet" },
    await interleaved(cfg.repeats, ours, floor),
    1.3,
  );
  const load = burners();
  let loaded: Row;
  try {
    loaded = ratioRow(
      {
        name,
        unit: "ms",
        floorName: "raw client, 10 slots",
        note: `every core busy (${availableParallelism()} burners)`,
      },
      await interleaved(cfg.repeats, ours, floor),
      1.3,
    );
  } finally {
    load.stop();
  }
  await workspace.close();
  await up.close(target.handle);
  return [quiet, loaded];
}
