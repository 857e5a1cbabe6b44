/**
 * google.rpc.Status errors as the Data API sends them: `{"error":{"code","message","status","details?"}}`.
 * https://cloud.google.com/apis/design/errors and
 * https://developers.google.com/analytics/devguides/reporting/data/v1/errors
 */
import type { ServerResponse } from "node:http";

export type RpcStatus =
  | "INVALID_ARGUMENT"
  | "FAILED_PRECONDITION"
  | "UNAUTHENTICATED"
  | "PERMISSION_DENIED"
  | "NOT_FOUND"
  | "RESOURCE_EXHAUSTED"
  | "INTERNAL";

const HTTP_CODE: Record<RpcStatus, number> = {
  INVALID_ARGUMENT: 400,
  FAILED_PRECONDITION: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  RESOURCE_EXHAUSTED: 429,
  INTERNAL: 500,
};

export class RpcError extends Error {
  readonly status: RpcStatus;
  readonly httpCode: number;
  readonly details: readonly Record<string, unknown>[] | undefined;

  constructor(status: RpcStatus, message: string, details?: readonly Record<string, unknown>[]) {
    super(message);
    this.name = "RpcError";
    this.status = status;
    this.httpCode = HTTP_CODE[status];
    this.details = details;
  }

  toBody(): { error: Record<string, unknown> } {
    const error: Record<string, unknown> = {
      code: this.httpCode,
      message: this.message,
      status: this.status,
    };
    if (this.details) error.details = this.details;
    return { error };
  }
}

export function invalidArgument(message: string): RpcError {
  return new RpcError("INVALID_ARGUMENT", message);
}

export const API_SCHEMA_URL =
  "https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema";
export const REALTIME_SCHEMA_URL =
  "https://developers.google.com/analytics/devguides/reporting/data/v1/realtime-api-schema";

export function sendJson(res: ServerResponse, httpCode: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(httpCode, {
    "content-type": "application/json; charset=UTF-8",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

/** A plain JSON object (not an array, not null), the only shape a request body or sub-message may have. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The real API rejects unknown JSON keys with this exact wording (ESF JSON transcoding), e.g.
 * `Invalid JSON payload received. Unknown name "dimension": Cannot find field.`
 */
export function rejectUnknownKeys(
  body: Record<string, unknown>,
  allowed: readonly string[],
  where = "",
): void {
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) {
      const at = where ? ` at '${where}'` : "";
      throw invalidArgument(`Invalid JSON payload received. Unknown name "${key}"${at}: Cannot find field.`);
    }
  }
}
