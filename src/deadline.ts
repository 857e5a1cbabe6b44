/**
 * The overall deadline of a tool call travels on its AbortSignal, so it passes through every tool step
 * handler unchanged (they already hand `ctx.signal` to the connectors). When it passes, the signal
 * aborts with a `DeadlineReached` reason, which connectors turn into a DeadlineExceededError saying what
 * was going on, instead of the CancelledError a caller's own cancellation gets.
 */

/** MARTECH_STEPS_DEADLINE_MS: the overall limit of one tool call. */
export const DEFAULT_DEADLINE_MS = 120_000;
/** MARTECH_STEPS_REQUEST_TIMEOUT_MS: the limit of one HTTP attempt. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/**
 * The longest delay Node's timers take (2^31 − 1 ms, about 24.8 days): setTimeout and
 * AbortSignal.timeout run a longer one after 1 ms (https://nodejs.org/api/timers.html#settimeoutcallback-delay-args),
 * which would end every call at once. Longer durations are read as this one: no call outlives it.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A duration as a timer can take it: at most MAX_TIMER_MS. */
export function timerMs(ms: number): number {
  return Math.min(ms, MAX_TIMER_MS);
}

/** The abort reason of a signal whose deadline passed. */
export class DeadlineReached extends Error {
  readonly totalMs: number;

  constructor(totalMs: number) {
    super(`the ${seconds(totalMs)} deadline passed`);
    this.name = "DeadlineReached";
    this.totalMs = totalMs;
  }
}

export function isDeadlineReason(reason: unknown): reason is DeadlineReached {
  return reason instanceof DeadlineReached;
}

/** "120 s", "1.5 s", "250 ms": how long limits read in messages. */
export function seconds(ms: number): string {
  return ms < 1_000 ? `${Math.round(ms)} ms` : `${Math.round(ms / 100) / 10} s`;
}

interface Deadline {
  /** Date.now() when it passes. */
  at: number;
  totalMs: number;
}

/** A signal made by withDeadline: its deadline, and how many callers still use it (see withDeadline). */
interface Held {
  deadline: Deadline;
  holders: number;
  stop: () => void;
  /** The signal it follows (the caller's). */
  parent: AbortSignal | undefined;
}

const DEADLINES = new WeakMap<AbortSignal, Held>();

/** The deadline a signal carries (set by withDeadline), if any. */
export function deadlineOf(signal: AbortSignal | undefined): Deadline | undefined {
  return signal ? DEADLINES.get(signal)?.deadline : undefined;
}

/**
 * A signal that aborts when `parent` does (with its reason) or after `ms` (with `reason()`), and
 * `clear()` to stop following both once the work is done. It is what AbortSignal.any([parent,
 * AbortSignal.timeout(ms)]) gives, for about a fifth of the CPU on Node 20 (measured 4.4 µs against
 * 23 µs per use: `any` keeps weak references and a finalization registry per source), and every tool
 * call makes several. The listener on `parent` also keeps the signal alive while the work runs, which
 * undici needs (it follows a Request's signal only weakly: https://github.com/nodejs/undici/issues/3644).
 * A parent carries one listener however many signals follow it (see `follow`).
 */
export function linkedSignal(
  parent: AbortSignal | undefined,
  ms: number,
  reason: () => unknown,
): { signal: AbortSignal; timedOut: () => boolean; clear: () => void } {
  const controller = new AbortController();
  let timedOut = false;
  if (parent?.aborted) {
    controller.abort(parent.reason);
    return { signal: controller.signal, timedOut: () => false, clear: () => undefined };
  }
  const unfollow = parent ? follow(parent, () => controller.abort(parent.reason)) : () => undefined;
  const timer = setTimeout(() => {
    timedOut = true;
    unfollow();
    controller.abort(reason());
  }, timerMs(ms));
  // The work itself keeps the process alive; a timer left behind by a finished call must not.
  timer.unref();
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    clear: () => {
      clearTimeout(timer);
      unfollow();
    },
  };
}

/** The signals that follow a parent, behind the parent's one listener. */
interface Followers {
  listener: () => void;
  onAbort: Set<() => void>;
}

const FOLLOWERS = new WeakMap<AbortSignal, Followers>();

/**
 * Calls `onAbort` when `parent` aborts, until the returned function is called. A parent gets one
 * listener for all its followers: a caller's signal that many calls share at once (a library user's
 * shutdown signal) would otherwise carry one per call, and past ten Node prints a
 * MaxListenersExceededWarning (https://nodejs.org/api/events.html#eventsdefaultmaxlisteners).
 * AbortSignal.any, used before, followed its sources without a listener.
 */
function follow(parent: AbortSignal, onAbort: () => void): () => void {
  let followers = FOLLOWERS.get(parent);
  if (!followers) {
    const all = new Set<() => void>();
    const listener = () => {
      FOLLOWERS.delete(parent);
      for (const callback of [...all]) callback();
    };
    followers = { listener, onAbort: all };
    FOLLOWERS.set(parent, followers);
    parent.addEventListener("abort", listener, { once: true });
  }
  const mine = followers;
  mine.onAbort.add(onAbort);
  return () => {
    if (!mine.onAbort.delete(onAbort) || mine.onAbort.size > 0) return;
    if (FOLLOWERS.get(parent) === mine) FOLLOWERS.delete(parent);
    parent.removeEventListener("abort", mine.listener);
  };
}

/**
 * A signal that aborts when `signal` does or when `ms` have passed (reason DeadlineReached), and carries
 * that deadline, or the earlier one `signal` already carries. Call `clear()` when the work is done (the
 * signal then stops following `signal` too).
 *
 * When `signal` was made here and its deadline comes first (a connector's budget inside runToolStep's
 * deadline: every call), `signal` itself is handed back: a new one would abort at the same moment for
 * the same reasons. It is then shared, and its timer runs until the last of its holders clears it.
 * Once all have, it neither times out nor follows its caller any more: work that asks for a deadline
 * under it later (still running after its step returned) gets a signal of its own, on the caller's
 * signal, that ends at the same deadline.
 */
export function withDeadline(
  signal: AbortSignal | undefined,
  ms: number,
): { signal: AbortSignal; clear: () => void } {
  const held = signal ? DEADLINES.get(signal) : undefined;
  const own: Deadline = { at: Date.now() + ms, totalMs: ms };
  if (signal && held && held.deadline.at <= own.at) {
    if (held.holders === 0 && !signal.aborted) return deadlineSignal(held.parent, held.deadline);
    held.holders += 1;
    return { signal, clear: releaser(held) };
  }
  return deadlineSignal(signal, own);
}

function deadlineSignal(
  parent: AbortSignal | undefined,
  deadline: Deadline,
): { signal: AbortSignal; clear: () => void } {
  const linked = linkedSignal(parent, deadline.at - Date.now(), () => new DeadlineReached(deadline.totalMs));
  const made: Held = { deadline, holders: 1, stop: linked.clear, parent };
  DEADLINES.set(linked.signal, made);
  return { signal: linked.signal, clear: releaser(made) };
}

/** One holder's clear(): idempotent; the last one stops the timer and the link to the parent. */
function releaser(held: Held): () => void {
  let released = false;
  return () => {
    if (released) return;
    released = true;
    held.holders -= 1;
    if (held.holders === 0) held.stop();
  };
}

/** Waits for `promise`, or rejects with `onAbort()` as soon as `signal` aborts (the work goes on for others). */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal, onAbort: () => unknown): Promise<T> {
  if (signal.aborted) return Promise.reject(onAbort());
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(onAbort());
    signal.addEventListener("abort", abort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", abort);
        reject(error);
      },
    );
  });
}
