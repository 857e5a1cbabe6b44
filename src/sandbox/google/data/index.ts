/**
 * A local emulator of the Google Analytics Data API v1beta, mounted under "/data". Routing, auth,
 * property access, quotas and concurrency live here; the reports themselves in core-report.ts,
 * pivot.ts, realtime.ts and metadata.ts. Error bodies follow google.rpc.Status
 * (https://developers.google.com/analytics/devguides/reporting/data/v1/errors).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { GA4_DATA_PATHS } from "../../../real-paths.generated.js";
import { realPaths } from "../../../real-paths.js";
import {
  type DataApiContext,
  type SandboxProperty,
  SCOPE_FULL,
  SCOPE_READONLY,
  type SubHandler,
} from "../types.js";
import { AUDIENCE_RPC, type AudienceCall, AudienceExports, audienceRoute } from "./audience-exports.js";
import { type ReportResult, type ReportScope, runReport } from "./core-report.js";
import { customCatalog } from "./custom-fields.js";
import { Dataset, DEFAULT_SEED } from "./dataset.js";
import { runFunnelReport } from "./funnel.js";
import { checkCompatibility, metadataOf } from "./metadata.js";
import { runPivotReport } from "./pivot.js";
import {
  QUOTA_KINDS,
  type QuotaKind,
  QuotaTracker,
  SCHEMA_METHOD_TOKENS,
  STANDARD_LIMITS,
  type TokenLimits,
  tokenCost,
} from "./quota.js";
import { runRealtimeReport } from "./realtime.js";
import { invalidArgument, isObject, RpcError, rejectUnknownKeys, sendJson } from "./rpc.js";

/** The Data API's real paths (Google's discovery document). */
const DATA_PATHS = realPaths(GA4_DATA_PATHS);

export { profileOf } from "./catalog-values.js";
export { collectedEventNames, historyStartTime } from "./dataset.js";

export interface DataApiOptions {
  /** Core tokens per property per rolling hour; default 40,000 (standard property). */
  tokensPerHour?: number;
  /** Core tokens per property per rolling 24 hours; default 200,000. */
  tokensPerDay?: number;
  /** Tokens per project per property per hour, every category; default 14,000 (35 % of 40,000). */
  tokensPerProjectPerHour?: number;
  /** Realtime tokens per property per hour; default 40,000. */
  realtimeTokensPerHour?: number;
  /** Realtime tokens per property per day; default 200,000. */
  realtimeTokensPerDay?: number;
  /** Requests in flight per property and category (core, realtime, funnel); default 10. */
  concurrentRequests?: number;
  /** Artificial delay per report, while it holds its concurrency slot; default 0. */
  latencyMs?: number;
  /** Seed of the generated data; default 7. */
  seed?: number;
  /** How long an audience export stays CREATING; default 2_000 ms. */
  audienceExportMs?: number;
}

export interface DataApiStats {
  requests: number;
  rejected429: number;
  maxInFlightByProperty: Record<string, number>;
}

const MAX_BATCH = 5;
const SERVICE = "analyticsdata.googleapis.com";
const ROUTE = /^\/v1(?:beta|alpha)\/properties\/([^/:]+)(?::([A-Za-z]+)|\/(metadata))$/;
const POST_METHODS = [
  "runReport",
  "runPivotReport",
  "batchRunReports",
  "batchRunPivotReports",
  "runRealtimeReport",
  "checkCompatibility",
  "runFunnelReport",
] as const;
type Method = (typeof POST_METHODS)[number] | "getMetadata";

function route(
  httpMethod: string | undefined,
  path: string,
): { propertyId: string; method: Method } | undefined {
  const match = ROUTE.exec(path);
  if (!match) return undefined;
  const propertyId = match[1] ?? "";
  // runFunnelReport is v1alpha only (funnel.ts), and v1alpha has nothing else emulated.
  if ((match[2] === "runFunnelReport") !== path.startsWith("/v1alpha/")) return undefined;
  if (match[3] === "metadata")
    return httpMethod === "GET" ? { propertyId, method: "getMetadata" } : undefined;
  const method = POST_METHODS.find((m) => m === match[2]);
  return method && httpMethod === "POST" ? { propertyId, method } : undefined;
}

function unauthenticated(): RpcError {
  return new RpcError(
    "UNAUTHENTICATED",
    "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other " +
      "valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
  );
}

/** The real 403 for a token without a Data API scope: PERMISSION_DENIED with an ErrorInfo reason. */
function scopeInsufficient(method: string): RpcError {
  const rpcMethod = `${method.charAt(0).toUpperCase()}${method.slice(1)}`;
  return new RpcError("PERMISSION_DENIED", "Request had insufficient authentication scopes.", [
    {
      "@type": "type.googleapis.com/google.rpc.ErrorInfo",
      reason: "ACCESS_TOKEN_SCOPE_INSUFFICIENT",
      domain: "googleapis.com",
      metadata: { service: SERVICE, method: `google.analytics.data.v1beta.BetaAnalyticsData.${rpcMethod}` },
    },
  ]);
}

function parseBody(text: string): unknown {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    throw invalidArgument("Invalid JSON payload received. Unexpected token.");
  }
}

/** What the reports and audience exports share: the data, the quota and the emulator's state. */
interface DataApiDeps {
  context: DataApiContext;
  dataset: Dataset;
  quota: QuotaTracker;
  /** Artificial delay per report, while it holds its concurrency slot. */
  latencyMs: number;
  audienceExports: AudienceExports;
}

function quotaTracker(options: DataApiOptions): QuotaTracker {
  const shared: TokenLimits = {
    ...STANDARD_LIMITS,
    tokensPerProjectPerHour: options.tokensPerProjectPerHour ?? STANDARD_LIMITS.tokensPerProjectPerHour,
    concurrentRequests: options.concurrentRequests ?? STANDARD_LIMITS.concurrentRequests,
  };
  const limits = Object.fromEntries(QUOTA_KINDS.map((kind) => [kind, { ...shared }])) as Record<
    QuotaKind,
    TokenLimits
  >;
  limits.core.tokensPerHour = options.tokensPerHour ?? limits.core.tokensPerHour;
  limits.core.tokensPerDay = options.tokensPerDay ?? limits.core.tokensPerDay;
  limits.realtime.tokensPerHour = options.realtimeTokensPerHour ?? limits.realtime.tokensPerHour;
  limits.realtime.tokensPerDay = options.realtimeTokensPerDay ?? limits.realtime.tokensPerDay;
  return new QuotaTracker(limits);
}

/** A path that is not emulated: named as a real method when it is one (src/real-paths.ts). */
function notFound(method: string, path: string): RpcError {
  const real = DATA_PATHS.find(path);
  return new RpcError(
    "NOT_FOUND",
    real?.methods.includes(method)
      ? `${method} ${real.template} is a real Data API method that this sandbox does not emulate.`
      : `Method not found: ${method} ${path.slice(0, 200)}`,
  );
}

/** Any role (viewer and up) may read; an unknown, deleted or unreachable property looks the same. */
function accessibleProperty(context: DataApiContext, propertyId: string, email: string): SandboxProperty {
  if (!/^\d+$/.test(propertyId)) {
    throw invalidArgument(
      `Invalid property ID: ${propertyId}. A numeric Property ID is required. To learn more about Property ID, ` +
        "see https://developers.google.com/analytics/devguides/reporting/data/v1/property-id.",
    );
  }
  const property = context.property(propertyId);
  if (!property || property.deleted || !context.roleOf(email, property.accountId)) {
    throw new RpcError("PERMISSION_DENIED", "User does not have sufficient permissions for this property.");
  }
  return property;
}

/** Runs reports under the quota: tokens checked first, cost charged after, quota attached on request. */
async function withQuota(
  { quota, latencyMs, context }: DataApiDeps,
  kind: QuotaKind,
  scope: ReportScope,
  run: () => { result: ReportResult; wantsQuota: boolean }[],
): Promise<Record<string, unknown>[]> {
  const propertyId = scope.property.id;
  const release = quota.acquire(kind, propertyId);
  try {
    quota.ensureTokens(kind, propertyId, scope.now);
    const results = run();
    if (latencyMs > 0) await sleep(latencyMs);
    return results.map(({ result, wantsQuota }) => {
      const state = quota.charge(kind, propertyId, context.now(), tokenCost(result.cost));
      if (!wantsQuota) return result.body;
      const { kind: responseKind, ...rest } = result.body;
      return { ...rest, propertyQuota: state, kind: responseKind };
    });
  } finally {
    release();
  }
}

/** getMetadata and checkCompatibility: Core methods, refused on an exhausted property, 1 token each. */
function schemaCall<T>({ quota, context }: DataApiDeps, propertyId: string, run: () => T): T {
  const release = quota.acquire("core", propertyId);
  try {
    quota.ensureTokens("core", propertyId, context.now());
    const result = run();
    quota.charge("core", propertyId, context.now(), SCHEMA_METHOD_TOKENS);
    return result;
  } finally {
    release();
  }
}

/** The reports of a batch request (at most MAX_BATCH), each error naming its request. */
function batch(
  raw: unknown,
  one: (request: unknown) => ReportResult,
): { result: ReportResult; wantsQuota: boolean }[] {
  if (!isObject(raw)) throw invalidArgument("The request body must be a JSON object with requests[].");
  rejectUnknownKeys(raw, ["requests"]);
  const list = raw.requests;
  if (!Array.isArray(list) || list.length === 0)
    throw invalidArgument("requests must hold at least one request.");
  if (list.length > MAX_BATCH) {
    throw invalidArgument(`A batch is limited to ${MAX_BATCH} requests; this batch has ${list.length}.`);
  }
  return list.map((request, i) => {
    try {
      return {
        result: one(request),
        wantsQuota: isObject(request) && request.returnPropertyQuota === true,
      };
    } catch (error) {
      if (error instanceof RpcError) throw new RpcError(error.status, `requests[${i}]: ${error.message}`);
      throw error;
    }
  });
}

async function dispatch(
  deps: DataApiDeps,
  method: Method,
  propertyId: string,
  email: string,
  body: string,
): Promise<unknown> {
  const { context, dataset } = deps;
  if (method === "getMetadata") {
    // Property 0 is the universal metadata, not a property: no property quota to charge.
    if (propertyId === "0") return metadataOf(propertyId);
    accessibleProperty(context, propertyId, email);
    const custom = customCatalog(context.customDefinitions?.(propertyId), context.keyEventNames(propertyId));
    return schemaCall(deps, propertyId, () => metadataOf(propertyId, custom));
  }
  const raw = parseBody(body);
  const property = accessibleProperty(context, propertyId, email);
  const scope: ReportScope = {
    dataset,
    property,
    keyEventNames: context.keyEventNames(propertyId),
    custom: customCatalog(context.customDefinitions?.(propertyId), context.keyEventNames(propertyId)),
    now: context.now(),
  };
  const single = isObject(raw) && raw.returnPropertyQuota === true;
  switch (method) {
    case "checkCompatibility":
      return schemaCall(deps, propertyId, () => checkCompatibility(raw, scope.custom));
    case "runReport":
      return (
        await withQuota(deps, "core", scope, () => [{ result: runReport(raw, scope), wantsQuota: single }])
      )[0];
    case "runPivotReport":
      return (
        await withQuota(deps, "core", scope, () => [
          { result: runPivotReport(raw, scope), wantsQuota: single },
        ])
      )[0];
    case "runFunnelReport":
      return (
        await withQuota(deps, "core", scope, () => [
          { result: runFunnelReport(raw, scope), wantsQuota: single },
        ])
      )[0];
    case "runRealtimeReport":
      return (
        await withQuota(deps, "realtime", scope, () => [
          { result: runRealtimeReport(raw, scope), wantsQuota: single },
        ])
      )[0];
    case "batchRunReports": {
      const reports = await withQuota(deps, "core", scope, () => batch(raw, (r) => runReport(r, scope)));
      return { reports, kind: "analyticsData#batchRunReports" };
    }
    case "batchRunPivotReports": {
      const pivotReports = await withQuota(deps, "core", scope, () =>
        batch(raw, (r) => runPivotReport(r, scope)),
      );
      return { pivotReports, kind: "analyticsData#batchRunPivotReports" };
    }
  }
}

function audiences(
  { context, audienceExports }: DataApiDeps,
  call: AudienceCall,
  email: string,
  body: string,
  url: URL,
): Record<string, unknown> {
  accessibleProperty(context, call.propertyId, email);
  if (call.method === "create") return audienceExports.create(call.propertyId, parseBody(body));
  if (call.method === "list") return audienceExports.list(call.propertyId, url);
  if (call.method === "get") return audienceExports.get(call.propertyId, call.exportId);
  return audienceExports.query(call.propertyId, call.exportId, parseBody(body));
}

export function createDataApi(
  context: DataApiContext,
  options: DataApiOptions = {},
): { handle: SubHandler; stats(): DataApiStats } {
  const quota = quotaTracker(options);
  const deps: DataApiDeps = {
    context,
    dataset: new Dataset(options.seed ?? DEFAULT_SEED),
    quota,
    latencyMs: options.latencyMs ?? 0,
    audienceExports: new AudienceExports(() => context.now(), options.audienceExportMs ?? 2_000),
  };
  let requests = 0;
  let rejected429 = 0;

  const handle: SubHandler = async (req: IncomingMessage, res: ServerResponse, path: string, url, body) => {
    requests++;
    try {
      const target = route(req.method, path);
      const audience = target ? undefined : audienceRoute(req.method, path);
      if (!target && !audience) throw notFound(req.method ?? "?", path);
      const owner = context.authenticate(req.headers.authorization);
      if (!owner) throw unauthenticated();
      if (!owner.scopes.includes(SCOPE_READONLY) && !owner.scopes.includes(SCOPE_FULL)) {
        throw scopeInsufficient(target?.method ?? AUDIENCE_RPC[audience?.method ?? "get"]);
      }
      if (audience) {
        sendJson(res, 200, audiences(deps, audience, owner.email, body, url));
        return;
      }
      if (!target) return;
      const answer = await dispatch(deps, target.method, target.propertyId, owner.email, body);
      if (target.method.startsWith("run") || target.method.startsWith("batch")) {
        context.recordAccess?.({
          email: owner.email,
          propertyId: target.propertyId,
          at: context.now(),
          realtime: target.method === "runRealtimeReport",
        });
      }
      sendJson(res, 200, answer);
    } catch (error) {
      const rpc = error instanceof RpcError ? error : new RpcError("INTERNAL", "Internal error encountered.");
      if (rpc.httpCode === 429) rejected429++;
      if (rpc.httpCode === 401)
        res.setHeader("www-authenticate", 'Bearer realm="https://accounts.google.com/"');
      sendJson(res, rpc.httpCode, rpc.toBody());
    }
  };

  return {
    handle,
    stats: () => ({ requests, rejected429, maxInFlightByProperty: { ...quota.maxInFlight } }),
  };
}
