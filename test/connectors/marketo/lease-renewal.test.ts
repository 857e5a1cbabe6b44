import { describe, expect, it } from "vitest";
import { MarketoConnector } from "../../../src/connectors/marketo/connector.js";
import { CancelledError } from "../../../src/errors.js";
import { MemoryState } from "../../../src/state/memory.js";

const ORIGIN = "https://123-abc-456.mktorest.com";
const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });

describe("the concurrency lease across replicas", () => {
  it("is renewed after a long rate-window wait, so another replica cannot take the slot mid-call", async () => {
    let t = Date.UTC(2025, 0, 15, 18);
    const now = () => t;
    // Runs after each fake sleep: replica B gives up on fake time, not on how fast real timers fire.
    let onSlept: (() => void) | undefined;
    const sleep = (ms: number) =>
      new Promise<void>((resolve) =>
        setImmediate(() => {
          t += ms;
          onSlept?.();
          resolve();
        }),
      );
    let inFlight = 0;
    let maxInFlight = 0;
    let duringSlow: (() => Promise<void>) | undefined;
    const fetchImpl: typeof fetch = async (input) => {
      const url = new URL(String(input));
      if (url.pathname === "/identity/oauth/token")
        return json({ access_token: "tok:int", expires_in: 3599 });
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      if (url.pathname.includes("slow") && duringSlow) {
        const run = duringSlow;
        duringSlow = undefined;
        await run();
      }
      inFlight -= 1;
      return json({ success: true, requestId: "r", result: [] });
    };
    // One shared state stands for Redis: 1 call in flight, 2 per 20 s, 1 s request timeout (lease 11 s).
    const state = new MemoryState(now);
    const config = {
      clientId: "id",
      clientSecret: "secret",
      restEndpoint: `${ORIGIN}/rest`,
      maxConcurrent: 1,
      callsPerWindow: 2,
      timeoutMs: 1_000,
    };
    const a = new MarketoConnector(config, { fetch: fetchImpl, state, now, sleep });
    const b = new MarketoConnector(config, { fetch: fetchImpl, state, now, sleep });
    await a.request({ method: "GET", path: "/rest/v1/lists.json" });
    await a.request({ method: "GET", path: "/rest/v1/lists.json" });

    let bOutcome: unknown;
    duringSlow = async () => {
      // A's third call waited ~21 s for the window and is now in flight. Replica B tries for 5 s of
      // (fake) time, well inside A's 1 s request timeout plus lease margin.
      const controller = new AbortController();
      const started = t;
      onSlept = () => {
        if (t - started > 5_000) controller.abort();
      };
      bOutcome = await b
        .request({ method: "GET", path: "/rest/v1/lists.json", signal: controller.signal })
        .catch((error: unknown) => error);
      onSlept = undefined;
    };
    await a.request({ method: "GET", path: "/rest/v1/slow.json" });
    expect(bOutcome).toBeInstanceOf(CancelledError);
    expect(maxInFlight).toBe(1);
  });
});

describe("SharedState semaphoreRenew (memory)", () => {
  it("extends a held lease and refuses an expired one", async () => {
    let t = 0;
    const state = new MemoryState(() => t);
    const lease = (await state.semaphoreAcquire("s", 1, 100))!;
    t = 90;
    expect(await state.semaphoreRenew("s", lease, 100)).toBe(true);
    t = 150;
    expect(await state.semaphoreAcquire("s", 1, 100)).toBeNull();
    t = 191;
    expect(await state.semaphoreRenew("s", lease, 100)).toBe(false);
    expect(await state.semaphoreAcquire("s", 1, 100)).not.toBeNull();
  });
});

describe("releasing the slot", () => {
  it("a failed release (Redis gone) does not turn a call that ran into an error a caller would retry", async () => {
    class ReleaseFails extends MemoryState {
      override async semaphoreRelease(): Promise<void> {
        throw new Error("redis went away");
      }
    }
    let posts = 0;
    const fetchImpl: typeof fetch = async (input) => {
      const url = new URL(String(input));
      if (url.pathname === "/identity/oauth/token")
        return json({ access_token: "tok:int", expires_in: 3599 });
      posts += 1;
      return json({ success: true, requestId: "r", result: [{ id: 1001 }] });
    };
    const marketo = new MarketoConnector(
      { clientId: "id", clientSecret: "secret", restEndpoint: `${ORIGIN}/rest` },
      { fetch: fetchImpl, state: new ReleaseFails() },
    );
    const page = await marketo.request({
      method: "POST",
      path: "/rest/v1/campaigns/1001/trigger.json",
      body: { input: { leads: [{ id: 1 }] } },
    });
    expect(page.result).toEqual([{ id: 1001 }]);
    expect(posts).toBe(1);
  });
});
