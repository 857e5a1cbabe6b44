import { linkedSignal } from "../../deadline.js";
import type { HttpPlan } from "./url.js";

/** The response of one exchange, body already read (so the concurrency slot covers the whole exchange). */
export interface HttpResponse {
  status: number;
  contentType: string;
  /** The body as text; empty for the content of a bulk export file (see `bytes`). */
  text: string;
  /** A bulk export file's content as sent: a Range may end inside a multi-byte character. */
  bytes?: Uint8Array;
  /** Content-Range of a 206 (or a 416) answer. */
  contentRange?: string;
}

/**
 * Why an exchange produced no response:
 * - not_sent: the connection was never made (refused, DNS), so nothing reached Marketo;
 * - sent: the connection broke after the request may have been sent (reset, socket closed);
 * - timeout: our per-request timeout fired;
 * - cancelled: the caller's AbortSignal fired.
 * The difference decides whether a POST may be replayed.
 */
export type FailurePhase = "not_sent" | "sent" | "timeout" | "cancelled" | "tls";

export class ExchangeFailure extends Error {
  readonly phase: FailurePhase;
  readonly errorCode: string | undefined;

  constructor(phase: FailurePhase, errorCode: string | undefined, cause: unknown) {
    super(`exchange failed (${phase}${errorCode ? `, ${errorCode}` : ""})`, { cause });
    this.phase = phase;
    this.errorCode = errorCode;
  }
}

const NOT_SENT = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/** undici wraps the socket error: TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } }). */
function errorCodeOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function classify(error: unknown, callerSignal: AbortSignal | undefined, timedOut: boolean): ExchangeFailure {
  if (callerSignal?.aborted) return new ExchangeFailure("cancelled", undefined, error);
  if (timedOut) return new ExchangeFailure("timeout", undefined, error);
  const code = errorCodeOf(error);
  if (code && NOT_SENT.has(code)) return new ExchangeFailure("not_sent", code, error);
  if (code && /^(ERR_TLS|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|ERR_SSL)/.test(code)) {
    return new ExchangeFailure("tls", code, error);
  }
  return new ExchangeFailure("sent", code, error);
}

/**
 * One HTTP exchange on the platform fetch (undici), not ky: DESIGN.md prefers ky, but Marketo's replay
 * rules hinge on whether a failed request was sent (refused before sending / broken after / timed out),
 * and ky's retry and timeout layer folds those together. Retries live in the executor instead.
 * Redirects are not followed, so the Authorization header never reaches another host.
 */
export async function exchange(
  fetchImpl: typeof fetch,
  plan: HttpPlan,
  authorization: string,
  timeoutMs: number,
  callerSignal: AbortSignal | undefined,
): Promise<HttpResponse> {
  const attempt = linkedSignal(
    callerSignal,
    timeoutMs,
    () => new DOMException("The operation was aborted due to timeout", "TimeoutError"),
  );
  const signal = attempt.signal;
  try {
    const response = await fetchImpl(plan.url, {
      method: plan.method,
      headers: { ...plan.headers, Authorization: authorization },
      body: plan.body,
      // Never follow a redirect: it would carry the Authorization header to whatever host it names.
      redirect: "manual",
      signal,
    });
    const contentType = response.headers.get("content-type") ?? "";
    const contentRange = response.headers.get("content-range") ?? undefined;
    const status = response.status;
    if (!plan.file) return { status, contentType, text: await response.text() };
    // A file's chunk stays bytes (its edges may split a character); an error answer is read as text.
    const bytes = new Uint8Array(await response.arrayBuffer());
    const content = (status === 200 || status === 206) && !/json/i.test(contentType);
    return {
      status,
      contentType,
      text: content ? "" : new TextDecoder().decode(bytes),
      ...(content ? { bytes } : {}),
      ...(contentRange ? { contentRange } : {}),
    };
  } catch (error) {
    throw classify(error, callerSignal, attempt.timedOut());
  } finally {
    attempt.clear();
  }
}
