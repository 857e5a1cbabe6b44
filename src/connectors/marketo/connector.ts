import { createMarketoTokenManager } from "../../auth/marketo-token.js";
import type { TokenManager } from "../../auth/token-manager.js";
import { DEFAULT_DEADLINE_MS, DEFAULT_REQUEST_TIMEOUT_MS } from "../../deadline.js";
import { ConfigurationError, UpstreamError, ValidationError } from "../../errors.js";
import { jsonBytes } from "../../json-size.js";
import { Redactor } from "../../redact.js";
import { MemoryState } from "../../state/memory.js";
import { Budget } from "../budget.js";
import { PAGING_TOKEN, PAGING_TOKEN_PATH, type PreparedRequest, prepareRequest } from "./activities.js";
import { abortableSleep } from "./backoff.js";
import { type FileRead, type FileReadOptions, fileAsPage, readFileRecords } from "./bulk-file.js";
import { CallLog } from "./call-log.js";
import { type CallContext, MarketoExecutor } from "./executor.js";
import { BULK_FILE } from "./file-answer.js";
import { MarketoLimiter } from "./limits.js";
import { CALL_CAPS, capStep, capsOf, collectPages, NO_CAPS, walkPages } from "./pagination.js";
import type {
  CallRecord,
  CheckedRequest,
  MarketoCallResult,
  MarketoConnectorConfig,
  MarketoConnectorDeps,
  MarketoPage,
  MarketoRequest,
  MarketoUsage,
  PagesEnd,
  PaginateOptions,
  ResumePosition,
  StreamedPage,
} from "./types.js";
import { checkMarketoPath, parseRestEndpoint, planRequest } from "./url.js";

export type * from "./types.js";

/** Range size of request()'s read of an export file: its byte cap of records in one or two calls. */
const FILE_CHUNK_BYTES = 256 * 1024;

/** The request positioned at `resume`: Marketo's own position in the query (the skip is applied to the page). */
function positioned<R extends MarketoRequest>(req: R, resume: ResumePosition | undefined): R {
  if (!resume) return req;
  const query = { ...req.query };
  if (resume.offset !== undefined) query.offset = resume.offset;
  if (resume.nextPageToken !== undefined) query.nextPageToken = resume.nextPageToken;
  else if (resume.offset === undefined) delete query.nextPageToken;
  return { ...req, query };
}

function cut(page: MarketoPage, keep: number): MarketoPage {
  return {
    ...page,
    result: page.result.slice(0, keep),
    recordErrors: page.recordErrors.filter((e) => e.index < keep),
  };
}

/**
 * The request with its path checked: the one guard check of a call (none when a tool step handed a
 * CheckedPath already). Every later step (translation, planning each page) takes the checked path.
 */
function checkedRequest(req: MarketoRequest): CheckedRequest {
  if (req === null || typeof req !== "object") throw new ValidationError("request", "it must be an object.");
  return { ...req, path: checkMarketoPath(req.path) };
}

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
  readonly #redactor: Redactor;
  readonly #calls: CallLog;

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
    this.#redactor = redactor;
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
    this.#calls = new CallLog(this.#now);
    this.#executor = new MarketoExecutor({
      calls: this.#calls,
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

  /**
   * One API call (with internal retries). Seed-only activity paths are translated first. A GET of a bulk
   * export file is read as records instead (see fileAsPage).
   */
  async request(req: MarketoRequest): Promise<MarketoPage> {
    const checked = checkedRequest(req);
    if (checked.method === "GET" && BULK_FILE.test(checked.path.value)) return this.#fileAsPage(checked);
    const ctx = this.#context(checked);
    try {
      const prepared = await this.#prepare(checked, ctx);
      const page = await this.#fetchPage(ctx)(prepared.req);
      return { ...page, warnings: [...prepared.warnings, ...page.warnings] };
    } finally {
      ctx.budget.dispose();
    }
  }

  /**
   * Pages as they arrive (flat memory), from `resume` when given. With no caps it reads to the end (the
   * reader stops when it has enough: each page says where the read continues after it, in `next`).
   * With caps it stops at the first one reached and returns, as the generator's value, where it stopped
   * and the exact position to continue from; the last page yielded carries the same `next`.
   */
  async *pages(
    req: MarketoRequest & { resume?: ResumePosition },
    options?: PaginateOptions,
  ): AsyncGenerator<StreamedPage, PagesEnd, undefined> {
    const { resume, ...plain } = req;
    // The reader decides how long it iterates: each page gets a budget of its own (the connector's
    // deadline); a deadline carried by req.signal still bounds the whole read.
    const ctx = this.#context(plain);
    let prepared: PreparedRequest;
    try {
      prepared = await this.#prepare(positioned(plain, resume), ctx);
    } finally {
      ctx.budget.dispose();
    }
    const caps = capsOf(options, NO_CAPS);
    const seen = { pages: 0, items: 0, bytes: 0 };
    let pending = prepared.warnings;
    const steps = walkPages(this.#fetchPage(ctx, true), prepared.req, {
      skip: resume?.skip ?? 0,
      paging: true,
    });
    for await (const step of steps) {
      const { keep, stop } = capStep(step, caps, seen);
      seen.pages += 1;
      seen.items += keep;
      if (Number.isFinite(caps.maxBytes)) seen.bytes += jsonBytes(step.page.result.slice(0, keep));
      const next = stop ? stop.next : step.next;
      options?.onPage?.({
        page: seen.pages,
        items: seen.items,
        ...(next?.nextPageToken !== undefined ? { nextPageToken: next.nextPageToken } : {}),
        ...(next?.offset !== undefined ? { offset: next.offset } : {}),
      });
      const page = keep < step.page.result.length ? cut(step.page, keep) : step.page;
      yield {
        ...page,
        ...(pending.length > 0 ? { warnings: [...pending, ...page.warnings] } : {}),
        ...(next ? { next } : {}),
        callsUsed: ctx.calls,
      };
      pending = [];
      if (stop) return { complete: false, ...stop };
      if (!step.next) return { complete: true };
    }
    return { complete: true };
  }

  /**
   * One call, or with `paginate` all pages up to the caps, collected with the exact position of every
   * record (`positions`) and where to continue (`next`). `resume` starts at a position an earlier
   * result gave, also inside a page.
   */
  async call(
    req: MarketoRequest & { paginate?: boolean | PaginateOptions; resume?: ResumePosition },
  ): Promise<MarketoCallResult> {
    const { paginate, resume, ...plain } = req;
    const ctx = this.#context(plain);
    try {
      return await this.#call(positioned(plain, resume), resume?.skip ?? 0, paginate, ctx);
    } finally {
      ctx.budget.dispose();
    }
  }

  async #call(
    plain: MarketoRequest,
    skip: number,
    paginate: boolean | PaginateOptions | undefined,
    ctx: CallContext,
  ): Promise<MarketoCallResult> {
    const prepared = await this.#prepare(plain, ctx);
    const translated = prepared.translatedFrom ? { translatedFrom: prepared.translatedFrom } : {};
    const options = typeof paginate === "object" ? paginate : undefined;
    // A single call is one page as Marketo sends it, with the position after it when more remain.
    const caps = paginate ? capsOf(options, CALL_CAPS) : { ...NO_CAPS, maxPages: 1 };
    const steps = walkPages(this.#fetchPage(ctx), prepared.req, { skip, paging: Boolean(paginate) });
    const { stoppedBy, ...collected } = await collectPages(steps, caps, options?.onPage);
    return {
      ...collected,
      ...(paginate && stoppedBy ? { stoppedBy } : {}),
      warnings: [...prepared.warnings, ...collected.warnings],
      callsUsed: ctx.calls,
      ...translated,
    };
  }

  /**
   * Reads a bulk export file (GET /bulk/v1/…/export/{exportId}/file.json) as records keyed by its header,
   * in Range requests of `chunkBytes`, from `from` (a position an earlier read gave) or the start, until
   * `maxBytes` of records, `maxRecords` or the end. Every Range request is one API call.
   */
  async readExportFile(
    req: Pick<MarketoRequest, "path" | "signal" | "onWait">,
    options: Omit<FileReadOptions, "clean">,
  ): Promise<FileRead & { callsUsed: number }> {
    const ctx = this.#context({ method: "GET", ...req });
    try {
      const plan = planRequest(this.#origin, { method: "GET", path: checkMarketoPath(req.path) });
      const fetch = (start: number, end: number) =>
        this.#executor.executeFile(
          // The file is CSV/TSV, not JSON (Adobe's Swagger says application/json for every operation).
          { ...plan, headers: { ...plan.headers, Accept: "*/*", Range: `bytes=${start}-${end}` } },
          ctx,
        );
      // Values are redacted whole, after parsing: a credential cut in two by a range's edge is still found.
      const clean = <T>(value: T): T => this.#redactor.value(value);
      const read = await readFileRecords(fetch, plan.path, { ...options, clean });
      return { ...read, callsUsed: ctx.calls };
    } finally {
      ctx.budget.dispose();
    }
  }

  /** An export file answers CSV, not an envelope: read from the start, up to call()'s default byte cap. */
  async #fileAsPage(req: CheckedRequest): Promise<MarketoPage> {
    const options = { maxBytes: CALL_CAPS.maxBytes, chunkBytes: FILE_CHUNK_BYTES };
    return fileAsPage(await this.readExportFile(req, options), options.maxBytes);
  }

  usage(): Promise<MarketoUsage> {
    return this.#limiter.usage();
  }

  /** The calls this connector saw answered since it was made, and how the last one went. */
  calls(): CallRecord {
    return this.#calls.read();
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
  #fetchPage(ctx: CallContext, ownBudget = false): (req: CheckedRequest) => Promise<MarketoPage> {
    return async (req) => {
      const plan = planRequest(this.#origin, req);
      if (!ownBudget) return this.#executor.execute(plan, ctx);
      const budget = this.#budget(req.signal);
      const own = { ...ctx, budget };
      try {
        return await this.#executor.execute(plan, own);
      } finally {
        // The page's calls count for the read (pages() reports them in callsUsed).
        ctx.calls = own.calls;
        budget.dispose();
      }
    };
  }

  /** Translation and, for activity reads from a date, the paging token that positions them. */
  async #prepare(req: MarketoRequest, ctx: CallContext): Promise<PreparedRequest> {
    const prepared = prepareRequest(checkedRequest(req), this.#now());
    if (prepared.seedSince === undefined) return prepared;
    const seed = await this.#fetchPage(ctx)({
      method: "GET",
      path: PAGING_TOKEN,
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
