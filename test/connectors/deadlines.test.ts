import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryCredentialStore } from "../../src/auth/credential-store.js";
import { Budget } from "../../src/connectors/budget.js";
import { GoogleAnalyticsConnector } from "../../src/connectors/google/connector.js";
import { MarketoConnector } from "../../src/connectors/marketo/connector.js";
import { deadlineOf, MAX_TIMER_MS, withDeadline } from "../../src/deadline.js";
import { CancelledError, DeadlineExceededError } from "../../src/errors.js";
import { MemoryState } from "../../src/state/memory.js";
import { runToolStep } from "../../src/tools/run.js";
import type { ToolContext } from "../../src/tools/types.js";
import { Workspace } from "../../src/workspace.js";
import { type Harness, startHarness } from "../helpers/fake-services/harness.js";

const hang = () => ({ fault: "hang" as const });

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; error: unknown }> {
  const started = performance.now();
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  return { ms: performance.now() - started, error };
}

describe("deadlines", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => harness.close());

  function marketo(config: Record<string, number> = {}): MarketoConnector {
    return new MarketoConnector(
      {
        clientId: harness.creds.marketo.clientId,
        clientSecret: harness.creds.marketo.clientSecret,
        restEndpoint: `${harness.marketo.server.origin}/rest`,
        ...config,
      },
      { state: new MemoryState() },
    );
  }

  it("a connector used directly ends at its own deadlineMs while Marketo hangs", async () => {
    harness.use({ marketo: [(s) => (s.path.startsWith("/rest/") ? hang() : undefined)] });
    const { ms, error } = await timed(() =>
      marketo({ deadlineMs: 300, timeoutMs: 10_000 }).call({ method: "GET", path: "/rest/v1/leads.json" }),
    );
    harness.use({});
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect((error as DeadlineExceededError).writeMayHaveHappened).toBe(false);
    // The hung call itself, or (on a loaded machine) the token request before it, meets the deadline: the
    // message names the call or says what it was waiting for; either way the call ends at its deadline.
    expect((error as Error).message).toMatch(
      /(GET \/rest\/v1\/leads\.json|The Marketo call) did not finish within its 300 ms deadline/,
    );
    expect(ms).toBeLessThan(1_500);
  });

  it("a rate-window wait that would end after the deadline fails at once", async () => {
    const connector = marketo({ callsPerWindow: 1, windowMs: 60_000, deadlineMs: 5_000 });
    await connector.call({ method: "GET", path: "/rest/v1/leads.json" });
    const { ms, error } = await timed(() => connector.call({ method: "GET", path: "/rest/v1/leads.json" }));
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect((error as Error).message).toMatch(
      /room in Marketo's rate window comes only in 6\d(\.\d)? s, after the deadline/,
    );
    expect(ms).toBeLessThan(1_000);
  });

  it("a Retry-After that would pass the deadline fails at once, saying why", async () => {
    harness.use({
      google: [
        (s) =>
          s.path.startsWith("/admin/")
            ? {
                status: 429,
                headers: { "retry-after": "20" },
                json: {
                  error: {
                    code: 429,
                    message: "Exhausted concurrent requests quota.",
                    status: "RESOURCE_EXHAUSTED",
                  },
                },
              }
            : undefined,
      ],
    });
    const ga = new GoogleAnalyticsConnector({
      tokens: {
        label: "main",
        getToken: async () => "ya29.x",
        invalidate: () => undefined,
        tokenRequests: () => 0,
      },
      endpoints: {
        dataApiUrl: `${harness.google.server.origin}/data`,
        adminApiUrl: `${harness.google.server.origin}/admin`,
        oauthUrl: `${harness.google.server.origin}/oauth`,
        authorizeUrl: `${harness.google.server.origin}/oauth/authorize`,
      },
      deadlineMs: 5_000,
    });
    const { ms, error } = await timed(() => ga.call({ method: "GET", path: "v1beta/accountSummaries" }));
    harness.use({});
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect((error as Error).message).toMatch(
      /kept rate limiting it \(HTTP 429\), and waiting 20 s to retry would pass it/,
    );
    expect(ms).toBeLessThan(1_000);
  });

  it("runToolStep ends a step that ignores its signal 1 s after the deadline (backstop)", async () => {
    const context: ToolContext = {
      connection: () => new Promise(() => undefined),
      progress: () => undefined,
      deadlineMs: 200,
    };
    const { ms, error } = await timed(() =>
      runToolStep("marketo_api_call", { method: "GET", endpoint: "/rest/v1/leads.json" }, context),
    );
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect((error as Error).message).toMatch(/^Marketo API Call did not finish within its 200 ms deadline/);
    expect(ms).toBeGreaterThanOrEqual(1_150);
    expect(ms).toBeLessThan(2_500);
  });

  it("the caller's own cancellation stays a CancelledError", async () => {
    harness.use({ marketo: [(s) => (s.path.startsWith("/rest/") ? hang() : undefined)] });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const { error } = await timed(() =>
      marketo().call({ method: "GET", path: "/rest/v1/leads.json", signal: controller.signal }),
    );
    harness.use({});
    expect(error).toBeInstanceOf(CancelledError);
  });

  it("durations longer than timers take (2^31-1 ms) are read as the longest one, not as 1 ms", async () => {
    // Node runs a setTimeout or AbortSignal.timeout over 2^31-1 ms after 1 ms: every call failed at once.
    const huge = 2 ** 40;
    const signal = withDeadline(undefined, huge);
    const budget = new Budget({ deadlineMs: huge, signal: undefined, now: Date.now, service: "Marketo" });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(signal.signal.aborted).toBe(false);
    expect(budget.signal.aborted).toBe(false);
    expect(budget.attemptTimeout(huge).ms).toBe(MAX_TIMER_MS);
    signal.clear();
    budget.dispose();
    const env = {
      ...harness.env,
      MARTECH_STEPS_DEADLINE_MS: String(huge),
      MARTECH_STEPS_REQUEST_TIMEOUT_MS: String(2 ** 31),
      MARTECH_STEPS_ACCOUNT_POLL_MS: String(2 ** 32),
    };
    const workspace = new Workspace({ env, store: new MemoryCredentialStore(), state: new MemoryState() });
    await workspace.importAccount({ label: "main", refreshToken: harness.creds.google.refreshToken });
    const context = await workspace.toolContext({});
    expect(context.deadlineMs).toBe(MAX_TIMER_MS);
    const marketoCall = runToolStep(
      "marketo_api_call",
      { method: "GET", endpoint: "/rest/v1/lists.json" },
      context,
    );
    const gaCall = runToolStep(
      "google_analytics_api_call",
      { method: "GET", endpoint: "v1beta/accountSummaries" },
      context,
    );
    await expect(marketoCall).resolves.toBeDefined();
    await expect(gaCall).resolves.toBeDefined();
    await workspace.close();
  });

  it("the earlier deadline wins: the signal's, or the connector's own", () => {
    const outer = withDeadline(undefined, 1_000);
    const inner = withDeadline(outer.signal, 60_000);
    expect(deadlineOf(inner.signal)?.totalMs).toBe(1_000);
    const budget = new Budget({
      deadlineMs: 120_000,
      signal: outer.signal,
      now: Date.now,
      service: "Marketo",
    });
    expect(budget.totalMs).toBe(1_000);
    expect(budget.remainingMs()).toBeLessThanOrEqual(1_000);
    expect(budget.attemptTimeout(30_000).byDeadline).toBe(true);
    const own = new Budget({ deadlineMs: 500, signal: outer.signal, now: Date.now, service: "Marketo" });
    expect(own.totalMs).toBe(500);
    for (const b of [budget, own]) b.dispose();
    outer.clear();
    inner.clear();
  });
});
