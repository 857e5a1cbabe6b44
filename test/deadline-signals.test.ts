import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { DeadlineReached, deadlineOf, linkedSignal, withDeadline } from "../src/deadline.js";

const timeoutReason = () => new Error("timed out");
const abortListeners = (signal: AbortSignal) => getEventListeners(signal, "abort").length;

describe("linkedSignal (what AbortSignal.any + AbortSignal.timeout gave, cheaper)", () => {
  it("aborts with the parent's reason when the parent aborts; that is not a timeout", () => {
    const parent = new AbortController();
    const linked = linkedSignal(parent.signal, 60_000, timeoutReason);
    const reason = new Error("caller cancelled");
    parent.abort(reason);
    expect(linked.signal.aborted).toBe(true);
    expect(linked.signal.reason).toBe(reason);
    expect(linked.timedOut()).toBe(false);
    linked.clear();
  });

  it("aborts with its own reason at the timeout, and stops listening to the parent", async () => {
    const parent = new AbortController();
    const linked = linkedSignal(parent.signal, 10, timeoutReason);
    await new Promise((resolve) => linked.signal.addEventListener("abort", resolve, { once: true }));
    expect(linked.timedOut()).toBe(true);
    expect((linked.signal.reason as Error).message).toBe("timed out");
    expect(abortListeners(parent.signal)).toBe(0);
    linked.clear();
  });

  it("is aborted at once when the parent already is", () => {
    const parent = new AbortController();
    parent.abort(new Error("gone"));
    const linked = linkedSignal(parent.signal, 60_000, timeoutReason);
    expect(linked.signal.aborted).toBe(true);
    expect((linked.signal.reason as Error).message).toBe("gone");
    linked.clear();
  });

  it("clear() leaves nothing on a long-lived parent: no listener piles up, no timer fires later", async () => {
    const parent = new AbortController();
    const signals = Array.from({ length: 50 }, () => linkedSignal(parent.signal, 5, timeoutReason));
    for (const linked of signals) linked.clear();
    expect(abortListeners(parent.signal)).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(signals.some((linked) => linked.signal.aborted || linked.timedOut())).toBe(false);
  });
});

describe("withDeadline over a caller's signal", () => {
  it("follows the caller's cancellation, aborts with DeadlineReached at the deadline, and lets go on clear()", async () => {
    const caller = new AbortController();
    const cancelled = withDeadline(caller.signal, 60_000);
    caller.abort(new Error("stop"));
    expect((cancelled.signal.reason as Error).message).toBe("stop");
    cancelled.clear();

    const other = new AbortController();
    const expiring = withDeadline(other.signal, 10);
    expect(deadlineOf(expiring.signal)?.totalMs).toBe(10);
    await new Promise((resolve) => expiring.signal.addEventListener("abort", resolve, { once: true }));
    expect(expiring.signal.reason).toBeInstanceOf(DeadlineReached);
    expiring.clear();
    expect(abortListeners(other.signal)).toBe(0);

    const kept = new AbortController();
    for (let i = 0; i < 20; i++) withDeadline(kept.signal, 60_000).clear();
    expect(abortListeners(kept.signal)).toBe(0);
  });
});

describe("withDeadline inside an earlier deadline (a connector's budget inside runToolStep's)", () => {
  it("hands back the outer signal, whose timer runs until its last holder is done", async () => {
    const outer = withDeadline(undefined, 30);
    const inner = withDeadline(outer.signal, 60_000);
    expect(inner.signal).toBe(outer.signal);
    expect(deadlineOf(inner.signal)?.totalMs).toBe(30);
    // The step's own work ended first; the connector's call still runs and must still end at the deadline.
    outer.clear();
    outer.clear();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(inner.signal.aborted).toBe(true);
    expect(inner.signal.reason).toBeInstanceOf(DeadlineReached);
    inner.clear();
  });

  it("stops the shared timer once every holder cleared it; a later own deadline gets a signal of its own", async () => {
    const caller = new AbortController();
    const outer = withDeadline(caller.signal, 20);
    const inner = withDeadline(outer.signal, 60_000);
    inner.clear();
    inner.clear();
    outer.clear();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(outer.signal.aborted).toBe(false);
    expect(abortListeners(caller.signal)).toBe(0);

    const wide = withDeadline(undefined, 60_000);
    const narrow = withDeadline(wide.signal, 10);
    expect(narrow.signal).not.toBe(wide.signal);
    expect(deadlineOf(narrow.signal)?.totalMs).toBe(10);
    wide.clear();
    narrow.clear();
  });
});

describe("many calls at once under one long-lived caller signal (a library user's shutdown signal)", () => {
  it("puts one listener on it, however many calls run: no MaxListenersExceededWarning, every call still follows it", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      const shutdown = new AbortController();
      const calls = Array.from({ length: 50 }, () => withDeadline(shutdown.signal, 60_000));
      const attempts = calls.map((call) => linkedSignal(call.signal, 60_000, timeoutReason));
      const direct = Array.from({ length: 20 }, () => linkedSignal(shutdown.signal, 60_000, timeoutReason));
      expect(abortListeners(shutdown.signal)).toBe(1);
      // One call ends: the others still follow the caller.
      calls[0]?.clear();
      attempts[0]?.clear();
      direct[0]?.clear();
      const reason = new Error("shutting down");
      shutdown.abort(reason);
      for (const linked of [...calls.slice(1), ...attempts.slice(1), ...direct.slice(1)])
        expect(linked.signal.reason).toBe(reason);
      expect(calls[0]?.signal.aborted).toBe(false);
      expect(attempts[0]?.signal.aborted).toBe(false);
      expect(direct[0]?.signal.aborted).toBe(false);
      for (const linked of [...calls, ...attempts, ...direct]) linked.clear();
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain("MaxListenersExceededWarning");
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("takes its listener off the caller once every call under it is done", () => {
    const shutdown = new AbortController();
    const calls = Array.from({ length: 30 }, () => withDeadline(shutdown.signal, 60_000));
    for (const call of calls) call.clear();
    expect(abortListeners(shutdown.signal)).toBe(0);
    const again = linkedSignal(shutdown.signal, 60_000, timeoutReason);
    expect(abortListeners(shutdown.signal)).toBe(1);
    shutdown.abort(new Error("late"));
    expect((again.signal.reason as Error).message).toBe("late");
    again.clear();
  });
});

describe("withDeadline on a signal whose holders all let go (work still running after its step returned)", () => {
  it("still ends at that deadline, and still follows the caller's cancellation", async () => {
    const outer = withDeadline(new AbortController().signal, 30);
    outer.clear();
    const late = withDeadline(outer.signal, 60_000);
    expect(deadlineOf(late.signal)?.totalMs).toBe(30);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(late.signal.aborted).toBe(true);
    expect(late.signal.reason).toBeInstanceOf(DeadlineReached);
    late.clear();

    const caller = new AbortController();
    const step = withDeadline(caller.signal, 60_000);
    step.clear();
    const after = withDeadline(step.signal, 120_000);
    caller.abort(new Error("cancelled"));
    expect((after.signal.reason as Error | undefined)?.message).toBe("cancelled");
    after.clear();
    expect(abortListeners(caller.signal)).toBe(0);
  });
});
