/**
 * `npm run bench`: measures the connector against a naive client in the same run, on the local
 * Marketo sandbox, and prints ratios (never absolute thresholds). The naive client is what peers do
 * (node-marketo-rest): one token request per cold call, no client-side window, retry after 606/615.
 */
import { MarketoConnector } from "../src/connectors/marketo/connector.js";
import { type MarketoSandbox, startMarketoSandbox } from "../src/sandbox/marketo/index.js";
import { MemoryState } from "../src/state/memory.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function naiveToken(sandbox: MarketoSandbox): Promise<string> {
  const body = new URLSearchParams({
    grant_type: "client_credentials",
    client_id: sandbox.clientId,
    client_secret: sandbox.clientSecret,
  });
  const res = await fetch(`${sandbox.url}/identity/oauth/token`, { method: "POST", body });
  return ((await res.json()) as { access_token: string }).access_token;
}

/** A naive call: its own token when cold, no limiter, exponential backoff on 606/615 (as Marketo advises). */
async function naiveCall(sandbox: MarketoSandbox, token: string | undefined): Promise<{ refused: number }> {
  const bearer = token ?? (await naiveToken(sandbox));
  let refused = 0;
  for (let attempt = 0; attempt < 8; attempt++) {
    const res = await fetch(`${sandbox.url}/rest/v1/leads.json?filterType=id&filterValues=1`, {
      headers: { authorization: `Bearer ${bearer}` },
    });
    const body = (await res.json()) as { success: boolean; errors?: { code: string }[] };
    const code = body.errors?.[0]?.code;
    if (body.success) return { refused };
    if (code !== "606" && code !== "615") throw new Error(`naive call failed with ${code}`);
    refused += 1;
    await sleep(2 ** attempt * 250 * (0.5 + Math.random()));
  }
  throw new Error("naive call gave up");
}

function connectorFor(sandbox: MarketoSandbox, windowMs: number): MarketoConnector {
  return new MarketoConnector(
    {
      clientId: sandbox.clientId,
      clientSecret: sandbox.clientSecret,
      restEndpoint: sandbox.restEndpoint,
      windowMs,
    },
    { state: new MemoryState() },
  );
}

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

const ratio = (a: number, b: number) => (b === 0 ? (a === 0 ? "1.00x" : "∞") : `${(a / b).toFixed(2)}x`);

async function tokenHerd(): Promise<void> {
  const calls = 1000;
  const open = { rateLimit: 1_000_000, maxConcurrent: 1_000_000 };
  const naiveBox = await startMarketoSandbox(open);
  const naive = await timed(() =>
    Promise.all(Array.from({ length: calls }, () => naiveCall(naiveBox, undefined))),
  );
  const naiveIdentity = naiveBox.stats().identityRequests;
  await naiveBox.close();

  const oursBox = await startMarketoSandbox(open);
  const connector = new MarketoConnector(
    {
      clientId: oursBox.clientId,
      clientSecret: oursBox.clientSecret,
      restEndpoint: oursBox.restEndpoint,
      callsPerWindow: 1_000_000,
      maxConcurrent: 1_000_000,
    },
    { state: new MemoryState() },
  );
  const ours = await timed(() =>
    Promise.all(
      Array.from({ length: calls }, () =>
        connector.request({
          method: "GET",
          path: "/rest/v1/leads.json",
          query: { filterType: "id", filterValues: "1" },
        }),
      ),
    ),
  );
  const oursIdentity = oursBox.stats().identityRequests;
  await oursBox.close();
  console.log(`token herd, ${calls} concurrent cold calls:`);
  console.log(
    `  identity requests  naive ${naiveIdentity}  ours ${oursIdentity}  → ${ratio(naiveIdentity, oursIdentity)} fewer`,
  );
  console.log(
    `  wall time          naive ${naive.ms.toFixed(0)} ms  ours ${ours.ms.toFixed(0)} ms  → ours takes ${ratio(ours.ms, naive.ms)} the time`,
  );
}

async function burst(): Promise<void> {
  const calls = 300;
  const windowMs = 2_000;
  const limits = { rateLimit: 100, rateWindowMs: windowMs, maxConcurrent: 10, latencyMs: 5 };
  const naiveBox = await startMarketoSandbox(limits);
  const token = await naiveToken(naiveBox);
  const naive = await timed(() =>
    Promise.all(Array.from({ length: calls }, () => naiveCall(naiveBox, token))),
  );
  const naiveStats = naiveBox.stats();
  await naiveBox.close();

  const oursBox = await startMarketoSandbox(limits);
  const connector = connectorFor(oursBox, windowMs);
  const ours = await timed(() =>
    Promise.all(
      Array.from({ length: calls }, () =>
        connector.request({
          method: "GET",
          path: "/rest/v1/leads.json",
          query: { filterType: "id", filterValues: "1" },
        }),
      ),
    ),
  );
  const oursStats = oursBox.stats();
  await oursBox.close();
  const refused = (s: typeof naiveStats) => s.rejected["606"] + s.rejected["615"];
  console.log(`burst of ${calls} calls against a ${windowMs / 1000} s window of 100 calls, 10 in flight:`);
  console.log(
    `  refusals (606+615) naive ${refused(naiveStats)}  ours ${refused(oursStats)}  → ${ratio(refused(naiveStats), refused(oursStats))}`,
  );
  console.log(
    `  calls sent         naive ${naiveStats.apiCalls}  ours ${oursStats.apiCalls}  → ${ratio(naiveStats.apiCalls, oursStats.apiCalls)}`,
  );
  console.log(
    `  wall time          naive ${naive.ms.toFixed(0)} ms  ours ${ours.ms.toFixed(0)} ms  → ours takes ${ratio(ours.ms, naive.ms)} the time`,
  );
}

await tokenHerd();
await burst();
