/**
 * Small HTTP helpers shared by the OAuth and Admin emulators: body reading, JSON and HTML replies, and the
 * google.rpc.Status error shape (https://cloud.google.com/apis/design/errors#http_mapping).
 */
import type { IncomingMessage, ServerResponse } from "node:http";

/** Google front ends refuse bodies far smaller than this; the cap only protects the sandbox from runaway tests. */
const MAX_BODY_BYTES = 1024 * 1024;

export type RpcStatus =
  | "INVALID_ARGUMENT"
  | "FAILED_PRECONDITION"
  | "UNAUTHENTICATED"
  | "PERMISSION_DENIED"
  | "NOT_FOUND"
  | "ALREADY_EXISTS"
  | "RESOURCE_EXHAUSTED"
  | "INTERNAL";

/** A google.rpc.Status error raised by a handler and rendered by the router. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    readonly status: RpcStatus,
    message: string,
    readonly details?: readonly Record<string, unknown>[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "RpcError";
  }
}

export const invalidArgument = (message: string): RpcError => new RpcError(400, "INVALID_ARGUMENT", message);

/** Google's canonical NOT_FOUND wording for a missing resource. */
export const notFound = (message = "Requested entity was not found."): RpcError =>
  new RpcError(404, "NOT_FOUND", message);

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    size += buf.length;
    if (size > MAX_BODY_BYTES) throw new RpcError(413, "INVALID_ARGUMENT", "Request payload is too large.");
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body, null, 2);
  res.writeHead(status, {
    "content-type": "application/json; charset=UTF-8",
    "cache-control": "no-cache, no-store, max-age=0, must-revalidate",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function sendRpcError(res: ServerResponse, error: RpcError): void {
  const payload: Record<string, unknown> = { code: error.code, message: error.message, status: error.status };
  if (error.details && error.details.length > 0) payload.details = error.details;
  sendJson(res, error.code, { error: payload }, error.headers);
}

export function sendHtml(res: ServerResponse, status: number, title: string, text: string): void {
  const page = `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body></html>`;
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "content-length": Buffer.byteLength(page),
  });
  res.end(page);
}

export function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { location, "content-length": 0 });
  res.end();
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Parses a JSON request body the way Google's ESF does: an empty body is an empty message, anything that is
 * not a JSON object is rejected with INVALID_ARGUMENT.
 */
export function parseJsonObject(body: string): Record<string, unknown> {
  if (body.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw invalidArgument("Invalid JSON payload received. Unexpected token.");
  }
  if (!isObject(value)) {
    throw invalidArgument("Invalid JSON payload received. Expected an object at the top level.");
  }
  return value;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Reads `application/x-www-form-urlencoded` or JSON bodies (Google's token endpoint accepts both). */
export function parseForm(req: IncomingMessage, body: string): Map<string, string> {
  const out = new Map<string, string>();
  const type = String(req.headers["content-type"] ?? "");
  if (type.includes("application/json")) {
    try {
      const parsed: unknown = JSON.parse(body);
      if (isObject(parsed)) {
        for (const [k, v] of Object.entries(parsed)) if (typeof v === "string") out.set(k, v);
      }
    } catch {
      // An unparsable JSON body is treated like an empty form: the missing-parameter errors explain it.
    }
    return out;
  }
  for (const [k, v] of new URLSearchParams(body)) out.set(k, v);
  return out;
}
