/**
 * HTTP plumbing: bounded body reading, the two Marketo envelopes, and response writing.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

/** Request body limit (ADE error-codes.md: 413 "Request Entity Too Large" above 1 MB). */
export const MAX_BODY_BYTES = 1024 * 1024;
/** URI limit (ADE error-codes.md: 414 "Request-URI Too Long" above 8 KB). */
export const MAX_URI_BYTES = 8 * 1024;

/** Reads the whole body, keeping at most MAX_BODY_BYTES; the rest is drained so the socket stays usable. */
export function readBody(req: IncomingMessage): Promise<{ text: string; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on("end", () => resolve({ text: tooLarge ? "" : Buffer.concat(chunks).toString("utf8"), tooLarge }));
    req.on("error", reject);
  });
}

export function mediaType(req: IncomingMessage): string {
  return (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": "application/json;charset=UTF-8",
    "Content-Length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** HTTP-level errors (413/414) come from the gateway as HTML, not as a Marketo envelope. */
export function sendHttpError(res: ServerResponse, status: number, reason: string): void {
  const text = `<html><head><title>${status} ${reason}</title></head><body><h1>${reason}</h1></body></html>`;
  res.writeHead(status, {
    "Content-Type": "text/html",
    "Content-Length": Buffer.byteLength(text),
    Connection: "close",
  });
  res.end(text);
}

/**
 * Lead DB responses omit empty errors/warnings; Asset responses always carry `errors:[]` and
 * `warnings:[]` (REAL-API.md A3, GRP recording).
 */
export function successEnvelope(asset: boolean, requestId: string, fields: Record<string, unknown>): unknown {
  if (asset) return { success: true, errors: [], requestId, warnings: [], ...fields };
  return { requestId, ...fields, success: true };
}

export function errorEnvelope(asset: boolean, requestId: string, code: string, message: string): unknown {
  const errors = [{ code, message }];
  return asset ? { success: false, errors, requestId, warnings: [] } : { requestId, success: false, errors };
}
