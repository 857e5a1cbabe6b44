import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MemoryStore, StoreRefusal } from "../../src/web/oauth/memory-store.js";
import {
  KIND_LIMITS,
  limitsOf,
  REPLAY_MAX_LIFE_SECONDS,
  type StoreLimits,
  storeBoundBytes,
} from "../../src/web/oauth/store-limits.js";

/**
 * The store's invariant (issue 26, item 1): whatever anyone does without a credential (register, start
 * sign-ins, push requests) and however time passes, an established client keeps its registration, its grant
 * and its current refresh token; no kind holds more than its cap; a refused entry changes nothing. A grant's
 * own rotations keep at most `perGrant` of its refresh tokens, never dropping the current one.
 */
const LIMITS: StoreLimits = {
  kinds: {
    Client: { max: 5 },
    Interaction: { max: 5 },
    Session: { max: 5 },
    PushedAuthorizationRequest: { max: 5 },
    Grant: { max: 5 },
    RefreshToken: { max: 10 },
  },
  perGrant: 3,
};
const OPEN_KINDS = ["Client", "Interaction", "Session", "PushedAuthorizationRequest"] as const;
const TTL: Record<(typeof OPEN_KINDS)[number], number | undefined> = {
  Client: undefined,
  Interaction: 600,
  Session: 1_209_600,
  PushedAuthorizationRequest: 60,
};

type Command = { kind: (typeof OPEN_KINDS)[number] } | { tick: number } | { rotate: true };

/** Mostly open traffic (enough to fill every table several times over), with time passing and rotations. */
const command: fc.Arbitrary<Command> = fc.oneof(
  { arbitrary: fc.constantFrom(...OPEN_KINDS).map((kind) => ({ kind })), weight: 8 },
  { arbitrary: fc.integer({ min: 1, max: 700_000 }).map((tick) => ({ tick })), weight: 1 },
  { arbitrary: fc.constant({ rotate: true as const }), weight: 2 },
);

describe("the embedded authorization server's store (memory-store.ts)", () => {
  it("never lets open traffic evict an established client, its grant or its refresh token", () => {
    fc.assert(
      fc.property(fc.array(command, { minLength: 20, maxLength: 120 }), (commands) => {
        let now = 0;
        const store = new MemoryStore(() => now, LIMITS);
        store.set("Client", "established", { client_id: "established" }, undefined);
        store.set("Grant", "g", { clientId: "established", accountId: "default" }, 10_000_000);
        let current = "rt0";
        store.set("RefreshToken", current, { grantId: "g" }, 10_000_000);
        let next = 0;
        for (const step of commands) {
          if ("tick" in step) now += step.tick;
          else if ("rotate" in step) {
            const used = store.get("RefreshToken", current);
            if (used) used.consumed = now;
            current = `rt${++next}`;
            store.set("RefreshToken", current, { grantId: "g" }, 10_000_000);
          } else {
            const before = store.size(step.kind);
            try {
              store.set(step.kind, `${step.kind}-${++next}`, { n: next }, TTL[step.kind]);
            } catch (error) {
              if (!(error instanceof StoreRefusal) || error.reason !== "full") return false;
              if (store.size(step.kind) !== before) return false;
            }
          }
          if (!store.has("Client", "established") || !store.has("Grant", "g")) return false;
          if (!store.has("RefreshToken", current) || store.size("RefreshToken") > (LIMITS.perGrant ?? 0))
            return false;
          for (const kind of OPEN_KINDS) if (store.size(kind) > limitsOf(kind, LIMITS).max) return false;
        }
        return true;
      }),
      { seed: 2026, numRuns: 300 },
    );
  });

  it("refuses a registration when every registration it holds is established, with no time to retry", () => {
    const store = new MemoryStore(() => 0, LIMITS);
    for (let i = 0; i < 5; i++) {
      store.set("Client", `c${i}`, {}, undefined);
      store.set("Grant", `g${i}`, { clientId: `c${i}` }, 1_000);
    }
    expect(() => store.set("Client", "new", {}, undefined)).toThrow(StoreRefusal);
    try {
      store.set("Client", "new", {}, undefined);
    } catch (error) {
      expect(error).toMatchObject({ reason: "full", retryAfterMs: undefined });
    }
    // Once one grant is gone, its registration is no longer established and gives way.
    store.delete("Grant", "g2");
    store.set("Client", "new", {}, undefined);
    expect(store.has("Client", "c2")).toBe(false);
    expect(store.has("Client", "c0")).toBe(true);
  });

  it("says when a full table of sign-in requests has room again (Retry-After)", () => {
    let now = 0;
    const store = new MemoryStore(() => now, LIMITS);
    for (let i = 0; i < 5; i++) {
      store.set("Interaction", `i${i}`, {}, 600);
      now += 1_000;
    }
    expect(() => store.set("Interaction", "late", {}, 600)).toThrow(
      expect.objectContaining({ reason: "full", retryAfterMs: 595_000 }),
    );
    now = 600_000;
    store.set("Interaction", "late", {}, 600);
    expect(store.has("Interaction", "i0")).toBe(false);
    expect(store.size("Interaction")).toBe(5);
  });

  it("keeps a replay guard's entry no longer than a proof stays acceptable (330 s), whatever exp it names", () => {
    let now = 0;
    const store = new MemoryStore(() => now, { kinds: { ReplayDetection: { max: 2 } } });
    const tenYears = 10 * 365 * 24 * 60 * 60;
    store.set("ReplayDetection", "far-1", { iss: "attacker" }, tenYears);
    store.set("ReplayDetection", "far-2", { iss: "attacker" }, tenYears);
    now = (REPLAY_MAX_LIFE_SECONDS - 1) * 1_000;
    expect(store.has("ReplayDetection", "far-1")).toBe(true);
    expect(() => store.set("ReplayDetection", "honest", { iss: "honest" }, 300)).toThrow(
      expect.objectContaining({ reason: "full", retryAfterMs: 1_000 }),
    );
    now = REPLAY_MAX_LIFE_SECONDS * 1_000;
    // The table had room again once the attacker's entries ran out, not ten years later.
    store.set("ReplayDetection", "honest", { iss: "honest" }, 300);
    expect(store.has("ReplayDetection", "far-1")).toBe(false);
    expect(store.has("ReplayDetection", "honest")).toBe(true);
  });

  it("refuses an entry over its kind's size, and states the whole store's bound", () => {
    const store = new MemoryStore();
    expect(() => store.set("Interaction", "big", { jti: "x".repeat(8 * 1024) }, 600)).toThrow(
      expect.objectContaining({ reason: "too_large" }),
    );
    expect(store.size("Interaction")).toBe(0);
    const sum = Object.values(KIND_LIMITS).reduce((total, { max, maxBytes }) => total + max * maxBytes, 0);
    expect(storeBoundBytes()).toBe(sum);
    expect(Math.round(storeBoundBytes() / 1024 / 1024)).toBe(75);
  });
});
