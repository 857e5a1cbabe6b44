/**
 * A faithful local emulator of the Adobe Marketo Engage REST API (Lead DB, Asset, Identity), for
 * tests and for the embedded default. It is a separate program: product code never imports it,
 * except the CLI that starts it.
 *
 * Seeded data (same seed and clock → same data): lead n has id n and email `lead{n}@example.com`, and
 * source fields drawn from the channels the GA4 sandbox's sessions come from (lead-db/sources.ts);
 * static lists 1001–1010, the same objects in the Lead DB and Asset APIs (1001 has ≥ 1,200 members when
 * there are enough leads, 1010 is empty; 1001–1005 in the Lead Database folder 12 "Global Lists",
 * 1006–1010 in programs 1006–1010; created lists get 1011…); campaigns 1001–1008 (1001, 1002, 1008
 * requestable triggers; 1003 a trigger without "Campaign is Requested"; 1004 inactive; 1005–1007
 * batch), also seen as Asset smart campaigns; programs 1001–1030 in folders 40–43, with 40–200
 * members each; folder trees Lead Database (3, 5, 12, 13), Marketing Activities (14, 15, 40–43) and
 * Design Studio (16–20); smart lists 4001–4005 (attribute rules, e.g. 4001 "Gold Customers") and
 * 5001–5008 (one per campaign); emails 2001–2020 (2005, 2010, … are drafts only; 2001, 2004, 2007,
 * 2013, 2016, 2019 have a pending draft); My Tokens on every program and on folder 40; snippets
 * 3001–3004 (3001–3003 approved, 3002 and 3004 with a draft; 3004 draft only); segmentations 1001
 * (approved) and 1002 (draft); email templates 1001–1003 (the seeded emails' `template`, approved,
 * 1003 with a draft) in Design Studio folder 18; landing pages 1001–1003 in program 1003 (approved,
 * approved with a draft, draft only; landing page templates 1 and 2) and forms 1001–1002 (1002 with a
 * draft) there too; emails, programs, folders and snippets created later get 9001…;
 * activities over the last 60 days (fill-outs of form 1002 "Contact Us" on the site's /contact page; data
 * value changes whose old and new values end at what each lead holds). Bulk export jobs go
 * Queued → Processing at once when a slot is free → Completed `bulkJobMs` later.
 *
 * Codes follow Adobe's error table; where the docs give no wording, the message is inferred: the
 * trigger refusals (1003), 709 "no draft", 702 unknown email or static list, 701 blank required
 * parameter, 1003 for over-limit values and bad dates (the docs also list 704), the 605 text, and the
 * answer to a token sent as a query parameter after its removal (601, like an invalid token).
 * Also inferred: 1013 for an unknown program or export id; 1003 for a bulk filter that is not one of
 * the documented ones, a date range over 31 days, an unknown list, enqueueing or cancelling a finished
 * job; 1002 for a missing bulk parameter (the wording of error-codes.md); the plain-text 404 wording and
 * the Content-Type of export files; 709 for a duplicate static list name; 710/711 for a static list
 * parent that is missing or not a list folder/program; 1022 for deleting a list an open export uses;
 * the skipped record of Delete Leads keeping its id; smart list rule JSON for attribute filters;
 * which error codes stats/errors.json counts (all of them); the Operation-free status of smart
 * campaigns ("Single Run" once scheduled); the Asset write refusals (709 for a name in use, a state
 * conflict or a non-empty folder, 702 for an unknown asset or token, 1003 for a folder of the wrong
 * kind, 1022 for deleting a template emails use, 709 for unapproving one approved emails use) and the
 * item types of folder contents; and the 610 wording for a real endpoint not emulated here.
 */
import type { AddressInfo } from "node:net";
import type { SampleSend } from "./assets/model.js";
import { buildDataSet } from "./seed.js";
import { SandboxServer, type SandboxStats } from "./server.js";
import type { CampaignRun } from "./types.js";

export interface MarketoSandboxOptions {
  /** Interface to bind; default "127.0.0.1". */
  host?: string;
  /** Port; default 0 (ephemeral). */
  port?: number;
  /** Default "sandbox-client-id". */
  clientId?: string;
  /** Default "sandbox-client-secret". */
  clientSecret?: string;
  /** Returned as the token response `scope`; default "api-user@sandbox.example". */
  apiUserEmail?: string;
  /** Lifetime of a new token; default 3600. */
  tokenTtlSeconds?: number;
  /** Calls per rolling window; default 100. */
  rateLimit?: number;
  /** Length of the rolling window; default 20_000. */
  rateWindowMs?: number;
  /** Calls in flight before 615; default 10. */
  maxConcurrent?: number;
  /** Calls per sandbox life before 607; default 50_000. */
  dailyQuota?: number;
  /** Seeded leads; default 5_000. */
  leadCount?: number;
  /** Data set seed; default 42. */
  seed?: number;
  /** Artificial delay per admitted API call so concurrency is observable; default 0. */
  latencyMs?: number;
  /** How long a bulk export job stays Processing; default 1_500 (real jobs take minutes). */
  bulkJobMs?: number;
  /** Bulk export bytes per Chicago day before 1029 "Export daily quota exceeded"; default 500 MB. */
  bulkDailyQuotaBytes?: number;
  /** Clock; default Date.now. */
  now?: () => number;
}

export interface MarketoSandboxStats extends SandboxStats {}

export interface MarketoSandbox {
  /** Origin, e.g. "http://127.0.0.1:54321". */
  url: string;
  /** `${url}/rest`, as the Marketo admin UI shows the REST endpoint. */
  restEndpoint: string;
  clientId: string;
  clientSecret: string;
  /** Counters since start or the last resetStats(): every API request counts in apiCalls/callsByPath (keyed by path). */
  stats(): MarketoSandboxStats;
  resetStats(): void;
  /** Makes every issued token expired: the next API call with one gets 602. */
  expireTokens(): void;
  /** Campaign runs recorded by trigger.json and schedule.json, oldest first (not exposed over HTTP). */
  campaignRuns(): CampaignRun[];
  /** Sample emails "sent" by POST email/{id}/sendSample.json (nothing leaves the sandbox). */
  sampleSends(): SampleSend[];
  close(): Promise<void>;
}

export type { CampaignRun };

export async function startMarketoSandbox(options: MarketoSandboxOptions = {}): Promise<MarketoSandbox> {
  const now = options.now ?? Date.now;
  const clientId = options.clientId ?? "sandbox-client-id";
  const clientSecret = options.clientSecret ?? "sandbox-client-secret";
  const seed = options.seed ?? 42;
  const world = buildDataSet({
    leadCount: options.leadCount ?? 5_000,
    seed,
    now: now(),
    ...(options.bulkJobMs !== undefined ? { bulkJobMs: options.bulkJobMs } : {}),
    ...(options.bulkDailyQuotaBytes !== undefined
      ? { bulkDailyQuotaBytes: options.bulkDailyQuotaBytes }
      : {}),
  });
  const sandbox = new SandboxServer(
    {
      clientId,
      clientSecret,
      apiUserEmail: options.apiUserEmail ?? "api-user@sandbox.example",
      tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
      rateLimit: options.rateLimit ?? 100,
      rateWindowMs: options.rateWindowMs ?? 20_000,
      maxConcurrent: options.maxConcurrent ?? 10,
      dailyQuota: options.dailyQuota ?? 50_000,
      latencyMs: options.latencyMs ?? 0,
      seed,
      now,
    },
    world,
  );
  const { server } = sandbox;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  sandbox.origin = url;
  return {
    url,
    restEndpoint: `${url}/rest`,
    clientId,
    clientSecret,
    stats: () => sandbox.snapshot(),
    resetStats: () => sandbox.resetStats(),
    expireTokens: () => sandbox.tokens.expireAll(),
    campaignRuns: () =>
      world.campaignRuns.map((run) => ({ ...run, leadIds: [...run.leadIds], tokens: [...run.tokens] })),
    sampleSends: () => world.assets.sampleSends.map((send) => ({ ...send })),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
