import type { GoogleEndpoints } from "../../auth/google/config.js";
import type { GoogleTokenSource } from "../../auth/google/token-source.js";
import { DEFAULT_DEADLINE_MS, DEFAULT_REQUEST_TIMEOUT_MS } from "../../deadline.js";
import { UpstreamError, ValidationError } from "../../errors.js";
import { MemoryState } from "../../state/memory.js";
import type { SharedState } from "../../state/types.js";
import { type CheckedPath, joinEndpoint } from "../endpoint-guard.js";
import { checkReservedQuery } from "../reserved-query.js";
import { checkWellFormed } from "../well-formed.js";
import { AnswerCache, fetchAgain } from "./answer-cache.js";
import { fieldSetKey } from "./field-set.js";
import {
  apiForPath,
  BATCH_REPORT_METHOD,
  checkGooglePath,
  checkPropertyId,
  GOOGLE_PATH_RULES,
  propertyOf,
  REPORT_METHOD,
  RESERVED_QUERY,
} from "./paths.js";
import { quotaFromResponse, snapshot } from "./quota.js";
import { defaultSleep } from "./retry.js";
import { COMPATIBILITY, documented, METADATA, OBJECT, REPORT } from "./shapes.js";
import { GA4_MAX_IN_FLIGHT, PropertySlots } from "./slots.js";
import { GoogleTransport } from "./transport.js";
import type {
  CheckCompatibilityResponse,
  GoogleApi,
  GoogleRequest,
  ListOptions,
  Metadata,
  PropertyFacts,
  PropertyQuotaSnapshot,
  RunRealtimeReportResponse,
  RunReportResponse,
} from "./types.js";
import { AccountCalls, type GoogleCallsToday } from "./usage.js";

export interface GoogleAnalyticsConnectorDeps {
  tokens: GoogleTokenSource;
  endpoints: GoogleEndpoints;
  /** Where per-property in-flight slots live (Redis for several replicas). Default: one per process. */
  state?: SharedState;
  fetch?: typeof fetch;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  now?: () => number;
  /** Retries after 429 (concurrency) and 5xx on replay-safe calls. Default 3. */
  maxRetries?: number;
  /** Per HTTP attempt, until the body is read (MARTECH_STEPS_REQUEST_TIMEOUT_MS). Default 30 s. */
  timeoutMs?: number;
  /**
   * Overall limit of one request, retries and waits included (MARTECH_STEPS_DEADLINE_MS). Default 120 s;
   * a deadline carried by the request's signal (runToolStep's) wins when earlier.
   */
  deadlineMs?: number;
  /** Concurrent requests per property. Default 10, GA4's limit for Standard properties. */
  maxInFlightPerProperty?: number;
  /** A Retry-After longer than this is reported instead of waited on. Default 30 s. */
  maxRetryWaitMs?: number;
  /** Names the workspace and account whose calls are counted per day in `state` (default: the label). */
  usageScope?: string;
}

const METHODS: ReadonlySet<string> = new Set(["GET", "POST", "PATCH", "DELETE"]);
/** Metadata, time zones and compatibility answers are kept this long (they change rarely). */
const ANSWER_TTL_MS = 10 * 60_000;
/**
 * A name a property's kept field list lacks reads the list again, at most this often per property: a custom
 * definition made elsewhere (GA's own screens, another server) is seen within 30 s, while a run of unknown
 * names (a model guessing) costs one getMetadata per 30 s, well inside the Data API's schema quota of 600
 * requests per minute per user (https://developers.google.com/analytics/devguides/reporting/data/v1/quotas).
 * Custom definitions and key events made through this connector drop the kept list at once (#forgetFields).
 */
const METADATA_REFRESH_MS = 30_000;
/**
 * Admin API paths whose writes change a property's dimensions and metrics: its custom definitions, and its
 * key events (each has its own metrics, keyEvents:<event> and the rates: GA's API schema, "Key event specific
 * metrics", https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema).
 */
const CUSTOM_DEFINITIONS =
  /^\/v1beta\/properties\/(\d+)\/(customDimensions|customMetrics|keyEvents|conversionEvents)(\/|$)/;
/** Compatibility answers kept per connector: one per property and field set. */
const MAX_COMPATIBILITY_ANSWERS = 500;
const SLOT_LEASE_MS = 3_000;
const DEFAULT_MAX_PAGES = 50;

type Query = GoogleRequest["query"];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Reports return the property's quota only when asked (REAL-API B5); the caller's explicit false wins. */
function withPropertyQuota(body: unknown): unknown {
  if (!isPlainObject(body)) return body;
  return body.returnPropertyQuota === undefined ? { ...body, returnPropertyQuota: true } : body;
}

function withBatchPropertyQuota(body: unknown): unknown {
  if (!isPlainObject(body) || !Array.isArray(body.requests)) return body;
  return { ...body, requests: body.requests.map(withPropertyQuota) };
}

function appendQuery(url: URL, query: Query): void {
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(key, String(item));
  }
}

/** GA4 Data API v1beta and Admin API v1beta for one connected account. */
export class GoogleAnalyticsConnector {
  readonly account: string;
  readonly #endpoints: GoogleEndpoints;
  readonly #transport: GoogleTransport;
  readonly #now: () => number;
  readonly #quotas = new Map<string, { core?: PropertyQuotaSnapshot; realtime?: PropertyQuotaSnapshot }>();
  readonly #metadata: AnswerCache<Metadata>;
  readonly #properties: AnswerCache<PropertyFacts>;
  readonly #compatibility: AnswerCache<CheckCompatibilityResponse>;
  readonly #calls: AccountCalls;

  constructor(deps: GoogleAnalyticsConnectorDeps) {
    this.account = deps.tokens.label;
    this.#endpoints = deps.endpoints;
    this.#now = deps.now ?? Date.now;
    this.#calls = new AccountCalls(
      deps.state ?? new MemoryState(),
      deps.usageScope ?? this.account,
      this.#now,
    );
    const kept = { ttlMs: ANSWER_TTL_MS, now: this.#now };
    this.#metadata = new AnswerCache({ ...kept, maxEntries: 100 });
    this.#properties = new AnswerCache({ ...kept, maxEntries: 100 });
    this.#compatibility = new AnswerCache({ ...kept, maxEntries: MAX_COMPATIBILITY_ANSWERS });
    const timeoutMs = deps.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const injected = deps.fetch;
    this.#transport = new GoogleTransport({
      tokens: deps.tokens,
      // Renewed while its request runs: a crashed process frees its slots within one lease.
      slots: new PropertySlots({
        state: deps.state,
        limit: deps.maxInFlightPerProperty ?? GA4_MAX_IN_FLIGHT,
        leaseMs: SLOT_LEASE_MS,
      }),
      // Resolved per call so test interceptors installed after construction still apply.
      fetch: injected ?? ((input, init) => fetch(input, init)),
      sleep: deps.sleep ?? defaultSleep,
      random: deps.random ?? Math.random,
      now: this.#now,
      maxRetries: deps.maxRetries ?? 3,
      timeoutMs,
      deadlineMs: deps.deadlineMs ?? DEFAULT_DEADLINE_MS,
      maxRetryWaitMs: deps.maxRetryWaitMs ?? 30_000,
    });
  }

  /** Sends one request to the chosen API; the path is checked before anything is sent. */
  async request<T = unknown>(api: GoogleApi, req: GoogleRequest): Promise<T> {
    if (api !== "data" && api !== "admin") throw new ValidationError("api", 'it must be "data" or "admin".');
    if (!METHODS.has(req.method))
      throw new ValidationError("method", "accepted methods are GET, POST, PATCH and DELETE.");
    const checked = checkGooglePath(req.path);
    const path = checked.value;
    checkWellFormed(req.query, "query_parameters");
    checkReservedQuery(req.query, RESERVED_QUERY);
    checkWellFormed(req.body, "body");
    if ((req.method === "GET" || req.method === "DELETE") && req.body !== undefined) {
      throw new ValidationError("body", `a ${req.method} request takes no body; pass parameters as query.`);
    }
    const base = new URL(api === "data" ? this.#endpoints.dataApiUrl : this.#endpoints.adminApiUrl);
    const url = joinEndpoint(base, checked, GOOGLE_PATH_RULES);
    appendQuery(url, req.query);
    const isReport = api === "data" && req.method === "POST" && REPORT_METHOD.test(path);
    const isBatch = api === "data" && req.method === "POST" && BATCH_REPORT_METHOD.test(path);
    const body = isReport
      ? withPropertyQuota(req.body)
      : isBatch
        ? withBatchPropertyQuota(req.body)
        : req.body;
    // Counted once checked and about to be sent, whatever its outcome: Google counts failed calls too.
    await this.#calls.count();
    const result = await this.#transport.send({
      api,
      method: req.method,
      path,
      url,
      body,
      signal: req.signal,
    });
    const property = propertyOf(path);
    if ((isReport || isBatch) && property) this.#recordQuota(property, path, result);
    const defined = api === "admin" && req.method !== "GET" ? CUSTOM_DEFINITIONS.exec(path)?.[1] : undefined;
    if (defined) this.#forgetFields(defined);
    return result as T;
  }

  /** The API Call step: the API follows from the path unless given. */
  async call(req: GoogleRequest & { api?: GoogleApi }): Promise<{ api: GoogleApi; body: unknown }> {
    const path = checkGooglePath(req.path);
    const api = req.api ?? apiForPath(path.value);
    const { api: _api, ...rest } = req;
    return { api, body: await this.request(api, { ...rest, path }) };
  }

  /**
   * Reads every page of a list (`pageToken` → `nextPageToken`), up to `maxPages` (default 50) or
   * until `maxItems` is reached; the token of the next page is returned when it stops early.
   */
  async listAll<T>(
    raw: string | CheckedPath,
    key: string,
    query?: Query,
    options: ListOptions = {},
  ): Promise<{ items: T[]; nextPageToken?: string }> {
    const path = checkGooglePath(raw);
    const api = apiForPath(path.value);
    const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
    const items: T[] = [];
    const seen = new Set<string>();
    let pageToken: string | undefined;
    for (let page = 0; page < maxPages; page += 1) {
      const body = await this.request<Record<string, unknown>>(api, {
        method: "GET",
        path,
        query: { ...query, ...(pageToken ? { pageToken } : {}) },
        signal: options.signal,
      });
      const list = isPlainObject(body) ? body[key] : undefined;
      if (Array.isArray(list)) items.push(...(list as T[]));
      const next = isPlainObject(body) && typeof body.nextPageToken === "string" ? body.nextPageToken : "";
      if (next === "") return { items };
      if (seen.has(next)) {
        throw new UpstreamError("Google Analytics returned the same page token twice while listing.", {
          hint: "The listing would loop: narrow it with a filter or a smaller page size and try again.",
        });
      }
      seen.add(next);
      pageToken = next;
      if (options.maxItems !== undefined && items.length >= options.maxItems) break;
    }
    return { items, ...(pageToken ? { nextPageToken: pageToken } : {}) };
  }

  async runReport(propertyId: string, body: object, signal?: AbortSignal): Promise<RunReportResponse> {
    const path = `v1beta/properties/${checkPropertyId(propertyId)}:runReport`;
    const answer = await this.request("data", { method: "POST", path, body, signal });
    return documented<RunReportResponse>(answer, "a report", REPORT);
  }

  async runRealtimeReport(
    propertyId: string,
    body: object,
    signal?: AbortSignal,
  ): Promise<RunRealtimeReportResponse> {
    const path = `v1beta/properties/${checkPropertyId(propertyId)}:runRealtimeReport`;
    const answer = await this.request("data", { method: "POST", path, body, signal });
    return documented<RunRealtimeReportResponse>(answer, "a realtime report", REPORT);
  }

  /**
   * Which of the request's fields combine (GA's checkCompatibility). The answer depends only on the
   * property and the field set, so it is kept 10 minutes per property and field set: a report then costs
   * one request, not two.
   */
  async checkCompatibility(
    propertyId: string,
    body: object,
    signal?: AbortSignal,
  ): Promise<CheckCompatibilityResponse> {
    const id = checkPropertyId(propertyId);
    const path = `v1beta/properties/${id}:checkCompatibility`;
    return this.#compatibility.get(
      `${id}|${fieldSetKey(body)}`,
      async () =>
        documented<CheckCompatibilityResponse>(
          await this.request("data", { method: "POST", path, body }),
          "a compatibility check",
          COMPATIBILITY,
        ),
      signal,
    );
  }

  /** Dimensions and metrics of a property ("0": the universal ones); cached 10 min, one fetch at a time. */
  async getMetadata(propertyId: string, signal?: AbortSignal): Promise<Metadata> {
    const id = checkPropertyId(propertyId);
    return this.#metadata.get(id, () => this.#readMetadata(id), signal);
  }

  /**
   * The property's field list read again for a name the kept one lacks (a custom dimension made a moment
   * ago), unless the kept one is under 30 s old: then undefined, the kept list stands (METADATA_REFRESH_MS).
   */
  async refreshMetadata(propertyId: string, signal?: AbortSignal): Promise<Metadata | undefined> {
    const id = checkPropertyId(propertyId);
    return fetchAgain(this.#metadata, id, () => this.#readMetadata(id), signal, METADATA_REFRESH_MS);
  }

  async #readMetadata(id: string): Promise<Metadata> {
    return documented<Metadata>(
      await this.request("data", { method: "GET", path: `v1beta/properties/${id}/metadata` }),
      "the property's metadata",
      METADATA,
    );
  }

  /** A custom definition of the property changed: its kept field list and compatibility answers are stale. */
  #forgetFields(propertyId: string): void {
    this.#metadata.forget((key) => key === propertyId);
    this.#compatibility.forget((key) => key.startsWith(`${propertyId}|`));
  }

  /** The property's reporting time zone (Admin API), or undefined when it has none; cached 10 min. */
  async timeZone(propertyId: string, signal?: AbortSignal): Promise<string | undefined> {
    return (await this.propertyFacts(propertyId, signal)).timeZone;
  }

  /**
   * What a report needs of the property (Admin API properties.get): its reporting time zone and when it
   * was created (`createTime`, "Time when the entity was originally created": analyticsadmin v1beta
   * discovery document, Property), before which it holds no data. One read serves both; cached 10 min.
   */
  async propertyFacts(propertyId: string, signal?: AbortSignal): Promise<PropertyFacts> {
    const id = checkPropertyId(propertyId);
    return this.#properties.get(
      id,
      async () => {
        const property = documented<{ timeZone?: unknown; createTime?: unknown }>(
          await this.request("admin", { method: "GET", path: `v1beta/properties/${id}` }),
          "a property",
          OBJECT,
        );
        const text = (value: unknown) => (typeof value === "string" && value ? value : undefined);
        const [timeZone, createTime] = [text(property.timeZone), text(property.createTime)];
        return { ...(timeZone ? { timeZone } : {}), ...(createTime ? { createTime } : {}) };
      },
      signal,
    );
  }

  /** The last `propertyQuota` seen for a property (of `kind`, or the most recent of either). */
  quota(propertyId: string, kind?: PropertyQuotaSnapshot["kind"]): PropertyQuotaSnapshot | undefined {
    const entry = this.#quotas.get(checkPropertyId(propertyId));
    if (!entry) return undefined;
    if (kind) return entry[kind];
    const { core, realtime } = entry;
    if (!core || !realtime) return core ?? realtime;
    return core.seenAt >= realtime.seenAt ? core : realtime;
  }

  /** Every property's last quotas seen through this account (this process's memory), newest first. */
  quotasSeen(): PropertyQuotaSnapshot[] {
    const all = [...this.#quotas.values()].flatMap(({ core, realtime }) => [core, realtime]);
    return all
      .filter((seen): seen is PropertyQuotaSnapshot => seen !== undefined)
      .sort((a, b) => b.seenAt.localeCompare(a.seenAt));
  }

  /** Requests sent through this account since 00:00 UTC, by every process sharing the state. */
  callsToday(): Promise<GoogleCallsToday> {
    return this.#calls.today();
  }

  #recordQuota(propertyId: string, path: string, body: unknown): void {
    const quotas = quotaFromResponse(body);
    if (!quotas) return;
    const kind = path.endsWith(":runRealtimeReport") ? "realtime" : "core";
    const entry = this.#quotas.get(propertyId) ?? {};
    entry[kind] = snapshot(propertyId, kind, quotas, this.#now());
    this.#quotas.set(propertyId, entry);
  }
}
