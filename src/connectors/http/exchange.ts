import { linkedSignal, raceAbort } from "../../deadline.js";
import { isMartechError } from "../../errors.js";
import { classifyFailure } from "./failure.js";

/** One request as a connector planned it: URL already joined and guarded, headers without authorization. */
export interface ExchangeRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string | undefined;
  /** Read the body as bytes (a file chunk whose edges may split a character) instead of text. */
  bytes?: boolean;
}

export interface ExchangeOptions {
  /** This attempt's limit, until the whole body is read. */
  timeoutMs: number;
  /** The call's signal (its deadline travels on it): it ends the attempt too. */
  signal: AbortSignal | undefined;
  /** The authentication headers of this attempt (see getRequestHeaders). */
  auth?: Record<string, string> | undefined;
}

/** An answer, body read (so a concurrency slot held around the exchange covers the whole of it). */
export interface ExchangeAnswer {
  status: number;
  headers: Headers;
  /** The body as text; empty when `bytes` was asked for. */
  text: string;
  bytes?: Uint8Array;
}

const timeoutReason = () => new DOMException("The operation was aborted due to timeout", "TimeoutError");

/**
 * One HTTP attempt on the platform fetch (undici), for every connector. A failure is thrown as an
 * AttemptFailure saying whether the request was sent (see failure.ts); retries are the caller's policy.
 *
 * - The attempt ends at `timeoutMs` or when the call's signal fires, whichever comes first.
 * - Redirects are never followed: a followed redirect would carry the Authorization header to
 *   whatever host it names. A 3xx is handed back as an answer for the connector to refuse.
 * - Our own listener on the signal as well as fetch's: undici follows a request's signal through a weak
 *   reference that a garbage collection can drop, after which a body that hangs is never aborted
 *   (https://github.com/nodejs/undici/issues/3644). The race ends the read at the timeout or deadline.
 */
export async function exchange(
  fetchImpl: typeof fetch,
  request: ExchangeRequest,
  options: ExchangeOptions,
): Promise<ExchangeAnswer> {
  const { signal: caller } = options;
  const attempt = linkedSignal(caller, options.timeoutMs, timeoutReason);
  const signal = attempt.signal;
  const aborted = () => signal.reason;
  let answered = false;
  try {
    const response = await raceAbort(
      fetchImpl(request.url, {
        method: request.method,
        headers: options.auth ? { ...request.headers, ...options.auth } : request.headers,
        body: request.body,
        redirect: "manual",
        signal,
      }),
      signal,
      aborted,
    );
    answered = true;
    // Free the connection too where undici no longer hears the signal (a locked body refuses; ignored).
    const onHang = () => {
      response.body?.cancel().catch(() => undefined);
      return aborted();
    };
    if (request.bytes) {
      const bytes = new Uint8Array(await raceAbort(response.arrayBuffer(), signal, onHang));
      return { status: response.status, headers: response.headers, text: "", bytes };
    }
    const text = await raceAbort(response.text(), signal, onHang);
    return { status: response.status, headers: response.headers, text };
  } catch (error) {
    // A typed error of our own (an injected fetch, a guard) is not a fault of the network.
    if (isMartechError(error)) throw error;
    throw classifyFailure(error, {
      cancelled: caller?.aborted === true,
      timedOut: attempt.timedOut() && caller?.aborted !== true,
      answered,
    });
  } finally {
    attempt.clear();
  }
}
