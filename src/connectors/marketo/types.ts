import type { SharedState } from "../../state/types.js";

/** How to reach one Marketo instance and how much of its limits this integration may use. */
export interface MarketoConnectorConfig {
  clientId: string;
  clientSecret: string;
  /** "https://123-ABC-456.mktorest.com/rest" or without "/rest"; http is allowed only for loopback hosts. */
  restEndpoint: string;
  /** Calls per instance per day. Default 50,000; the day ends at midnight America/Chicago (Marketo's reset). */
  dailyQuota?: number;
  /** Our share of the instance's rolling-window limit (other apps share it). Default 100. */
  callsPerWindow?: number;
  /** Length of the rolling window. Default 20,000 ms. */
  windowMs?: number;
  /** Calls in flight at once, per instance. Default 10. */
  maxConcurrent?: number;
  /** Per HTTP attempt, identity requests included (MARTECH_STEPS_REQUEST_TIMEOUT_MS). Default 30,000 ms. */
  timeoutMs?: number;
  /**
   * Overall limit of one call (retries, backoff and limiter waits included; MARTECH_STEPS_DEADLINE_MS).
   * Default 120,000 ms. A deadline carried by the request's signal (runToolStep's) wins when earlier.
   */
  deadlineMs?: number;
  /** Retries of transient failures per call (601/602 re-authentication is separate). Default 4. */
  maxRetries?: number;
  /**
   * How long an in-flight slot stays held without renewal (it is renewed while its call runs), so the
   * slots of a process that died free this soon. Default 3,000 ms.
   */
  leaseMs?: number;
}

export interface MarketoLogger {
  debug(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  /** pino's: lets a line that is off cost nothing, not even its fields. */
  isLevelEnabled?(level: string): boolean;
}

export interface MarketoConnectorDeps {
  /** Default: a new MemoryState on the connector's clock. Limits are keyed by the instance host. */
  state?: SharedState;
  fetch?: typeof fetch;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Jitter source in [0, 1). */
  random?: () => number;
  now?: () => number;
  /** Never receives a token, a secret or an Authorization header. */
  logger?: MarketoLogger;
}

export type QueryValue = string | number | boolean | ReadonlyArray<string | number | boolean>;

export type WaitReason = "rate_window" | "concurrency" | "backoff";
export type OnWait = (info: { reason: WaitReason; waitMs: number }) => void;

export interface MarketoRequest {
  method: "GET" | "POST" | "DELETE";
  /** Caller-supplied path under /rest/ or /bulk/; checked by the endpoint guard before any request. */
  path: string;
  query?: Record<string, QueryValue | undefined>;
  /** JSON for Lead DB; for /rest/asset/ POSTs a flat object sent form-urlencoded (objects JSON-encoded per field). */
  body?: unknown;
  signal?: AbortSignal;
  /** Called before each wait while the call is queued or backing off (for progress notifications). */
  onWait?: OnWait;
}

export interface MarketoRecordError {
  /** Position of the record in the request's input (and in the response's result). */
  index: number;
  id?: number;
  status: string;
  reasons: { code: string; message: string }[];
}

export interface MarketoPage {
  /** [] when the response had no result key. */
  result: unknown[];
  requestId: string | undefined;
  warnings: string[];
  /** Records with status "skipped" (or with reasons), returned rather than swallowed or thrown. */
  recordErrors: MarketoRecordError[];
  nextPageToken?: string;
  moreResult?: boolean;
  /** Other top-level fields of the response. */
  extra: Record<string, unknown>;
}

export interface PaginateOptions {
  /** Default 50. */
  maxPages?: number;
  /** Default 10,000. */
  maxItems?: number;
  /** Serialized JSON of the collected items. Default 200,000. Stops before exceeding and keeps the resume token. */
  maxBytes?: number;
  onPage?: (info: { page: number; items: number; nextPageToken?: string; offset?: number }) => void;
}

export interface MarketoCallResult {
  result: unknown[];
  warnings: string[];
  recordErrors: MarketoRecordError[];
  requestIds: string[];
  pages: number;
  /** API calls sent for this call (retries and paging-token seeding included, identity calls excluded). */
  callsUsed: number;
  /** Set when more remain: pass it back as query.nextPageToken to resume. */
  nextPageToken?: string;
  /** Asset offset paging: pass it back as query.offset to resume. */
  nextOffset?: number;
  /** False when more remain (a cap stopped pagination, or a single page was requested). */
  complete: boolean;
  stoppedBy?: "maxPages" | "maxItems" | "maxBytes";
  /** The seed-only path that was translated to a real one. */
  translatedFrom?: string;
  extra: Record<string, unknown>;
}

export interface MarketoUsage {
  callsToday: number;
  dailyQuota: number;
  remaining: number;
  /** Calls this server sent in the current rolling window (all processes sharing the state). */
  windowCalls: number;
  /** Our share of the window's limit, and the window's length. */
  callsPerWindow: number;
  windowMs: number;
}
