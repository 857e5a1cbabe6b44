import type { MarketoPage, MarketoRecordError } from "./types.js";

/**
 * Marketo answers HTTP 200 for response-level and record-level errors; only `success:false` says a
 * call failed, and its codes are strings ("601")
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/error-codes).
 */
export type Envelope =
  | { ok: true; page: MarketoPage }
  | { ok: false; errors: MarketoReason[]; requestId: string | undefined };

/** One entry of Marketo's `errors[]` (or of a record's `reasons[]`). */
export interface MarketoReason {
  code: string;
  message: string;
}

/**
 * Entries read of errors[] (each cut to 300 characters): all of them decide what to do (a 606 may come
 * late in the list); a message names the first few (service-codes.ts). The bound keeps a hostile answer small.
 */
const MAX_ERRORS = 1_000;

const KNOWN_KEYS = new Set([
  "requestId",
  "success",
  "result",
  "errors",
  "warnings",
  "nextPageToken",
  "moreResult",
]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown, max = 300): string {
  const s = typeof value === "string" ? value : value === undefined || value === null ? "" : String(value);
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

function reason(value: unknown): MarketoReason {
  return isRecord(value)
    ? { code: text(value.code), message: text(value.message) }
    : { code: "", message: text(value) };
}

/**
 * Records with status "skipped" carry `reasons` (an array on the wire, although the Swagger Lead
 * schema says singular `reason`) and no `id`; the input index is the only way to match them.
 */
function recordErrors(result: unknown[]): MarketoRecordError[] {
  const errors: MarketoRecordError[] = [];
  result.forEach((item, index) => {
    if (!isRecord(item)) return;
    const raw = Array.isArray(item.reasons) ? item.reasons : item.reason !== undefined ? [item.reason] : [];
    const status = typeof item.status === "string" ? item.status : "";
    if (status !== "skipped" && raw.length === 0) return;
    errors.push({
      index,
      ...(typeof item.id === "number" ? { id: item.id } : {}),
      status: status || "error",
      reasons: raw.map(reason),
    });
  });
  return errors;
}

/** Asset warnings are strings; Lead DB warnings may be `{code, message}` objects. */
function warnings(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.map((w) => {
    if (typeof w === "string") return w;
    const r = reason(w);
    return r.code ? `${r.code}: ${r.message}` : r.message;
  });
}

export function parseEnvelope(body: unknown): Envelope | undefined {
  if (!isRecord(body)) return undefined;
  const requestId = typeof body.requestId === "string" ? body.requestId : undefined;
  if (body.success === false) {
    // Every entry counts: a call can fail for several reasons at once, and the one that says what to
    // retry (601, 606, 615...) is not always the first.
    const errors = Array.isArray(body.errors) ? body.errors.slice(0, MAX_ERRORS).map(reason) : [];
    return { ok: false, errors: errors.length > 0 ? errors : [{ code: "", message: "" }], requestId };
  }
  const result = Array.isArray(body.result) ? body.result : [];
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) if (!KNOWN_KEYS.has(key)) extra[key] = value;
  const page: MarketoPage = {
    result,
    requestId,
    warnings: warnings(body.warnings),
    recordErrors: recordErrors(result),
    extra,
  };
  if (typeof body.nextPageToken === "string" && body.nextPageToken !== "")
    page.nextPageToken = body.nextPageToken;
  if (typeof body.moreResult === "boolean") page.moreResult = body.moreResult;
  return { ok: true, page };
}

/** Asset browse calls answer "No assets found for the given search criteria." with no result key. */
export function isNoAssetsWarning(page: MarketoPage): boolean {
  return page.warnings.some((w) => /no assets found/i.test(w));
}
