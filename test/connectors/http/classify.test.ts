import { describe, expect, it } from "vitest";
import { backoffDelay, classifyFailure, mayReplay } from "../../../src/connectors/http/index.js";

const idle = { cancelled: false, timedOut: false, answered: false };
const socketError = (bytesWritten: number) =>
  new TypeError("fetch failed", {
    cause: Object.assign(new Error("other side closed"), {
      code: "UND_ERR_SOCKET",
      socket: { bytesWritten },
    }),
  });

describe("classifyFailure", () => {
  it("reads undici's 'other side closed': nothing written is not sent, something written is unknown", () => {
    expect(classifyFailure(socketError(0), idle)).toMatchObject({ delivery: "not_sent", kind: "reset" });
    expect(classifyFailure(socketError(233), idle)).toMatchObject({ delivery: "unknown", kind: "reset" });
  });

  it("walks a cause chain several levels deep", () => {
    const deep = new TypeError("fetch failed", {
      cause: new Error("wrapped", { cause: Object.assign(new Error("refused"), { code: "ECONNREFUSED" }) }),
    });
    expect(classifyFailure(deep, idle)).toMatchObject({ delivery: "not_sent", kind: "connect" });
  });

  it("a failure after the status line arrived was sent; a cancellation is never replayed", () => {
    const reset = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET", syscall: "read" });
    const sent = classifyFailure(reset, { ...idle, answered: true });
    expect(sent).toMatchObject({ delivery: "sent", kind: "reset" });
    expect([mayReplay(sent, false), mayReplay(sent, true)]).toEqual([true, false]);
    const cancelled = classifyFailure(new Error("aborted"), { ...idle, cancelled: true });
    expect([mayReplay(cancelled, false), mayReplay(cancelled, true)]).toEqual([false, false]);
  });
});

describe("backoffDelay", () => {
  it("is exponential, capped, with equal jitter, and a Retry-After wins", () => {
    const policy = { baseMs: 1_000, capMs: 4_000 };
    expect([0, 1, 2, 3].map((n) => backoffDelay(n, policy, () => 0))).toEqual([500, 1_000, 2_000, 2_000]);
    expect([0, 1, 2, 3].map((n) => backoffDelay(n, policy, () => 0.999_999))).toEqual([
      1_000, 2_000, 4_000, 4_000,
    ]);
    expect(backoffDelay(5, policy, () => 0.5, 12_000)).toBe(12_000);
  });
});
