/**
 * One GA4 HTTP exchange with our retry policy: 401 → refresh and replay once; 429 concurrency and
 * 5xx → capped backoff honouring Retry-After; token quotas → not retried; writes that are not
 * replay-safe → never repeated after a 5xx or a lost connection (UnknownOutcomeError).
 */
import ky, { type KyInstance, TimeoutError } from "ky";
import type { GoogleTokenSource } from "../../auth/google/token-source.js";
import {
  CancelledError,
  isMartechError,
  NetworkError,
  RateLimitError,
  UnknownOutcomeError,
  UpstreamError,
} from "../../errors.js";
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
  timeoutMs: number;
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

type Attempt = { response: Response; text: string } | { failure: unknown };

// Errors from undici that mean the connection was never made, so nothing reached Google.
const NOT_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ENETUNREACH", "EHOSTUNREACH"]);

/** ky's TimeoutError holds the Request, whose headers carry the bearer token: it is never kept as a cause. */
function safeCause(failure: unknown): unknown {
  return failure instanceof TimeoutError ? undefined : failure;
}

function notSent(error: unknown): boolean {
  const code = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof code === "string" && NOT_SENT.has(code);
}

export class GoogleTransport {
  readonly #deps: TransportDeps;
  readonly #http: KyInstance;

  constructor(deps: TransportDeps) {
    this.#deps = deps;
    this.#http = ky.create({
      retry: 0, // our own policy below
      throwHttpErrors: false,
      // Never follow a redirect: it would carry the Authorization header to wherever it points.
      redirect: "manual",
      timeout: deps.timeoutMs,
      fetch: deps.fetch,
      hooks: {
        beforeRequest: [
          (request, options) => {
            const token = options.context.token;
            if (typeof token === "string") request.headers.set("authorization", `Bearer ${token}`);
          },
        ],
      },
    });
  }

  async send(exchange: Exchange): Promise<unknown> {
    const { tokens, maxRetries } = this.#deps;
    const property = propertyOf(exchange.path);
    const replaySafe = isReplaySafe(exchange.method, exchange.path);
    let retries = 0;
    let refreshed = false;
    for (;;) {
      if (exchange.signal?.aborted) throw cancelled(exchange.signal);
      const token = await tokens.getToken();
      const release = property ? await this.#deps.slots.acquire(property, exchange.signal) : undefined;
      let attempt: Attempt;
      try {
        attempt = await this.#attempt(exchange, token);
      } finally {
        await release?.();
      }

      if ("failure" in attempt) {
        const failure = attempt.failure;
        if (exchange.signal?.aborted) throw this.#cancelledAfterSend(exchange, replaySafe);
        if (!replaySafe) {
          if (notSent(failure)) throw this.#networkError(exchange, failure, false);
          throw this.#unknownOutcome(
            exchange,
            failure instanceof TimeoutError ? "timed out" : "lost its connection",
            safeCause(failure),
          );
        }
        if (retries < maxRetries) {
          await this.#deps.sleep(
            backoffDelay(retries, SERVER_ERROR_BACKOFF, this.#deps.random),
            exchange.signal,
          );
          retries += 1;
          continue;
        }
        throw this.#networkError(exchange, failure, true);
      }

      const { response, text } = attempt;
      if (response.ok) return text.trim() === "" ? {} : parseJson(text, response.status);
      const status = parseStatus(text);
      // Google never echoes credentials, but a misconfigured base URL might: keep the token out of errors.
      if (status.message?.includes(token)) status.message = status.message.split(token).join("[redacted]");
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
        const exhaustion = classifyExhaustion(status.message);
        if (exhaustion === "hourly" || exhaustion === "daily")
          throw quotaError(status, exhaustion, this.#deps.now());
        const delay = backoffDelay(retries, CONCURRENCY_BACKOFF, this.#deps.random, retryAfterMs);
        if (retries < maxRetries && delay <= this.#deps.maxRetryWaitMs) {
          await this.#deps.sleep(delay, exchange.signal);
          retries += 1;
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
          await this.#deps.sleep(delay, exchange.signal);
          retries += 1;
          continue;
        }
      }
      throw mapGoogleError(response.status, status, { ...context, now: this.#deps.now() });
    }
  }

  async #attempt(exchange: Exchange, token: string): Promise<Attempt> {
    try {
      const response = await this.#http(exchange.url, {
        method: exchange.method,
        ...(exchange.body !== undefined ? { json: exchange.body } : {}),
        headers: { accept: "application/json" },
        signal: exchange.signal,
        context: { token },
      });
      return { response, text: await response.text() };
    } catch (failure) {
      if (isMartechError(failure)) throw failure;
      return { failure };
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

  #networkError(exchange: Exchange, failure: unknown, retried: boolean): NetworkError {
    const what =
      failure instanceof TimeoutError ? `timed out after ${this.#deps.timeoutMs} ms` : "could not be reached";
    return new NetworkError(
      `The Google Analytics ${exchange.api === "data" ? "Data" : "Admin"} API ${what}.`,
      {
        hint: `${retried ? "Retries did not help; " : "Nothing was sent; "}check the network connection and try again.`,
        retryable: true,
        cause: safeCause(failure),
      },
    );
  }
}

function parseJson(text: string, status: number): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new UpstreamError("Google Analytics answered with a body that is not JSON.", {
      hint: "Check GA4_DATA_API_URL / GA4_ADMIN_API_URL point at Google's APIs.",
      status,
    });
  }
}
