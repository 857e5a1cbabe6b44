/**
 * One GA4 HTTP exchange with our retry policy: 401 → refresh and replay once; 429 concurrency and
 * 5xx → capped backoff honouring Retry-After; token quotas → not retried; writes that are not
 * replay-safe → never repeated after a 5xx or a lost connection (UnknownOutcomeError).
 */
import type { GoogleTokenSource } from "../../auth/google/token-source.js";
import { seconds } from "../../deadline.js";
import {
  CancelledError,
  NetworkError,
  RateLimitError,
  UnknownOutcomeError,
  UpstreamError,
} from "../../errors.js";
import { Redactor } from "../../redact.js";
import { telemetry } from "../../telemetry.js";
import { Budget } from "../budget.js";
import {
  AttemptFailure,
  backoffDelay,
  getRequestHeaders,
  exchange as httpExchange,
  mayReplay,
  parseRetryAfter,
  type RequestAuth,
} from "../http/index.js";
import { classifyExhaustion, mapGoogleError, parseStatus, quotaError } from "./google-errors.js";
import { isReplaySafe, propertyOf } from "./paths.js";
import { CONCURRENCY_BACKOFF, cancelled, SERVER_ERROR_BACKOFF } from "./retry.js";
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

type Attempt = { response: { status: number; headers: Headers }; text: string } | { failure: AttemptFailure };

function redirectRefused(status: number): UpstreamError {
  return new UpstreamError(
    `Google Analytics answered with a redirect (HTTP ${status}), which is not followed.`,
    {
      hint: "Check GA4_DATA_API_URL / GA4_ADMIN_API_URL; Google's APIs do not redirect.",
      status,
    },
  );
}

const ACCEPT_JSON: Record<string, string> = { accept: "application/json" };
const JSON_HEADERS: Record<string, string> = {
  accept: "application/json",
  "content-type": "application/json",
};

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
      const auth = await getRequestHeaders(tokens, budget.signal, () => cancelled(budget.signal));
      this.#redactor.add(auth.token);
      const timeout = budget.attemptTimeout(this.#deps.timeoutMs);
      const attempt = await this.#attemptInSlot(exchange, auth, timeout.ms, budget.signal, property);
      if ("failure" in attempt) {
        const { failure } = attempt;
        const lost = this.#replayable(failure, exchange, budget, timeout.byDeadline, replaySafe);
        if (retries < maxRetries) {
          await wait(backoffDelay(retries, SERVER_ERROR_BACKOFF, this.#deps.random), `the request ${lost}`);
          continue;
        }
        throw this.#networkError(exchange, failure, true, failure.kind === "timeout");
      }

      const { response, text } = attempt;
      telemetry.upstream("google_analytics", response.status);
      // Every string of the answer is redacted before it is read: a body may echo what was sent.
      if (response.status >= 200 && response.status < 300)
        return text.trim() === "" ? {} : this.#parseJson(text, response.status);
      const status = parseStatus(this.#redacted(text));
      const { api, method, path } = exchange;
      const context = { api, method, path, account: tokens.label, grantee: tokens.grantee };
      const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"), this.#deps.now());

      if (response.status >= 300 && response.status < 400) throw redirectRefused(response.status);
      if (response.status === 401) {
        // One replay with a fresh token: the cached one may have been revoked or expired early.
        // A second 401 means the grant itself is refused (google-auth-library does the same).
        tokens.invalidate(auth.token);
        if (!refreshed) {
          refreshed = true;
          continue;
        }
        throw mapGoogleError(401, status, { ...context, now: this.#deps.now() });
      }
      if (response.status === 429) {
        await wait(
          this.#rateLimited(status, retries, retryAfterMs),
          "Google Analytics kept rate limiting it (HTTP 429)",
        );
        continue;
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

  /**
   * A 429: the quota's error when an hourly or daily token quota is spent; else the wait before the
   * next attempt, or a RateLimitError when retries are used up or the wait is longer than we wait.
   */
  #rateLimited(
    status: ReturnType<typeof parseStatus>,
    retries: number,
    retryAfterMs: number | undefined,
  ): number {
    telemetry.limitRefused("google_analytics", "429");
    const exhaustion = classifyExhaustion(status.message);
    if (exhaustion === "hourly" || exhaustion === "daily")
      throw quotaError(status, exhaustion, this.#deps.now());
    const delay = backoffDelay(retries, CONCURRENCY_BACKOFF, this.#deps.random, retryAfterMs);
    if (retries < this.#deps.maxRetries && delay <= this.#deps.maxRetryWaitMs) return delay;
    throw new RateLimitError(
      `Google Analytics is rate limiting this property (${status.message ?? "RESOURCE_EXHAUSTED"}).`,
      delay,
      { hint: `Retry in ${Math.ceil(delay / 1000)} s, with fewer reports running at once.` },
    );
  }

  /** One attempt in a free slot of the property (when the path names one). */
  async #attemptInSlot(
    exchange: Exchange,
    auth: RequestAuth,
    timeoutMs: number,
    signal: AbortSignal,
    property: string | undefined,
  ): Promise<Attempt> {
    const queued = this.#deps.now();
    const release = property ? await this.#deps.slots.acquire(property, signal) : undefined;
    if (property) telemetry.limiterWait("google_analytics", this.#deps.now() - queued);
    try {
      return await this.#attempt(exchange, auth, timeoutMs, signal);
    } finally {
      await release?.();
    }
  }

  /**
   * After an attempt that got no answer: throws unless the shared replay rule (../http) lets it be sent
   * again, and says how it was lost.
   */
  #replayable(
    failure: AttemptFailure,
    exchange: Exchange,
    budget: Budget,
    byDeadline: boolean,
    replaySafe: boolean,
  ): string {
    const timedOut = failure.kind === "timeout";
    if (failure.kind !== "cancelled") telemetry.upstream("google_analytics", "network_error");
    // A write whose delivery is not known "not sent" may have been applied: its outcome is unknown.
    const unknown = !replaySafe && failure.delivery !== "not_sent";
    if (budget.expired || (timedOut && byDeadline)) {
      throw budget.error(
        `${exchange.method} ${exchange.path}`,
        unknown
          ? "the request was sent and no answer came before the deadline; the outcome is unknown"
          : "no answer came before the deadline",
        unknown,
      );
    }
    if (failure.kind === "cancelled") throw this.#cancelledAfterSend(exchange, unknown);
    const lost = timedOut ? `timed out after ${seconds(this.#deps.timeoutMs)}` : "lost its connection";
    if (!mayReplay(failure, !replaySafe)) {
      if (!unknown) throw this.#networkError(exchange, failure, false, false);
      throw this.#unknownOutcome(exchange, lost, failure);
    }
    return lost;
  }

  /** One HTTP exchange, body included, through the connectors' shared one (../http). */
  async #attempt(
    exchange: Exchange,
    auth: RequestAuth,
    timeoutMs: number,
    budget: AbortSignal,
  ): Promise<Attempt> {
    const json = exchange.body !== undefined;
    try {
      const answer = await httpExchange(
        this.#deps.fetch,
        {
          method: exchange.method,
          url: exchange.url,
          headers: json ? JSON_HEADERS : ACCEPT_JSON,
          body: json ? JSON.stringify(exchange.body) : undefined,
        },
        { timeoutMs, signal: budget, auth: auth.headers },
      );
      return { response: answer, text: answer.text };
    } catch (failure) {
      if (failure instanceof AttemptFailure) return { failure };
      throw failure;
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

  #cancelledAfterSend(exchange: Exchange, unknown: boolean): CancelledError {
    return new CancelledError("The Google Analytics call was cancelled.", {
      hint: unknown
        ? `The ${exchange.method} may already have been applied: check ${exchange.path} before sending it again.`
        : undefined,
    });
  }

  #unknownOutcome(exchange: Exchange, what: string, cause: unknown): UnknownOutcomeError {
    return new UnknownOutcomeError(
      `Google Analytics ${what} after the ${exchange.method} to ${exchange.path} was sent: it may or may not have been applied, and it was not repeated so nothing is created twice.`,
      { hint: "List or get the resource to see whether it exists before sending the request again.", cause },
    );
  }

  #networkError(
    exchange: Exchange,
    failure: AttemptFailure,
    retried: boolean,
    timedOut: boolean,
  ): NetworkError {
    const what = timedOut ? `timed out after ${seconds(this.#deps.timeoutMs)}` : "could not be reached";
    return new NetworkError(
      `The Google Analytics ${exchange.api === "data" ? "Data" : "Admin"} API ${what}.`,
      {
        hint: `${retried ? "Retries did not help; " : "Nothing was sent; "}check the network connection and try again.`,
        retryable: true,
        cause: failure,
      },
    );
  }
}
