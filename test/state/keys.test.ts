import { describe, expect, it } from "vitest";
import { Budget } from "../../src/connectors/budget.js";
import { MarketoLimiter } from "../../src/connectors/marketo/limits.js";
import { hashTag, sharedKey } from "../../src/state/keys.js";
import { MemoryState } from "../../src/state/memory.js";
import type { CallAdmission } from "../../src/state/types.js";

/**
 * Redis Cluster's key slot: CRC16-XMODEM of the hash tag (the text between the first `{` and the next
 * `}`, when not empty) or of the whole key, mod 16384, as the cluster specification gives it
 * (https://redis.io/docs/latest/operate/oss_and_stack/reference/cluster-spec/#key-distribution-model).
 * Written here: the package that does it for ioredis is not a dependency of this one.
 */
function crc16(text: string): number {
  let crc = 0;
  for (const byte of Buffer.from(text)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

function keySlot(key: string): number {
  const open = key.indexOf("{");
  const close = open >= 0 ? key.indexOf("}", open + 1) : -1;
  const tag = close > open + 1 ? key.slice(open + 1, close) : key;
  return crc16(tag) % 16_384;
}

describe("shared state keys", () => {
  it("computes the cluster specification's slots (its published examples)", () => {
    // The specification's CRC16 check value, and CLUSTER KEYSLOT's documented answers.
    expect(crc16("123456789")).toBe(0x31c3);
    expect(keySlot("somekey")).toBe(11_058);
    expect(keySlot("foo{hash_tag}")).toBe(2_515);
    expect(keySlot("bar{hash_tag}")).toBe(2_515);
  });

  it("puts every key of one scope in one slot, whatever the parts", () => {
    const scope = "marketo:123-abc-456.mktorest.com";
    const slots = new Set(
      [sharedKey(scope, "window"), sharedKey(scope, "inflight"), sharedKey(scope, "daily", "2026-12-02")].map(
        keySlot,
      ),
    );
    expect(slots.size).toBe(1);
    expect(keySlot(`martech-test:${sharedKey(scope, "window")}`)).toBe(
      keySlot(sharedKey(scope, "token", "x")),
    );
  });

  it("escapes braces, so a scope cannot end its tag early or borrow another's", () => {
    expect(sharedKey("a}b", "x")).toBe("{a%7Db}:x");
    expect(hashTag("a{b%")).toBe("{a%7Bb%25}");
    expect(keySlot(sharedKey("a}b", "x"))).not.toBe(keySlot(sharedKey("a", "x")));
    expect(() => hashTag("")).toThrow(TypeError);
  });

  it("gives the limiter's scripts (admit, finish) keys of one slot", async () => {
    const admitted: CallAdmission[] = [];
    const finished: Pick<CallAdmission, "windowKey" | "slotsKey">[] = [];
    const state = new MemoryState();
    const recording = Object.assign(Object.create(state) as MemoryState, {
      admitCall: (call: CallAdmission) => {
        admitted.push(call);
        return state.admitCall(call);
      },
      finishCall: (call: Parameters<MemoryState["finishCall"]>[0]) => {
        finished.push(call);
        return state.finishCall(call);
      },
    });
    const limiter = new MarketoLimiter({
      state: recording,
      instance: "123-abc-456.mktorest.com",
      dailyQuota: 50_000,
      callsPerWindow: 100,
      windowMs: 20_000,
      maxConcurrent: 10,
      leaseMs: 3_000,
      sleep: async () => undefined,
      now: Date.now,
      random: Math.random,
    });
    const budget = new Budget({ deadlineMs: 5_000, signal: undefined, now: Date.now, service: "test" });
    const slot = await limiter.acquire(budget, undefined);
    await slot.release();
    budget.dispose();
    expect(admitted).toHaveLength(1);
    expect(finished).toHaveLength(1);
    const call = admitted[0]!;
    const keys = [
      call.windowKey,
      call.slotsKey,
      call.dailyKey,
      finished[0]!.windowKey,
      finished[0]!.slotsKey,
    ];
    expect(new Set(keys.map(keySlot)).size).toBe(1);
    expect(keys.every((key) => key.startsWith("{marketo:123-abc-456.mktorest.com}:"))).toBe(true);
  });
});
