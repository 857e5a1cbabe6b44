import type { TokenManager } from "../../auth/token-manager.js";
import { seconds } from "../../deadline.js";
import {
  AuthenticationError,
  CancelledError,
  NetworkError,
  NotFoundError,
  UnknownOutcomeError,
  UpstreamError,
  ValidationError,
} from "../../errors.js";
import type { Redactor } from "../../redact.js";
import { telemetry } from "../../telemetry.js";
import type { Budget } from "../budget.js";
import { AttemptFailure, getRequestHeaders, mayReplay, type RequestAuth } from "../http/index.js";
import { retryCeiling, retryDelay } from "./backoff.js";
import type { CallLog } from "./call-log.js";
import type { FileChunk } from "./file-answer.js";
import { exchange, type HttpResponse } from "./http.js";
import { interpret, type Outcome } from "./interpret.js";
import type { MarketoLimiter } from "./limits.js";
import { cancelled } from "./local-gate.js";
import type { MarketoLogger, MarketoPage, OnWait } from "./types.js";
import type { HttpPlan } from "./url.js";

export interface ExecutorDeps {
  limiter: MarketoLimiter;
  tokens: TokenManager;
  fetch: typeof fetch;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  logger: MarketoLogger;
  /** Knows the client id and secret and every access token issued: Marketo's answers pass through it. */
  redactor: Redactor;
  /** Per HTTP attempt (shortened when the call's deadline comes first). */
  timeoutMs: number;
  maxRetries: number;
  windowMs: number;
  /** Where each call's outcome is noted (answered or failed), for the integrations card. */
  calls?: CallLog;
}

/** Per logical call: its deadline and how many API calls it sent (identity calls excluded). */
export interface CallContext {
  budget: Budget;
  onWait: OnWait | undefined;
  calls: number;
}

/** Marketo's own answer refusing what the request asked, as distinct from a call that failed. */
const refusedAsAsked = (error: unknown) =>
  error instanceof ValidationError ||
  error instanceof NotFoundError ||
  (error instanceof UpstreamError && error.serviceCode !== undefined && !error.retryable);

const what = (plan: HttpPlan) => `${plan.logicalMethod} ${plan.path}`;

export class MarketoExecutor {
  readonly #d: ExecutorDeps;

  constructor(deps: ExecutorDeps) {
    this.#d = deps;
  }

  /** Sends one API call with Marketo's retry rules and returns its page. */
  async execute(plan: HttpPlan, ctx: CallContext): Promise<MarketoPage> {
    const answer = await this.#run({ ...plan, file: false }, ctx);
    if (answer.type !== "page") throw new Error("a file answer to a call that expects a page");
    return answer.page;
  }

  /**
   * Downloads one piece of a bulk export file (the plan carries its Range header) under the same rules
   * as any call: it counts against the rate window, the concurrency slots and the daily quota, since
   * Adobe documents no exemption for file downloads
   * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/rest-api: every API call).
   */
  async executeFile(plan: HttpPlan, ctx: CallContext): Promise<FileChunk> {
    const answer = await this.#run({ ...plan, file: true }, ctx);
    if (answer.type !== "file") throw new Error("a page answer to a file download");
    return answer.chunk;
  }

  /** One call, its outcome noted: answered, or failed (a call the caller stopped is neither). */
  async #run(
    plan: HttpPlan,
    ctx: CallContext,
  ): Promise<{ type: "page"; page: MarketoPage } | { type: "file"; chunk: FileChunk }> {
    try {
      const answer = await this.#retried(plan, ctx);
      this.#d.calls?.answered();
      return answer;
    } catch (error) {
      // A request Marketo refused for what it asked (its own error code for a field it does not know, a
      // lead it does not have; not one it may get over) was answered: the connection works. A call the
      // caller stopped says nothing of it.
      if (refusedAsAsked(error)) this.#d.calls?.answered();
      else if (!(error instanceof CancelledError))
        this.#d.calls?.failed(error instanceof Error ? error.message : String(error));
      throw error;
    }
  }

  async #retried(
    plan: HttpPlan,
    ctx: CallContext,
  ): Promise<{ type: "page"; page: MarketoPage } | { type: "file"; chunk: FileChunk }> {
    let retries = 0;
    let reauthenticated = false;
    for (;;) {
      const outcome = await this.#attempt(plan, ctx);
      if (outcome.type === "page" || outcome.type === "file") return outcome;
      if (outcome.type === "quota") throw await this.#quotaSpent();
      if (outcome.type === "reauth") {
        // 601/602 were not executed, so one replay with a fresh token is safe for any method. A
        // second rejection means the fresh token is refused too: retrying more would only loop.
        if (reauthenticated) {
          throw new AuthenticationError(
            `Marketo rejected a freshly issued access token (${outcome.message}).`,
            {
              hint: "Check that the LaunchPoint custom service and its API-only user are active, then retry.",
              details: { path: plan.path },
            },
          );
        }
        reauthenticated = true;
        this.#d.tokens.invalidate(outcome.token);
        this.#d.logger.debug({ path: plan.path }, "marketo token rejected; replaying once with a new token");
        continue;
      }
      if (retries >= this.#d.maxRetries) throw outcome.giveUp(retryCeiling(retries));
      const delayMs = outcome.delay(retries);
      if (!ctx.budget.fits(delayMs)) {
        throw ctx.budget.error(
          what(plan),
          `${outcome.why}, and waiting ${seconds(delayMs)} to retry would pass it`,
          false,
        );
      }
      this.#d.logger.warn({ path: plan.path, delayMs, retry: retries + 1 }, "marketo call will be retried");
      ctx.onWait?.({ reason: "backoff", waitMs: delayMs });
      const waited = await this.#d.sleep(delayMs, ctx.budget.signal).then(
        () => !ctx.budget.signal.aborted,
        () => false,
      );
      if (!waited) {
        if (ctx.budget.expired)
          throw ctx.budget.error(what(plan), `${outcome.why}; waiting to retry ran into it`, false);
        throw cancelled("waiting to retry", ctx.budget.signal);
      }
      retries += 1;
      telemetry.retried("marketo");
    }
  }

  /**
   * The bearer header of the cached token, or of one fetched now (shared with every concurrent caller).
   * A failed token request on a 5xx or a network error is retried like a GET (it is idempotent): the
   * executor backs off and asks again, within the call's deadline. Waiting for it stops at the deadline;
   * the request goes on for others.
   */
  async #auth(plan: HttpPlan, ctx: CallContext): Promise<RequestAuth | Outcome> {
    try {
      return await getRequestHeaders(this.#d.tokens, ctx.budget.signal, () =>
        cancelled("waiting for an access token", ctx.budget.signal),
      );
    } catch (error) {
      if (!(error instanceof NetworkError || error instanceof UpstreamError) || !error.retryable) throw error;
      this.#d.logger.debug({ path: plan.path }, "marketo token request failed; it will be retried");
      return {
        type: "retry",
        why: "the Marketo identity service failed",
        delay: (retry) => retryDelay(retry, this.#d.random),
        giveUp: () => error,
      };
    }
  }

  /**
   * 607: the instance's daily quota is spent (maybe by other apps); never retried before midnight Chicago.
   * The day is recorded as spent in the shared state so every replica stops before sending. That state
   * failing (Redis down) must not hide Marketo's answer behind a network error: the quota error still
   * stands, saying the others were not told.
   */
  async #quotaSpent(): Promise<Error> {
    try {
      const counted = (await this.#d.limiter.usage()).callsToday;
      await this.#d.limiter.markDailyQuotaSpent();
      return this.#d.limiter.serviceQuotaError(counted);
    } catch (error) {
      return this.#d.limiter.serviceQuotaError(
        undefined,
        error instanceof Error ? error.message : String(error),
      );
    }
  }

  async #attempt(plan: HttpPlan, ctx: CallContext): Promise<Outcome> {
    // Token first, outside the slot: the identity call does not count against Marketo's limits.
    const first = await this.#auth(plan, ctx);
    if (!("headers" in first)) return first;
    const slot = await this.#d.limiter.acquire(ctx.budget, ctx.onWait);
    let auth: RequestAuth;
    let response: HttpResponse;
    const started = Date.now();
    const timeout = ctx.budget.attemptTimeout(this.#d.timeoutMs);
    try {
      // Cached, so no wait between taking the window slot and sending (unless it expired meanwhile).
      const current = await this.#auth(plan, ctx);
      if (!("headers" in current)) return current;
      auth = current;
      ctx.calls += 1;
      response = await exchange(this.#d.fetch, plan, auth.headers, timeout.ms, ctx.budget.signal);
    } catch (error) {
      if (error instanceof AttemptFailure) {
        if (error.kind !== "cancelled") telemetry.upstream("marketo", "network_error");
        return this.#failure(plan, error, ctx, timeout.byDeadline);
      }
      throw error;
    } finally {
      await slot.release();
    }
    telemetry.upstream("marketo", response.status);
    if (this.#d.logger.isLevelEnabled?.("debug") !== false) {
      this.#d.logger.debug(
        { method: plan.method, path: plan.path, status: response.status, ms: Date.now() - started },
        "marketo call",
      );
    }
    return interpret(plan, auth.token, response, this.#d);
  }

  #failure(plan: HttpPlan, failure: AttemptFailure, ctx: CallContext, byDeadline: boolean): Outcome {
    const what = `${plan.logicalMethod} ${plan.path}`;
    const details = { path: plan.path, ...(failure.errorCode ? { errorCode: failure.errorCode } : {}) };
    const write = plan.logicalMethod !== "GET";
    // A write whose delivery is not known "not sent" may have been applied: its outcome is unknown.
    const unknown = write && failure.delivery !== "not_sent";
    if ((failure.kind === "cancelled" && ctx.budget.expired) || (failure.kind === "timeout" && byDeadline)) {
      throw ctx.budget.error(
        what,
        unknown
          ? "the request was sent and no answer came before the deadline; the outcome is unknown"
          : "no answer came before the deadline",
        unknown,
      );
    }
    if (failure.kind === "cancelled") {
      if (!unknown) {
        throw new CancelledError(`The ${what} call was cancelled while the request was in flight.`, {
          hint: write
            ? "Nothing reached Marketo; run it again when needed."
            : "The read had been sent (it counts against the daily quota) but changes nothing; run it again when needed.",
        });
      }
      throw new UnknownOutcomeError(
        `The ${what} call was cancelled after it was sent; the outcome is unknown.`,
        {
          hint: "Check in Marketo whether the change was made before retrying.",
          details,
        },
      );
    }
    if (failure.kind === "tls") {
      throw new NetworkError(`The TLS connection to Marketo failed (${failure.errorCode}) for ${what}.`, {
        hint: "Check the REST endpoint host and this server's trusted certificates.",
        details,
        cause: failure,
      });
    }
    const reason =
      failure.kind === "timeout" ? `timed out after ${seconds(this.#d.timeoutMs)}` : "lost its connection";
    if (!mayReplay(failure, write)) {
      // A POST/DELETE that may have reached Marketo is never replayed: it could run twice.
      throw new UnknownOutcomeError(`The ${what} call ${reason} after it was sent; the outcome is unknown.`, {
        hint: "Check in Marketo whether the change was made before retrying.",
        details,
        cause: failure,
      });
    }
    const notSent = failure.delivery === "not_sent";
    return {
      type: "retry",
      why: notSent ? "Marketo could not be reached" : `the request ${reason}`,
      delay: (retry) => retryDelay(retry, this.#d.random),
      giveUp: () =>
        new NetworkError(
          `The ${what} call ${notSent ? "could not connect to Marketo" : reason}, after retries.`,
          {
            hint: "Check the network path to the Marketo instance, then retry.",
            details,
            retryable: true,
            cause: failure,
          },
        ),
    };
  }
}
