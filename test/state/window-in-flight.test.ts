import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryState } from "../../src/state/memory.js";
import { RedisState } from "../../src/state/redis.js";
import type { CallAdmission, SharedState } from "../../src/state/types.js";
import { type RedisProcess, startRedis } from "../helpers/redis-process.js";

/*
 * Marketo counts a call when it arrives, which may be any time between its admission and its answer
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/rest-api#limits: 100 calls
 * per 20 s). A call still in flight may therefore arrive now, however long ago it was admitted: its
 * entry must count in the window until its answer is back, and a whole window after that. The admission
 * dropped the entry of a call in flight longer than the window, so a burst across replicas could start
 * more calls than the limit within 20 s of Marketo's count. Both backends run on a clock the test moves.
 */

const WINDOW = 20_000;
/** Longer than any run's time: a lease here lapses only when a test says so (no renewals to model). */
const LEASE = 10_000_000;

let redis: RedisProcess;
const opened: SharedState[] = [];
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await Promise.all(opened.map((state) => state.close()));
  await redis.stop();
});

type Make = (now: () => number) => SharedState;
const backends: [string, Make][] = [
  ["memory", (now) => new MemoryState(now)],
  [
    "redis",
    (now) => {
      const state = new RedisState({ url: redis.url, keyPrefix: `in-flight:${randomUUID()}:`, clock: now });
      opened.push(state);
      return state;
    },
  ],
];

interface Limits {
  limit: number;
  maxConcurrent: number;
}

function admission(id: string, limits: Limits): CallAdmission {
  return {
    windowKey: "w",
    limit: limits.limit,
    windowMs: WINDOW,
    slotsKey: "s",
    maxConcurrent: limits.maxConcurrent,
    leaseMs: LEASE,
    dailyKey: "d",
    dailyQuota: 1_000_000,
    dayTtlMs: LEASE,
    id,
  };
}

/** A call as Marketo may count it: at any time in [admitted, answered] (answered: Infinity while in flight). */
interface Span {
  id: string;
  admitted: number;
  answered: number;
}

/**
 * The most calls Marketo may count in one window [s, s + WINDOW): those whose span meets it. The most is
 * reached at s = some call's answer time (moving s up to the next answer only adds calls admitted later).
 */
function mostInOneWindow(spans: readonly Span[]): number {
  let most = 0;
  for (const { answered: s } of spans) {
    const met = spans.filter((c) => c.answered >= s && c.admitted < s + WINDOW).length;
    most = Math.max(most, met);
  }
  return most;
}

/** Calls Marketo may have counted in the window that ends now: answered in it, or still in flight. */
function mayCountNow(spans: readonly Span[], now: number): number {
  return spans.filter((c) => c.answered > now - WINDOW).length;
}

describe.each(backends)("the rate window counts calls in flight (%s)", (_name, make) => {
  it("keeps a call in flight longer than the window in it, until a window after its answer", async () => {
    let now = 1_000_000;
    const state = make(() => now);
    const limits = { limit: 2, maxConcurrent: 3 };
    expect((await state.admitCall(admission("slow", limits))).admitted).toBe(true);
    // 25 s later the slow call is still in flight: Marketo may count it now, so one more call fits, not two.
    now += 25_000;
    expect((await state.admitCall(admission("b", limits))).admitted).toBe(true);
    const held = await state.admitCall(admission("c", limits));
    expect(held).toMatchObject({ admitted: false, limit: "rate_window" });
    // Room comes a whole window after the first of the two in flight is answered: no sooner than that.
    expect((held as { waitMs: number }).waitMs).toBe(WINDOW);
    now += 1_000;
    await state.finishCall(admission("slow", limits));
    now += WINDOW - 1;
    expect(await state.admitCall(admission("c", limits))).toMatchObject({ admitted: false });
    now += 1;
    expect((await state.admitCall(admission("c", limits))).admitted).toBe(true);
  });

  type Step = { kind: "start" } | { kind: "answer"; pick: number } | { kind: "wait"; ms: number };
  const step: fc.Arbitrary<Step> = fc.oneof(
    { weight: 4, arbitrary: fc.constant({ kind: "start" as const }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant("answer" as const), pick: fc.nat() }) },
    {
      weight: 3,
      arbitrary: fc.record({ kind: fc.constant("wait" as const), ms: fc.integer({ min: 1, max: 30_000 }) }),
    },
  );

  it("for any interleaving of starts, answers and waits, no window holds more calls than the limit", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({ limit: fc.integer({ min: 1, max: 6 }), maxConcurrent: fc.integer({ min: 1, max: 6 }) }),
        fc.array(step, { minLength: 1, maxLength: 60 }),
        async (limits, steps) => {
          let now = 1_000_000;
          const state = make(() => now);
          const spans: Span[] = [];
          for (const [n, s] of steps.entries()) {
            const flying = spans.filter((c) => c.answered === Number.POSITIVE_INFINITY);
            if (s.kind === "wait") now += s.ms;
            else if (s.kind === "answer" && flying.length > 0) {
              const call = flying[s.pick % flying.length] as Span;
              await state.finishCall(admission(call.id, limits));
              call.answered = now;
            } else if (s.kind === "start") {
              const id = `call-${n}`;
              const answer = await state.admitCall(admission(id, limits));
              if (answer.admitted) spans.push({ id, admitted: now, answered: Number.POSITIVE_INFINITY });
              // A refusal is never for nothing: the window or the slots were really full.
              else if (answer.limit === "rate_window") expect(mayCountNow(spans, now)).toBe(limits.limit);
              else expect(flying.length).toBe(limits.maxConcurrent);
            }
            expect(mostInOneWindow(spans)).toBeLessThanOrEqual(limits.limit);
          }
        },
      ),
      { seed: 2_026_1202, numRuns: 150 },
    );
  });
});

describe("the window in Redis when its key expired while a call ran", () => {
  // Expiry is what DEL does here: the key's TTL runs on Redis's own clock, which the test does not move.
  async function lostKey() {
    let now = 1_000_000;
    const keyPrefix = `in-flight-lost:${randomUUID()}:`;
    const state = new RedisState({ url: redis.url, keyPrefix, clock: () => now });
    const raw = new Redis(redis.url);
    opened.push(state);
    return {
      state,
      tick: (ms: number) => {
        now += ms;
      },
      lose: () => raw.del(`${keyPrefix}w`),
      ttl: () => raw.pttl(`${keyPrefix}w`),
      close: () => raw.quit(),
    };
  }

  it("puts a call in flight back in the window at the next admission, with an expiry", async () => {
    const r = await lostKey();
    const limits = { limit: 1, maxConcurrent: 3 };
    expect((await r.state.admitCall(admission("slow", limits))).admitted).toBe(true);
    r.tick(WINDOW + 5_000);
    await r.lose();
    expect(await r.state.admitCall(admission("next", limits))).toMatchObject({
      admitted: false,
      limit: "rate_window",
    });
    expect(await r.ttl()).toBeGreaterThan(0);
    await r.close();
  });

  it("records a call answered after its entry was lost, at its answer", async () => {
    const r = await lostKey();
    const limits = { limit: 2, maxConcurrent: 3 };
    expect((await r.state.admitCall(admission("slow", limits))).admitted).toBe(true);
    r.tick(WINDOW + 5_000);
    await r.lose();
    await r.state.finishCall(admission("slow", limits));
    r.tick(1_000);
    expect((await r.state.admitCall(admission("b", limits))).admitted).toBe(true);
    expect(await r.state.admitCall(admission("c", limits))).toMatchObject({
      admitted: false,
      limit: "rate_window",
    });
    await r.close();
  });
});
