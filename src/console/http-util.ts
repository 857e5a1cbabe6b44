/**
 * The console's HTTP plumbing: security headers on every response, JSON in and out, typed errors as
 * JSON, and the same-origin check of requests that change state.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { isMartechError, ValidationError } from "../errors.js";
import { log } from "../log.js";

/**
 * No inline script or style, no eval (form validators are precompiled on the server), nothing from
 * another origin; violations are reported to the console itself, which tests count.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "report-uri /console/csp-report",
].join("; ");

const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** Headers every console response carries. */
export function secure(res: ServerResponse, kind: "page" | "api" = "api"): void {
  res.setHeader("content-security-policy", kind === "page" ? PAGE_CSP : API_CSP);
  res.setHeader("x-content-type-options", "nosniff");
  res.setHeader("x-frame-options", "DENY");
  // The login URL carries a token until the redirect drops it: it must not leak as a Referer.
  res.setHeader("referrer-policy", "no-referrer");
  res.setHeader("cross-origin-opener-policy", "same-origin");
  res.setHeader("cross-origin-resource-policy", "same-origin");
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  secure(res);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

/** A typed error as the page shows it: message (with its hint), code, field and issues. Never a secret. */
export function errorBody(error: unknown): Record<string, unknown> {
  if (isMartechError(error)) return { ...error.toJSON(), hint: error.hint };
  // An unexpected error's message may carry anything: the page gets a generic text.
  log.error({ err: error }, "console request failed unexpectedly");
  return {
    error: "internal_error",
    message: "The console hit an internal error. The server log has the details.",
  };
}

/** A typed error's HTTP status: the caller's input 400, a short-term limit 429, any other kind 422; else 500. */
function errorStatus(error: unknown): number {
  if (!isMartechError(error)) return 500;
  if (error.code === "invalid_input") return 400;
  if (error.code === "rate_limited") return 429;
  return 422;
}

export function sendError(res: ServerResponse, error: unknown): void {
  const body = errorBody(error);
  if (isMartechError(error) && error.code === "rate_limited")
    res.setHeader("retry-after", String(Math.ceil(error.details.retryAfterMs / 1000)));
  sendJson(res, errorStatus(error), { error: body });
}

/** Refuses a request: JSON for the page's fetch calls. */
export function refuse(res: ServerResponse, status: number, code: string, message: string): void {
  sendJson(res, status, { error: { error: code, message } });
}

/** The JSON body of a request from the page (application/json only: a form post from another site cannot send it). */
export async function readJson(req: IncomingMessage, limit = 1024 * 1024): Promise<Record<string, unknown>> {
  if (!/^application\/json\b/i.test(req.headers["content-type"] ?? "")) {
    throw new ValidationError("body", "send JSON with Content-Type: application/json.");
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new ValidationError("body", `it is larger than ${limit / 1024} KB.`);
    chunks.push(chunk as Buffer);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
  } catch {
    throw new ValidationError("body", "it is not valid JSON.");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new ValidationError("body", "it must be a JSON object.");
  }
  return parsed as Record<string, unknown>;
}

/**
 * The page's own origin when the request comes from it, else undefined. The Host header was
 * already checked against the server's allowed hosts (DNS rebinding); the Origin must name that
 * same host, and Fetch Metadata, when the browser sends it, must say same-origin.
 */
export function sameOrigin(req: IncomingMessage): string | undefined {
  const host = (req.headers.host ?? "").toLowerCase();
  const origin = (req.headers.origin ?? "").toLowerCase();
  const site = req.headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin") return undefined;
  return origin === `http://${host}` || origin === `https://${host}` ? origin : undefined;
}

/** A request another origin must not make: Origin, when present, or Fetch Metadata says cross-origin. */
export function crossOrigin(req: IncomingMessage): boolean {
  const site = req.headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin" && site !== "none") return true;
  return req.headers.origin !== undefined && sameOrigin(req) === undefined;
}

/** A field of a JSON body that must be a string (trimmed); empty strings count as absent. */
export function stringField(
  body: Record<string, unknown>,
  field: string,
  required: boolean,
): string | undefined {
  const value = body[field];
  if (value === undefined || value === null || (typeof value === "string" && value.trim() === "")) {
    if (required) throw new ValidationError(field, "it is required.");
    return undefined;
  }
  if (typeof value !== "string") throw new ValidationError(field, "it must be text.");
  return value.trim();
}

/**
 * The required text fields of a save form, each missing one named by its label ("Client ID is
 * required."), all at once: the page shows each under its field (`issues`), not only the first.
 */
export function requiredFields(
  body: Record<string, unknown>,
  labels: Record<string, string>,
): Record<string, string> {
  const issues: { field: string; message: string }[] = [];
  const out: Record<string, string> = {};
  for (const field of Object.keys(labels)) {
    const value = body[field];
    if (value === undefined || value === null || (typeof value === "string" && value.trim() === ""))
      issues.push({ field, message: `${labels[field]} is required.` });
    else if (typeof value !== "string") issues.push({ field, message: `${labels[field]} must be text.` });
    else out[field] = value.trim();
  }
  if (issues.length > 0) {
    // Named "input" (the form), so the message reads "Invalid input: Client ID is required. …", not after an API name.
    const message = issues.map((issue) => issue.message).join(" ");
    throw new ValidationError("input", message, {
      hint: "Fill in each field named, then save again.",
      details: { issues },
    });
  }
  return out;
}

/** A field a saved secret is bound to: the secret is kept only while the form sends the same value. */
export interface SecretBinding {
  /** The field's name on the form ("clientId", "restEndpoint"). */
  field: string;
  /** How the page labels it. */
  label: string;
  sent: string;
  saved: string;
}

/**
 * The client secret a save form sent, or, when it left the write-only field empty, the saved one.
 * A saved secret belongs to the client and the endpoint it was saved with: it is never sent with
 * another Client ID or to another host, so a changed binding needs the secret typed again (else a
 * person at the console could send the saved secret to a server of their choosing, which is the
 * one thing write-only is meant to prevent). Refused with `hint` when there is no secret to use.
 */
export function secretOrSaved(
  body: Record<string, unknown>,
  saved: { clientSecret: string; bindings: readonly SecretBinding[] } | undefined,
  what: string,
  hint: string,
): string {
  const typed = stringField(body, "clientSecret", false);
  if (typed) return typed;
  if (!saved?.clientSecret) throw new ValidationError("clientSecret", `enter the ${what}.`, { hint });
  const changed = saved.bindings.filter((binding) => binding.sent !== binding.saved);
  if (changed.length > 0) {
    const labels = changed.map((binding) => binding.label).join(" and ");
    throw new ValidationError(
      "clientSecret",
      `enter the ${what} again: the ${labels} changed, and a saved secret is only ever sent with the ${saved.bindings.map((binding) => binding.label).join(" and ")} it was saved with.`,
      { hint, details: { changed: changed.map((binding) => binding.field) } },
    );
  }
  return saved.clientSecret;
}

/**
 * A path part, percent-decoded. Malformed percent-encoding is the client's mistake: a 400 naming the
 * part, not an internal error (hono would pass the raw text on instead).
 */
export function decodedPart(raw: string, name: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new ValidationError(name, "its percent-encoding in the URL is malformed.", {
      hint: "Encode each byte of its UTF-8 as %XX (as encodeURIComponent does).",
    });
  }
}
