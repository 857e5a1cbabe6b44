import type { SharedState } from "../../state/types.js";
import type { CheckedPath } from "../endpoint-guard.js";

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

/** A file to upload, as text (CSV, TSV or SSV). */
export interface MarketoUpload {
  /** File name sent in the part's Content-Disposition, e.g. "leads.csv". */
  name: string;
  content: string;
  /** The part's media type, e.g. "text/csv". */
  contentType: string;
}

export interface MarketoRequest {
  method: "GET" | "POST" | "DELETE";
  /**
   * Caller-supplied path under /rest/ or /bulk/: checked by the endpoint guard once, when the call
   * starts, unless it is a CheckedPath already (a tool step checked it before resolving the connection).
   */
  path: string | CheckedPath;
  query?: Record<string, QueryValue | undefined>;
  /** JSON for Lead DB; for /rest/asset/ POSTs a flat object sent form-urlencoded (objects JSON-encoded per field). */
  body?: unknown;
  /**
   * A file for a bulk import (POST …/leads.json, …/import.json): sent as the `file` part of a
   * multipart/form-data body, the request's only body (parameters go in `query`).
   */
  file?: MarketoUpload;
  signal?: AbortSignal;
  /** Called before each wait while the call is queued or backing off (for progress notifications). */
  onWait?: OnWait;
}

/** A request whose path the guard accepted: what the connector's internals take (they never check again). */
export type CheckedRequest = Omit<MarketoRequest, "path"> & { path: CheckedPath };

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

/**
 * Where a read starts (or resumes), exactly: Marketo's own position of a page, and how many records at
 * the start of that page were already read. Lead DB and activity pages cannot start part-way, so a read
 * that stopped inside one resumes by reading it again and skipping what was read
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/paging-tokens).
 */
export interface ResumePosition {
  /** Token pages: the nextPageToken the page is read with; absent for the read's first page. */
  nextPageToken?: string;
  /** Asset browse calls: the offset of the next record (exact, so no skip). */
  offset?: number;
  /** Records at the start of the page at nextPageToken that were already read. */
  skip?: number;
}

export interface PaginateOptions {
  /** Default 50 for call(); none for pages(). */
  maxPages?: number;
  /** Default 10,000 for call(); none for pages(). The page that passes it is cut, resuming inside it. */
  maxItems?: number;
  /**
   * Serialized JSON of the collected items. Default 200,000 for call(); none for pages(). Reading stops
   * after the page that reaches it.
   */
  maxBytes?: number;
  onPage?: (info: {
    page: number;
    items: number;
    nextPageToken?: string;
    offset?: number;
    /** The records this page added (collected reads only). */
    records?: readonly unknown[];
  }) => void;
}

/** A page as pages() yields it: where the read continues after it (absent on the last page). */
export interface StreamedPage extends MarketoPage {
  next?: ResumePosition;
  /** API calls the read has sent so far, this page's included (paging-token seeding and retries too). */
  callsUsed: number;
}

/** What pages() returns when it ends: at the end of the data, or at a cap with where to continue. */
export interface PagesEnd {
  complete: boolean;
  stoppedBy?: "maxPages" | "maxItems" | "maxBytes";
  /** Pass it back (as `resume` of the same request) to continue exactly after the last record yielded. */
  next?: ResumePosition;
}

export interface MarketoCallResult {
  result: unknown[];
  warnings: string[];
  recordErrors: MarketoRecordError[];
  requestIds: string[];
  pages: number;
  /** API calls sent for this call (retries and paging-token seeding included, identity calls excluded). */
  callsUsed: number;
  /**
   * Set when more remain and the read stopped at a page boundary: pass it back as query.nextPageToken.
   * (`next` is always exact, also when the read stopped inside a page.)
   */
  nextPageToken?: string;
  /** Asset offset paging: pass it back as query.offset to resume. */
  nextOffset?: number;
  /** Where to continue after the last record of `result` (pass it back as `resume`); absent when complete. */
  next?: ResumePosition;
  /** Where each page's first record in `result` can be read again (see positionOf). */
  positions: { index: number; at: ResumePosition }[];
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

/** What a connector saw of its calls since it was made, for the integrations card (`call-log.ts`). */
export interface CallRecord {
  /** Calls Marketo answered (retries included as the one call they are). */
  answered: number;
  /** When the first of them was answered (epoch ms). */
  since?: number;
  /** The latest call: answered, or failed with what the error said. */
  last?: { ok: boolean; at: number; message?: string };
}
