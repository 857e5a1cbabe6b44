import { type ExchangeAnswer, exchange as httpExchange } from "../http/index.js";
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

function asResponse(plan: HttpPlan, answer: ExchangeAnswer): HttpResponse {
  const { status, headers } = answer;
  const contentType = headers.get("content-type") ?? "";
  if (!plan.file || !answer.bytes) return { status, contentType, text: answer.text };
  const contentRange = headers.get("content-range") ?? undefined;
  // A file's chunk stays bytes (its edges may split a character); an error answer is read as text.
  const content = (status === 200 || status === 206) && !/json/i.test(contentType);
  return {
    status,
    contentType,
    text: content ? "" : new TextDecoder().decode(answer.bytes),
    ...(content ? { bytes: answer.bytes } : {}),
    ...(contentRange ? { contentRange } : {}),
  };
}

/**
 * One Marketo exchange through the connectors' shared one (../http): timeout and deadline, the
 * sent / not sent classification, the body-hang guard and manual redirects live there; Marketo's retry
 * policy lives in the executor. Throws AttemptFailure when no answer came.
 */
export async function exchange(
  fetchImpl: typeof fetch,
  plan: HttpPlan,
  auth: Record<string, string>,
  timeoutMs: number,
  callerSignal: AbortSignal | undefined,
): Promise<HttpResponse> {
  const answer = await httpExchange(
    fetchImpl,
    { method: plan.method, url: plan.url, headers: plan.headers, body: plan.body, bytes: plan.file === true },
    { timeoutMs, signal: callerSignal, auth },
  );
  return asResponse(plan, answer);
}
