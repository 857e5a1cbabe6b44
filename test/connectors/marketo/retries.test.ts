import nock from "nock";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  NetworkError,
  QuotaExceededError,
  RateLimitError,
  UnknownOutcomeError,
  UpstreamError,
} from "../../../src/errors.js";
import { MemoryState } from "../../../src/state/memory.js";
import {
  connector,
  fail,
  fakeClock,
  identity,
  ORIGIN,
  ok,
  type Recorded,
  recordingFetch,
  rejection,
} from "../../helpers/marketo-connector.js";

beforeAll(() => nock.disableNetConnect());
beforeEach(() => {
  identity();
});
afterEach(() => nock.cleanAll());

/** Counts the API calls nock answered on one path (identity excluded). */
function answers(
  method: "get" | "post",
  path: string,
  replies: [number, unknown][],
): { count: () => number } {
  let n = 0;
  nock(ORIGIN)
    [method](path)
    .query(true)
    .times(replies.length)
    .reply(() => {
      const reply = replies[n] ?? replies[replies.length - 1]!;
      n += 1;
      return reply;
    });
  return { count: () => n };
}

const post = {
  method: "POST" as const,
  path: "/rest/v1/leads.json",
  body: { input: [{ email: "a@x.com" }] },
};
const get = { method: "GET" as const, path: "/rest/v1/leads.json" };

describe("Marketo retries", () => {
  it("waits out the window after 606 and then succeeds, reporting the wait", async () => {
    const clock = fakeClock();
    const calls = answers("get", "/rest/v1/leads.json", [
      [200, fail("606", "Max rate limit '100' exceeded with in '20' secs")],
      [200, ok([{ id: 1 }])],
    ]);
    const waits: { reason: string; waitMs: number }[] = [];
    const marketo = connector({}, { sleep: clock.sleep, now: clock.now, random: () => 0.5 });
    const page = await marketo.request({ ...get, onWait: (w) => waits.push(w) });
    expect(page.result).toEqual([{ id: 1 }]);
    expect(calls.count()).toBe(2);
    // A quarter to half of the 20 s window, jittered: 20,000 * (0.25 + 0.25 * 0.5).
    expect(clock.sleeps).toEqual([7_500]);
    expect(waits).toEqual([{ reason: "backoff", waitMs: 7_500 }]);
  });

  it("replays a POST after 615 (refused before execution)", async () => {
    const calls = answers("post", "/rest/v1/leads.json", [
      [200, fail("615", "Concurrent access limit '10' reached")],
      [200, ok([{ id: 9, status: "created" }])],
    ]);
    const page = await connector().request(post);
    expect(page.result).toEqual([{ id: 9, status: "created" }]);
    expect(calls.count()).toBe(2);
  });

  it("gives up on repeated 606 with RateLimitError and a retry-after", async () => {
    const calls = answers("get", "/rest/v1/leads.json", [[200, fail("606", "Max rate limit")]]);
    nock(ORIGIN).get("/rest/v1/leads.json").times(2).reply(200, fail("606", "Max rate limit"));
    const error = await rejection(connector({ maxRetries: 2 }).request(get));
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBeGreaterThan(0);
    expect(calls.count()).toBe(1);
  });

  it("never retries 607, sets resetsAt to the next midnight in Chicago, and stops later calls before sending", async () => {
    const clock = fakeClock(Date.UTC(2025, 0, 15, 18, 0, 0)); // noon CST
    const log: Recorded[] = [];
    const calls = answers("get", "/rest/v1/leads.json", [[200, fail("607", "Daily quota reached")]]);
    const marketo = connector({}, { now: clock.now, sleep: clock.sleep, fetch: recordingFetch(log) });
    const error = await rejection(marketo.request(get));
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect((error as QuotaExceededError).resetsAt?.toISOString()).toBe("2025-01-16T06:00:00.000Z");
    // Marketo's quota is shared by every app of the subscription: the message must not blame this server.
    expect((error as Error).message).toMatch(
      /Marketo reports .* quota is reached \(607\); this server sent 1 of today's calls/,
    );
    expect(calls.count()).toBe(1);
    const sent = log.length;
    const again = await rejection(marketo.request(get));
    expect(again).toBeInstanceOf(QuotaExceededError);
    expect(log.length).toBe(sent);
  });

  it("says 607 as the quota error even when the shared state cannot record the day (Redis down)", async () => {
    const clock = fakeClock(Date.UTC(2025, 0, 15, 18, 0, 0));
    const state = new MemoryState(clock.now);
    let down = false;
    // The shared state fails from the moment Marketo answers 607, as a Redis that went away would.
    const failing = new Proxy(state, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          if (down && String(key).startsWith("counter")) throw new NetworkError("Could not read a counter.");
          return value.apply(target, args);
        };
      },
    });
    nock(ORIGIN)
      .get("/rest/v1/leads.json")
      .reply(() => {
        down = true;
        return [200, fail("607", "Daily quota reached")];
      });
    const marketo = connector({}, { now: clock.now, sleep: clock.sleep, state: failing });
    const error = await rejection(marketo.request(get));
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect(error.message).toMatch(
      /^Marketo reports that the instance's daily API quota is reached \(607\)\. Retry after /,
    );
    expect(error.message).toMatch(
      /The shared state could not record it \(Could not read a counter\.\), so other replicas of this server may send calls Marketo refuses/,
    );
    expect((error as QuotaExceededError).resetsAt?.toISOString()).toBe("2025-01-16T06:00:00.000Z");
  });

  it("refuses a call over the daily quota before sending it, saying how many were used and when it resets", async () => {
    const clock = fakeClock(Date.UTC(2025, 6, 1, 12, 0, 0)); // 7 AM CDT
    const log: Recorded[] = [];
    nock(ORIGIN).get("/rest/v1/leads.json").times(2).reply(200, ok());
    const marketo = connector(
      { dailyQuota: 2 },
      { now: clock.now, sleep: clock.sleep, fetch: recordingFetch(log) },
    );
    await marketo.request(get);
    await marketo.request(get);
    const apiCalls = () => log.filter((r) => r.url.includes("/rest/")).length;
    expect(apiCalls()).toBe(2);
    const error = await rejection(marketo.request(get));
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect(error.message).toMatch(/2 of 2 calls today/);
    expect((error as QuotaExceededError).resetsAt?.toISOString()).toBe("2025-07-02T05:00:00.000Z");
    expect(apiCalls()).toBe(2);
    expect(await marketo.usage()).toMatchObject({ callsToday: 2, dailyQuota: 2, remaining: 0 });
    clock.advance(18 * 60 * 60 * 1000); // past midnight in Chicago: a new day
    expect((await marketo.usage()).callsToday).toBe(0);
  });

  it("retries 604 on a GET with the shared exponential backoff (equal jitter), then UpstreamError with retryAfterMs", async () => {
    const clock = fakeClock();
    const calls = answers("get", "/rest/v1/leads.json", [[200, fail("604", "Request timed out")]]);
    nock(ORIGIN).get("/rest/v1/leads.json").times(2).reply(200, fail("604", "Request timed out"));
    const error = await rejection(
      connector({ maxRetries: 2 }, { sleep: clock.sleep, now: clock.now, random: () => 0.5 }).request(get),
    );
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).serviceCode).toBe("604");
    expect((error as UpstreamError).details.retryAfterMs).toBe(4_000);
    // Equal jitter at random 0.5: three quarters of 1 s, then of 2 s (src/connectors/http/backoff.ts).
    expect(clock.sleeps).toEqual([750, 1_500]);
    expect(calls.count()).toBe(1);
    expect(nock.isDone()).toBe(true);
  });

  it("does not retry 604 on a POST (only 601/602/606/615 are certain not to have run)", async () => {
    const calls = answers("post", "/rest/v1/leads.json", [
      [200, fail("604", "Request timed out")],
      [200, ok()],
    ]);
    const error = await rejection(connector().request(post));
    expect(error).toBeInstanceOf(UpstreamError);
    expect(calls.count()).toBe(1);
  });

  it("retries HTTP 502 on a GET", async () => {
    const calls = answers("get", "/rest/v1/leads.json", [
      [502, "Bad Gateway"],
      [200, ok([{ id: 2 }])],
    ]);
    expect((await connector().request(get)).result).toEqual([{ id: 2 }]);
    expect(calls.count()).toBe(2);
  });

  it("reports HTTP 502 on a POST as an unknown outcome and does not replay it", async () => {
    const calls = answers("post", "/rest/v1/leads.json", [
      [502, "Bad Gateway"],
      [200, ok()],
    ]);
    expect(await rejection(connector().request(post))).toBeInstanceOf(UnknownOutcomeError);
    expect(calls.count()).toBe(1);
  });

  it("reports a POST whose connection broke after sending as UnknownOutcomeError, sent once", async () => {
    let sent = 0;
    nock(ORIGIN)
      .post("/rest/v1/leads.json")
      .times(3)
      .replyWithError({ code: "ECONNRESET", message: "socket hang up" });
    const error = await rejection(
      connector({}, { fetch: recordingFetch([], (r) => (sent += r.url.includes("/rest/") ? 1 : 0)) }).request(
        post,
      ),
    );
    expect(error).toBeInstanceOf(UnknownOutcomeError);
    expect(error.message).toMatch(/outcome is unknown/);
    expect(error.message).toMatch(/check in Marketo/i);
    expect(sent).toBe(1);
  });

  it("reports a POST that timed out as UnknownOutcomeError without replaying it", async () => {
    let sent = 0;
    nock(ORIGIN).post("/rest/v1/leads.json").times(2).delay(1_000).reply(200, ok());
    // The timeout bounds the identity request too: 40 ms failed it on a loaded machine (a NetworkError).
    const marketo = connector(
      { timeoutMs: 200 },
      { fetch: recordingFetch([], (r) => (sent += r.url.includes("/rest/") ? 1 : 0)) },
    );
    expect(await rejection(marketo.request(post))).toBeInstanceOf(UnknownOutcomeError);
    expect(sent).toBe(1);
  });

  it("retries a GET after a network error and succeeds", async () => {
    nock(ORIGIN).get("/rest/v1/leads.json").replyWithError({ code: "ECONNRESET", message: "socket hang up" });
    nock(ORIGIN)
      .get("/rest/v1/leads.json")
      .reply(200, ok([{ id: 5 }]));
    expect((await connector().request(get)).result).toEqual([{ id: 5 }]);
    expect(nock.isDone()).toBe(true);
  });

  it("gives up on a GET with NetworkError after maxRetries retries", async () => {
    let sent = 0;
    nock(ORIGIN)
      .get("/rest/v1/leads.json")
      .times(5)
      .replyWithError({ code: "ECONNRESET", message: "socket hang up" });
    const marketo = connector(
      { maxRetries: 3 },
      { fetch: recordingFetch([], (r) => (sent += r.url.includes("/rest/") ? 1 : 0)) },
    );
    expect(await rejection(marketo.request(get))).toBeInstanceOf(NetworkError);
    expect(sent).toBe(4);
  });

  it("retries a POST whose connection was refused (nothing was sent)", async () => {
    nock(ORIGIN)
      .post("/rest/v1/leads.json")
      .replyWithError({ code: "ECONNREFUSED", message: "connect refused" });
    nock(ORIGIN)
      .post("/rest/v1/leads.json")
      .reply(200, ok([{ id: 11, status: "created" }]));
    expect((await connector().request(post)).result).toEqual([{ id: 11, status: "created" }]);
    expect(nock.isDone()).toBe(true);
  });
});
