import { createMarketoTokenManager } from "../../auth/marketo-token.js";
import type { TokenManager } from "../../auth/token-manager.js";
import { DEFAULT_DEADLINE_MS, DEFAULT_REQUEST_TIMEOUT_MS } from "../../deadline.js";
import { ConfigurationError, UpstreamError, ValidationError } from "../../errors.js";
import { jsonBytes } from "../../json-size.js";
import { Redactor } from "../../redact.js";
import { MemoryState } from "../../state/memory.js";
import { Budget } from "../budget.js";
import { PAGING_TOKEN_PATH, type PreparedRequest, prepareRequest } from "./activities.js";
import { abortableSleep } from "./backoff.js";
import { type CallContext, MarketoExecutor } from "./executor.js";
import { MarketoLimiter } from "./limits.js";
import { capsOf, collectPages, isAssetPaging, nextAssetOffsetOf, walkPages } from "./pagination.js";
import type {
  MarketoCallResult,
  MarketoConnectorConfig,
  MarketoConnectorDeps,
  MarketoPage,
  MarketoRequest,
  MarketoUsage,
  PaginateOptions,
} from "./types.js";
import { parseRestEndpoint, planRequest } from "./url.js";

export type * from "./types.js";

const NO_LOG = { debug: () => undefined, warn: () => undefined, isLevelEnabled: () => false };
/**
 * An in-flight slot's lease, renewed while its call runs: a replica that dies frees its slots this
 * soon, while a live one keeps them however long its calls take.
 */
const LEASE_MS = 3_000;

function positiveInt(name: string, value: number | undefined, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min) {
    throw new ConfigurationError(`Marketo connector setting ${name} must be an integer of at least ${min}.`, {
      details: { field: name },
    });
  }
  return value;
}

/**
 * One Marketo instance: OAuth client credentials, the response envelope, limits shared per
 * instance, retries that never replay a change of unknown outcome, and pagination.
 */
export class MarketoConnector {
  readonly instance: string;
  readonly #origin: URL;
  readonly #tokens: TokenManager;
  readonly #limiter: MarketoLimiter;
  readonly #executor: MarketoExecutor;
  readonly #now: () => number;
  readonly #deadlineMs: number;

  constructor(config: MarketoConnectorConfig, deps: MarketoConnectorDeps = {}) {
    if (!config.clientId?.trim() || !config.clientSecret?.trim()) {
      throw new ConfigurationError("The Marketo connection needs a Client ID and a Client Secret.", {
        hint: "Copy both from Marketo Admin > Integration > LaunchPoint > (your custom service) > View Details.",
      });
    }
    this.#origin = parseRestEndpoint(config.restEndpoint ?? "");
    this.instance = this.#origin.host.toLowerCase();
    this.#now = deps.now ?? Date.now;
    const fetchImpl = deps.fetch ?? ((input, init) => globalThis.fetch(input, init));
    const sleep = deps.sleep ?? abortableSleep;
    const random = deps.random ?? Math.random;
    const timeoutMs = positiveInt("timeoutMs", config.timeoutMs, DEFAULT_REQUEST_TIMEOUT_MS);
    this.#deadlineMs = positiveInt("deadlineMs", config.deadlineMs, DEFAULT_DEADLINE_MS);
    const windowMs = positiveInt("windowMs", config.windowMs, 20_000);
    // One redactor for everything this instance sends: client id and secret, and each token issued.
    const redactor = new Redactor().add(config.clientId, config.clientSecret);
    const state = deps.state ?? new MemoryState(this.#now);
    this.#tokens = createMarketoTokenManager({
      origin: this.#origin,
      clientId: config.clientId,
      clientSecret: config.clientSecret,
      fetch: fetchImpl,
      now: this.#now,
      timeoutMs,
      redactor,
      shared: state,
    });
    this.#limiter = new MarketoLimiter({
      state,
      instance: this.instance,
      dailyQuota: positiveInt("dailyQuota", config.dailyQuota, 50_000),
      callsPerWindow: positiveInt("callsPerWindow", config.callsPerWindow, 100),
      windowMs,
      maxConcurrent: positiveInt("maxConcurrent", config.maxConcurrent, 10),
      leaseMs: positiveInt("leaseMs", config.leaseMs, LEASE_MS, 3),
      sleep,
      now: this.#now,
      random,
    });
    this.#executor = new MarketoExecutor({
      limiter: this.#limiter,
      tokens: this.#tokens,
      fetch: fetchImpl,
      sleep,
      random,
      logger: deps.logger ?? NO_LOG,
      redactor,
      timeoutMs,
      maxRetries: positiveInt("maxRetries", config.maxRetries, 4, 0),
      windowMs,
    });
  }

  /** One API call (with internal retries). Seed-only activity paths are translated first. */
  async request(req: MarketoRequest): Promise<MarketoPage> {
    const ctx = this.#context(req);
    try {
      const prepared = await this.#prepare(req, ctx);
      const page = await this.#fetchPage(ctx)(prepared.req);
      return { ...page, warnings: [...prepared.warnings, ...page.warnings] };
    } finally {
      ctx.budget.dispose();
    }
  }

  /** Pages as they arrive (flat memory). Stops at the end or when a cap is reached after a page. */
  async *pages(req: MarketoRequest, options?: PaginateOptions): AsyncIterableIterator<MarketoPage> {
    // The reader decides how long it iterates: each page gets a budget of its own (the connector's
    // deadline); a deadline carried by req.signal still bounds the whole read.
    const ctx = this.#context(req);
    let prepared: PreparedRequest;
    try {
      prepared = await this.#prepare(req, ctx);
    } finally {
      ctx.budget.dispose();
    }
    const caps = capsOf(options);
    let pageNo = 0;
    let items = 0;
    let bytes = 0;
    let pending = prepared.warnings;
    for await (const step of walkPages(this.#fetchPage(ctx, true), prepared.req)) {
      pageNo += 1;
      items += step.page.result.length;
      if (Number.isFinite(caps.maxBytes)) bytes += jsonBytes(step.page.result);
      options?.onPage?.({
        page: pageNo,
        items,
        ...(step.next?.token !== undefined ? { nextPageToken: step.next.token } : {}),
        ...(step.next?.offset !== undefined ? { offset: step.next.offset } : {}),
      });
      yield pending.length > 0 ? { ...step.page, warnings: [...pending, ...step.page.warnings] } : step.page;
      pending = [];
      if (!step.next || pageNo >= caps.maxPages || items >= caps.maxItems || bytes >= caps.maxBytes) return;
    }
  }

  /** One call, or with `paginate` all pages up to the caps, collected with a resume position. */
  async call(req: MarketoRequest & { paginate?: boolean | PaginateOptions }): Promise<MarketoCallResult> {
    const { paginate, ...plain } = req;
    const ctx = this.#context(plain);
    try {
      return await this.#call(plain, paginate, ctx);
    } finally {
      ctx.budget.dispose();
    }
  }

  async #call(
    plain: MarketoRequest,
    paginate: boolean | PaginateOptions | undefined,
    ctx: CallContext,
  ): Promise<MarketoCallResult> {
    const prepared = await this.#prepare(plain, ctx);
    const translated = prepared.translatedFrom ? { translatedFrom: prepared.translatedFrom } : {};
    if (paginate) {
      const options = typeof paginate === "object" ? paginate : undefined;
      const collected = await collectPages(
        walkPages(this.#fetchPage(ctx), prepared.req),
        capsOf(options),
        options?.onPage,
      );
      return {
        ...collected,
        warnings: [...prepared.warnings, ...collected.warnings],
        callsUsed: ctx.calls,
        ...translated,
      };
    }
    const page = await this.#fetchPage(ctx)(prepared.req);
    // Asset browse calls page by offset and carry no token (REAL-API A6).
    const nextOffset = isAssetPaging(prepared.req) ? nextAssetOffsetOf(prepared.req, page) : undefined;
    const more = nextOffset !== undefined || (page.nextPageToken !== undefined && page.moreResult !== false);
    return {
      result: page.result,
      warnings: [...prepared.warnings, ...page.warnings],
      recordErrors: page.recordErrors,
      requestIds: page.requestId ? [page.requestId] : [],
      pages: 1,
      callsUsed: ctx.calls,
      ...(more && page.nextPageToken !== undefined ? { nextPageToken: page.nextPageToken } : {}),
      ...(nextOffset !== undefined ? { nextOffset } : {}),
      complete: !more,
      ...translated,
      extra: page.extra,
    };
  }

  usage(): Promise<MarketoUsage> {
    return this.#limiter.usage();
  }

  /** Identity requests sent so far (for tests and benchmarks). */
  tokenRequests(): number {
    return this.#tokens.requestCount;
  }

  #context(req: MarketoRequest): CallContext {
    return { budget: this.#budget(req.signal), onWait: req.onWait, calls: 0 };
  }

  #budget(signal: AbortSignal | undefined): Budget {
    return new Budget({ deadlineMs: this.#deadlineMs, signal, now: this.#now, service: "Marketo" });
  }

  /** Fetches one page within the call's budget, or (`ownBudget`, for pages()) within a budget of its own. */
  #fetchPage(ctx: CallContext, ownBudget = false): (req: MarketoRequest) => Promise<MarketoPage> {
    return async (req) => {
      const plan = planRequest(this.#origin, req);
      if (!ownBudget) return this.#executor.execute(plan, ctx);
      const budget = this.#budget(req.signal);
      try {
        return await this.#executor.execute(plan, { ...ctx, budget });
      } finally {
        budget.dispose();
      }
    };
  }

  /** Translation and, for activity reads from a date, the paging token that positions them. */
  async #prepare(req: MarketoRequest, ctx: CallContext): Promise<PreparedRequest> {
    if (req === null || typeof req !== "object")
      throw new ValidationError("request", "it must be an object.");
    const prepared = prepareRequest(req, this.#now());
    if (prepared.seedSince === undefined) return prepared;
    const seed = await this.#fetchPage(ctx)({
      method: "GET",
      path: PAGING_TOKEN_PATH,
      query: { sinceDatetime: prepared.seedSince },
      ...(req.signal ? { signal: req.signal } : {}),
    });
    if (!seed.nextPageToken) {
      throw new UpstreamError(`Marketo returned no paging token for sinceDatetime ${prepared.seedSince}.`, {
        hint: "Give sinceDatetime as ISO 8601 with a time zone, e.g. 2024-01-31T00:00:00Z.",
        details: { path: PAGING_TOKEN_PATH },
      });
    }
    return {
      ...prepared,
      req: { ...prepared.req, query: { ...prepared.req.query, nextPageToken: seed.nextPageToken } },
    };
  }
}
