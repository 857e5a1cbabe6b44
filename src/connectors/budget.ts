import { deadlineOf, isDeadlineReason, seconds, timerMs, withDeadline } from "../deadline.js";
import { DeadlineExceededError } from "../errors.js";

export interface BudgetOptions {
  /** The connector's own limit, for calls made without a deadline on their signal. */
  deadlineMs: number;
  /** The caller's signal; a deadline it carries (runToolStep's) wins when it is earlier. */
  signal: AbortSignal | undefined;
  /** The connector's clock (tests inject one). */
  now: () => number;
  /** "Marketo" or "Google Analytics": who the messages are about. */
  service: string;
}

/**
 * The time one connector call may still take. Its signal aborts at the deadline (reason
 * DeadlineReached) or when the caller cancels; waits whose length is known ask `fits()` first, so a
 * wait that would end after the deadline fails at once instead of sleeping past it.
 */
export class Budget {
  readonly signal: AbortSignal;
  /** The whole deadline that applies, for messages. */
  readonly totalMs: number;
  readonly #service: string;
  readonly #now: () => number;
  readonly #at: number;
  readonly #clear: () => void;

  constructor(options: BudgetOptions) {
    this.#service = options.service;
    this.#now = options.now;
    const outer = deadlineOf(options.signal);
    const outerLeft = outer ? outer.at - Date.now() : Number.POSITIVE_INFINITY;
    const left = Math.max(0, Math.min(options.deadlineMs, outerLeft));
    this.totalMs = outer && outerLeft <= options.deadlineMs ? outer.totalMs : options.deadlineMs;
    this.#at = this.#now() + left;
    const own = withDeadline(options.signal, left);
    this.signal = own.signal;
    this.#clear = own.clear;
  }

  remainingMs(): number {
    return Math.max(0, this.#at - this.#now());
  }

  /**
   * Whether a wait of `ms` ends early enough to be worth it: before the deadline, leaving a twentieth
   * of it (at least 50 ms; 6 s of 120 s) for the attempt that follows.
   */
  fits(ms: number): boolean {
    return ms + Math.max(50, this.totalMs / 20) < this.remainingMs();
  }

  /** True when the signal aborted because the deadline passed (not because the caller cancelled). */
  get expired(): boolean {
    return this.signal.aborted && isDeadlineReason(this.signal.reason);
  }

  /** One attempt's timeout: the request timeout, or less when the deadline comes first (at most MAX_TIMER_MS). */
  attemptTimeout(requestTimeoutMs: number): { ms: number; byDeadline: boolean } {
    const left = this.remainingMs();
    return left < requestTimeoutMs
      ? { ms: timerMs(Math.max(1, left)), byDeadline: true }
      : { ms: timerMs(requestTimeoutMs), byDeadline: false };
  }

  /**
   * The deadline error: `what` is the call ("GET /rest/v1/leads.json"), `doing` what was under way
   * ("waiting 8 s to retry after HTTP 503"), `sentWrite` whether a request that changes data had been
   * sent without an answer.
   */
  error(what: string, doing: string, sentWrite: boolean): DeadlineExceededError {
    return new DeadlineExceededError(
      `The ${this.#service} call ${what} did not finish within its ${seconds(this.totalMs)} deadline: ${doing}.`,
      {
        writeMayHaveHappened: sentWrite,
        deadlineMs: this.totalMs,
        hint: sentWrite
          ? `The request had been sent, so the change may or may not have been made: check in ${this.#service} before sending it again.`
          : "Nothing was changed; retry later, or raise MARTECH_STEPS_DEADLINE_MS if the service is slow.",
      },
    );
  }

  /** Stops the deadline timer; call when the call is over. */
  dispose(): void {
    this.#clear();
  }
}
