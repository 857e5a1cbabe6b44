/**
 * google.rpc.Status errors (`{"error":{"code","message","status","details"}}`,
 * https://cloud.google.com/apis/design/errors) mapped to the shared error kinds, each saying what to
 * do next. Google's messages name fields and properties, never a token; they are quoted after the
 * transport redacted them (a misconfigured base URL might echo the request).
 */
import {
  AuthenticationError,
  type MartechError,
  NotFoundError,
  PermissionError,
  QuotaExceededError,
  UpstreamError,
} from "../../errors.js";
import { GA4_ADMIN_PATHS, GA4_DATA_PATHS } from "../../real-paths.generated.js";
import { realPaths } from "../../real-paths.js";
import { requiredRole } from "./paths.js";
import type { GoogleApi, GoogleRequest } from "./types.js";

export interface GoogleStatus {
  code?: number;
  message?: string;
  status?: string;
  /** ErrorInfo.reason from `details`, e.g. SERVICE_DISABLED, ACCESS_TOKEN_SCOPE_INSUFFICIENT. */
  reason?: string;
  /** ErrorInfo.metadata.activationUrl of SERVICE_DISABLED: the console page that enables the API. */
  activationUrl?: string;
}

const MAX_MESSAGE = 500;

/** The google.rpc.Status of an error body already parsed (and redacted: see src/redact.ts). */
export function parseStatus(parsed: unknown): GoogleStatus {
  const error = (parsed as { error?: unknown } | null)?.error;
  if (error === null || typeof error !== "object") return {};
  const { code, message, status, details } = error as Record<string, unknown>;
  const result: GoogleStatus = {};
  if (typeof code === "number") result.code = code;
  if (typeof message === "string") result.message = message.slice(0, MAX_MESSAGE);
  if (typeof status === "string") result.status = status;
  for (const detail of Array.isArray(details) ? details : []) {
    if (detail === null || typeof detail !== "object") continue;
    const { reason, metadata } = detail as { reason?: unknown; metadata?: unknown };
    if (typeof reason === "string" && !result.reason) result.reason = reason;
    const activation = (metadata as { activationUrl?: unknown } | null | undefined)?.activationUrl;
    if (
      typeof activation === "string" &&
      /^https:\/\/console\.(developers|cloud)\.google\.com\/[^\s@]*$/.test(activation)
    ) {
      result.activationUrl = activation;
    }
  }
  return result;
}

export type Exhaustion = "concurrent" | "hourly" | "daily" | "other";

/**
 * Which quota a 429 RESOURCE_EXHAUSTED hit, from its message (REAL-API B4): "Exhausted concurrent
 * requests quota." clears within seconds; "...tokens per hour" / "...for a project per hour" /
 * "potentially thresholded requests" reset hourly; "...tokens per day" returns "in under 24 hours".
 */
export function classifyExhaustion(message: string | undefined): Exhaustion {
  const text = message ?? "";
  if (/concurrent/i.test(text)) return "concurrent";
  if (/per day|daily/i.test(text)) return "daily";
  if (/per hour|hourly|thresholded/i.test(text)) return "hourly";
  return "other";
}

export interface ErrorContext {
  api: GoogleApi;
  method: GoogleRequest["method"];
  path: string;
  account: string;
  /** A service account (or the user it impersonates): the email a property must grant access to. */
  grantee?: { email: string; serviceAccount: boolean } | undefined;
  now: number;
}

function said(status: GoogleStatus, httpStatus: number): string {
  const kind = status.status ?? `HTTP ${httpStatus}`;
  return status.message ? `${kind}: ${status.message}` : kind;
}

/** A property quota that is not transient: never retried, and the message says when it resets. */
export function quotaError(
  status: GoogleStatus,
  exhaustion: "hourly" | "daily",
  now: number,
): QuotaExceededError {
  const resetsAt = new Date(now);
  if (exhaustion === "hourly") resetsAt.setUTCMinutes(60, 0, 0);
  else resetsAt.setTime(now + 24 * 3_600_000);
  const when =
    exhaustion === "hourly"
      ? `It resets at the top of the next hour (${resetsAt.toISOString()}).`
      : "Google returns these tokens within 24 hours.";
  return new QuotaExceededError(
    `The GA4 property's reporting quota is exhausted (${said(status, 429)}).`,
    resetsAt,
    {
      hint: `${when} Until then, batch reports, use fewer dimensions or shorter date ranges, and avoid repeating calls.`,
      details: { serviceCode: status.status ?? "RESOURCE_EXHAUSTED", quota: exhaustion },
    },
  );
}

const DATA_PATHS = realPaths(GA4_DATA_PATHS);
const ADMIN_PATHS = realPaths(GA4_ADMIN_PATHS);

/**
 * A 404 comes back both for a path the API does not have and for a real method whose resource is
 * missing (or that an emulator does not serve): only the first is a wrong path. Real methods come
 * from Google's discovery documents (real-paths.generated.ts).
 */
function notFoundHint(context: ErrorContext): string {
  const service = context.api === "data" ? DATA_PATHS : ADMIN_PATHS;
  const api = context.api === "data" ? "Data API" : "Admin API";
  const path = context.path.split("?")[0] ?? context.path;
  const real = service.find(path);
  if (real?.methods.includes(context.method)) {
    return `${context.method} ${real.template} is a real GA4 ${api} method and Google answered not found: check the property or resource ID in the path (list properties or the collection to see valid IDs).`;
  }
  if (real) {
    return `${real.template} is a real GA4 ${api} path, but not for ${context.method}: it serves ${real.methods.join(", ")}.`;
  }
  const near = service.nearest(path);
  return `${path} is no GA4 ${api} method${near ? `; did you mean ${near}?` : "."} Check the path against the API reference.`;
}

/**
 * A service account is a user of Google Analytics like any other: it sees a property only once its
 * email was added there (Admin > Property access management, https://support.google.com/analytics/answer/9305788).
 */
function permissionHint(context: ErrorContext): string {
  const role = requiredRole(context.api, context.method, context.path);
  const grantee = context.grantee;
  if (grantee?.serviceAccount) {
    return `Add the service account ${grantee.email} to the Google Analytics property (Admin > Property access management > Add users) with ${role}, then retry.`;
  }
  if (grantee) {
    return `${grantee.email}, the user this service account acts as, needs ${role}; ask an administrator of the Google Analytics account to grant it.`;
  }
  return `The account needs ${role}; ask an administrator of the Google Analytics account to grant it.`;
}

/** Maps a final (not retried) error response to a typed error. */
export function mapGoogleError(
  httpStatus: number,
  status: GoogleStatus,
  context: ErrorContext,
): MartechError {
  const text = said(status, httpStatus);
  const common = { serviceCode: status.status, status: httpStatus, details: { api: context.api } };
  if (httpStatus === 401) {
    return new AuthenticationError(`Google refused the access of account '${context.account}' (${text}).`, {
      hint: `Reconnect it (run: martech-steps accounts connect --label ${context.account}).`,
      details: { account: context.account },
    });
  }
  if (httpStatus === 403) {
    if (status.reason === "SERVICE_DISABLED") {
      const api = context.api === "data" ? "Google Analytics Data API" : "Google Analytics Admin API";
      return new PermissionError(
        `The ${api} is not enabled in the Google Cloud project of the OAuth client.`,
        {
          hint: `Enable it in the Cloud console${status.activationUrl ? ` (${status.activationUrl})` : " (APIs & Services > Library)"}, wait a few minutes, then retry.`,
          details: { reason: status.reason, api: context.api },
        },
      );
    }
    if (status.reason === "ACCESS_TOKEN_SCOPE_INSUFFICIENT") {
      return new PermissionError(
        `Account '${context.account}' was connected without the access this call needs (${text}).`,
        {
          hint: `Reconnect it and allow all requested Google Analytics permissions (run: martech-steps accounts connect --label ${context.account}).`,
          details: { reason: status.reason, account: context.account },
        },
      );
    }
    return new PermissionError(`Google Analytics denied account '${context.account}' this call (${text}).`, {
      hint: permissionHint(context),
      details: { account: context.account, ...(status.reason ? { reason: status.reason } : {}) },
    });
  }
  if (httpStatus === 404) {
    return new NotFoundError(`Google Analytics found nothing at this path (${text}).`, {
      hint: notFoundHint(context),
      details: { api: context.api },
    });
  }
  if (httpStatus === 400) {
    return new UpstreamError(`Google Analytics rejected the request (${text}).`, {
      ...common,
      hint: "Fix the field Google names and send it again; nothing was changed.",
    });
  }
  if (httpStatus === 409) {
    return new UpstreamError(`Google Analytics reports a conflict (${text}).`, {
      ...common,
      hint: "The resource already exists or changed meanwhile: read it, then decide.",
    });
  }
  const transient = httpStatus === 429 || httpStatus >= 500;
  return new UpstreamError(`Google Analytics answered HTTP ${httpStatus} (${text}).`, {
    ...common,
    retryable: transient,
    hint: transient
      ? "This is usually temporary: try again in a minute."
      : "Check the request against the API reference.",
  });
}
