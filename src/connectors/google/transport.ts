/**
 * One GA4 HTTP exchange with our retry policy: 401 → refresh and replay once; 429 concurrency and
 * 5xx → capped backoff honouring Retry-After; token quotas → not retried; writes that are not
 * replay-safe → never repeated after a 5xx or a lost connection (UnknownOutcomeError).
 */
import type { GoogleTokenSource } from "../../auth/google/token-source.js";
import { linkedSignal, raceAbort, seconds } from "../../deadline.js";
import {
  CancelledError,
  isMartechError,
  NetworkError,
  RateLimitError,
  UnknownOutcomeError,
  UpstreamError,
} from "../../errors.js";
import { Redactor } from "../../redact.js";
import { telemetry } from "../../telemetry.js";
import { Budget } from "../budget.js";
import { classifyExhaustion, mapGoogleError, parseStatus, quotaError } from "./google-errors.js";
import { isReplaySafe, propertyOf } from "./paths.js";
import {
  backoffDelay,
  CONCURRENCY_BACKOFF,
  cancelled,
  parseRetryAfter,
  SERVER_ERROR_BACKOFF,
} from "./retry.js";
import type { PropertySlots } from "./slots.js";
import type { GoogleApi, GoogleRequest } from "./types.js";

export interface TransportDeps {
  tokens: GoogleTokenSource;
  slots: PropertySlots;
  fetch: typeof fetch;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  now: () => number;
  maxRetries: number;
  /** Per HTTP attempt, until the whole body is read (shortened when the call's deadline comes first). */
  timeoutMs: number;
  /** Overall limit of one call when its signal carries no earlier deadline. */
  deadlineMs: number;
  /** A Retry-After longer than this is reported to the caller instead of waited on. */
  maxRetryWaitMs: number;
}

export interface Exchange {
  api: GoogleApi;
  method: GoogleRequest["method"];
  /** The checked path (for messages and classification); `url` is already joined and guarded. */
  path: string;
  url: URL;
  body: unknown;
  signal: AbortSignal | undefined;
}

type Attempt = { response: Response; text: string } | { failure: unknown; timedOut: boolean };

// Errors from undici that mean the connection was never made, so nothing reached Google.
const NOT_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ENETUNREACH", "EHOSTUNREACH"]);

function notSent(error: unknown): boolean {
  const code = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof code === "string" && NOT_SENT.has(code);
}

export class GoogleTransport {
  readonly #deps: TransportDeps;
  /** The account's redactor (refresh token, client secret, access tokens): Google's answers pass through it. */
  readonly #redactor: Redactor;

  constructor(deps: TransportDeps) {
    this.#deps = deps;
    this.#redactor = deps.tokens.redactor ?? new Redactor();
  }

  /** Sends one exchange within its budget: the call's deadline bounds every attempt and every wait. */
  async send(exchange: Exchange): Promise<unknown> {
    const budget = new Budget({
      deadlineMs: this.#deps.deadlineMs,
      signal: exchange.signal,
      now: this.#deps.now,
      service: "Google Analytics",
    });
    try {
      return await this.#send(exchange, budget);
    } finally {
      budget.dispose();
    }
  }

  async #send(exchange: Exchange, budget: Budget): Promise<unknown> {
    const { tokens, maxRetries } = this.#deps;
    const property = propertyOf(exchange.path);
    const replaySafe = isReplaySafe(exchange.method, exchange.path);
    const what = `${exchange.method} ${exchange.path}`;
    let retries = 0;
    let refreshed = false;
    const wait = async (ms: number, why: string) => {
      if (!budget.fits(ms))
        throw budget.error(what, `${why}, and waiting ${seconds(ms)} to retry would pass it`, false);
      const waited = await this.#deps.sleep(ms, budget.signal).then(
        () => !budget.signal.aborted,
        () => false,
      );
      if (!waited) {
        if (budget.expired) throw budget.error(what, `${why}; waiting to retry ran into it`, false);
        throw cancelled(budget.signal);
      }
      retries += 1;
      telemetry.retried("google_analytics");
    };
    for (;;) {
      if (budget.signal.aborted) throw cancelled(budget.signal);
      const token = await raceAbort(tokens.getToken(), budget.signal, () => cancelled(budget.signal));
      this.#redactor.add(token);
      const queued = this.#deps.now();
      const release = property ? await this.#deps.slots.acquire(property, budget.signal) : undefined;
      if (property) telemetry.limiterWait("google_analytics", this.#deps.now() - queued);
      const timeout = budget.attemptTimeout(this.#deps.timeoutMs);
      let attempt: Attempt;
      try {
        attempt = await this.#attempt(exchange, token, timeout.ms, budget.signal);
      } finally {
        await release?.();
      }

      if ("failure" in attempt) {
        if (!budget.signal.aborted) telemetry.upstream("google_analytics", "network_error");
        const failure = attempt.failure;
        if (budget.expired || (attempt.timedOut && timeout.byDeadline)) {
          const unknown = !replaySafe && !notSent(failure);
          throw budget.error(
            what,
            unknown
              ? "the request was sent and no answer came before the deadline; the outcome is unknown"
              : "no answer came before the deadline",
            unknown,
          );
        }
        if (budget.signal.aborted) throw this.#cancelledAfterSend(exchange, replaySafe);
        const lost = attempt.timedOut
          ? `timed out after ${seconds(this.#deps.timeoutMs)}`
          : "lost its connection";
        if (!replaySafe) {
          if (notSent(failure)) throw this.#networkError(exchange, failure, false, false);
          throw this.#unknownOutcome(exchange, lost, attempt.timedOut ? undefined : failure);
        }
        if (retries < maxRetries) {
          await wait(backoffDelay(retries, SERVER_ERROR_BACKOFF, this.#deps.random), `the request ${lost}`);
          continue;
        }
        throw this.#networkError(exchange, failure, true, attempt.timedOut);
      }

      const { response, text } = attempt;
      telemetry.upstream("google_analytics", response.status);
      // Every string of the answer is redacted before it is read: a body may echo what was sent.
      if (response.ok) return text.trim() === "" ? {} : this.#parseJson(text, response.status);
      const status = parseStatus(this.#redacted(text));
      const context = {
        api: exchange.api,
        method: exchange.method,
        path: exchange.path,
        account: tokens.label,
      };
      const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"), this.#deps.now());

      if (response.status >= 300 && response.status < 400) {
        throw new UpstreamError(
          `Google Analytics answered with a redirect (HTTP ${response.status}), which is not followed.`,
          {
            hint: "Check GA4_DATA_API_URL / GA4_ADMIN_API_URL; Google's APIs do not redirect.",
            status: response.status,
          },
        );
      }
      if (response.status === 401) {
        // One replay with a fresh token: the cached one may have been revoked or expired early.
        // A second 401 means the grant itself is refused (google-auth-library does the same).
        tokens.invalidate(token);
        if (!refreshed) {
          refreshed = true;
          continue;
        }
        throw mapGoogleError(401, status, { ...context, now: this.#deps.now() });
      }
      if (response.status === 429) {
        telemetry.limitRefused("google_analytics", "429");
        const exhaustion = classifyExhaustion(status.message);
        if (exhaustion === "hourly" || exhaustion === "daily")
          throw quotaError(status, exhaustion, this.#deps.now());
        const delay = backoffDelay(retries, CONCURRENCY_BACKOFF, this.#deps.random, retryAfterMs);
        if (retries < maxRetries && delay <= this.#deps.maxRetryWaitMs) {
          await wait(delay, "Google Analytics kept rate limiting it (HTTP 429)");
          continue;
        }
        throw new RateLimitError(
          `Google Analytics is rate limiting this property (${status.message ?? "RESOURCE_EXHAUSTED"}).`,
          delay,
          { hint: `Retry in ${Math.ceil(delay / 1000)} s, with fewer reports running at once.` },
        );
      }
      if (response.status >= 500) {
        if (!replaySafe) throw this.#unknownOutcome(exchange, `answered HTTP ${response.status}`, undefined);
        const delay = backoffDelay(retries, SERVER_ERROR_BACKOFF, this.#deps.random, retryAfterMs);
        if (retries < maxRetries && delay <= this.#deps.maxRetryWaitMs) {
          await wait(delay, `Google Analytics kept failing it (HTTP ${response.status})`);
          continue;
        }
      }
      throw mapGoogleError(response.status, status, { ...context, now: this.#deps.now() });
    }
  }

  /** One HTTP exchange, body included, under a signal that ends at the attempt timeout or the budget. */
  async #attempt(
    exchange: Exchange,
    token: string,
    timeoutMs: number,
    budget: AbortSignal,
  ): Promise<Attempt> {
    const timeout = linkedSignal(
      budget,
      timeoutMs,
      () => new DOMException("The operation was aborted due to timeout", "TimeoutError"),
    );
    const signal = timeout.signal;
    // The platform fetch, not ky (DESIGN.md's default): retries, timeouts and the token are ours already,
    // and ky's layer cost more CPU than the rest of a report's handling (per request it built two
    // Requests, teed the body for retries it never made, and joined signals with AbortSignal.any).
    // Our own listener on the signal as well as fetch's: undici follows a Request's signal through a
    // weak reference that a garbage collection can drop, after which a body that hangs is never aborted
    // (https://github.com/nodejs/undici/issues/3644, reproduced on Node 20 when ky handed it a Request).
    // A signal with a listener is kept alive, and the race ends the read at the timeout or the deadline.
    const aborted = () => signal.reason;
    const json = exchange.body !== undefined;
    try {
      const response = await raceAbort(
        this.#deps.fetch(exchange.url, {
          method: exchange.method,
          headers: {
            accept: "application/json",
            authorization: `Bearer ${token}`,
            ...(json ? { "content-type": "application/json" } : {}),
          },
          ...(json ? { body: JSON.stringify(exchange.body) } : {}),
          // Never follow a redirect: it would carry the Authorization header to wherever it points.
          redirect: "manual",
          signal,
        }),
        signal,
        aborted,
      );
      const text = await raceAbort(response.text(), signal, () => {
        // Free the connection too where undici no longer hears the signal (a locked body refuses; ignored).
        response.body?.cancel().catch(() => undefined);
        return aborted();
      });
      return { response, text };
    } catch (failure) {
      if (isMartechError(failure)) throw failure;
      return { failure, timedOut: timeout.timedOut() && !budget.aborted };
    } finally {
      timeout.clear();
    }
  }

  /** The body as JSON with every string redacted; undefined when it is not JSON. */
  #redacted(text: string): unknown {
    try {
      return this.#redactor.json(text);
    } catch {
      return undefined;
    }
  }

  #parseJson(text: string, status: number): unknown {
    try {
      return this.#redactor.json(text);
    } catch {
      throw new UpstreamError("Google Analytics answered with a body that is not JSON.", {
        hint: "Check GA4_DATA_API_URL / GA4_ADMIN_API_URL point at Google's APIs.",
        status,
      });
    }
  }

  #cancelledAfterSend(exchange: Exchange, replaySafe: boolean): CancelledError {
    return new CancelledError("The Google Analytics call was cancelled.", {
      hint: replaySafe
        ? undefined
        : `The ${exchange.method} may already have been applied: check ${exchange.path} before sending it again.`,
    });
  }

  #unknownOutcome(exchange: Exchange, what: string, cause: unknown): UnknownOutcomeError {
    return new UnknownOutcomeError(
      `Google Analytics ${what} after the ${exchange.method} to ${exchange.path} was sent: it may or may not have been applied, and it was not repeated so nothing is created twice.`,
      { hint: "List or get the resource to see whether it exists before sending the request again.", cause },
    );
  }

  #networkError(exchange: Exchange, failure: unknown, retried: boolean, timedOut: boolean): NetworkError {
    const what = timedOut ? `timed out after ${seconds(this.#deps.timeoutMs)}` : "could not be reached";
    return new NetworkError(
      `The Google Analytics ${exchange.api === "data" ? "Data" : "Admin"} API ${what}.`,
      {
        hint: `${retried ? "Retries did not help; " : "Nothing was sent; "}check the network connection and try again.`,
        retryable: true,
        cause: timedOut ? undefined : failure,
      },
    );
  }
}
