/**
 * One classification of a failed HTTP attempt, shared by every connector: whether the request reached
 * the service decides whether a write may be replayed, so two connectors must never disagree on it.
 *
 * - `not_sent`: nothing reached the service (DNS failure, refused or unreachable, connect timeout, a
 *   reset during connect, a certificate refused in the TLS handshake): replaying anything is safe;
 * - `sent`: the service received the request (its status line arrived) and the answer was lost after;
 * - `unknown`: the request may or may not have been received (a reset or timeout after connecting,
 *   before any answer).
 * A write is replayed only when `not_sent`.
 */
export type Delivery = "not_sent" | "sent" | "unknown";

/** What went wrong, for messages and the retry policy. */
export type FailureKind = "dns" | "connect" | "tls" | "reset" | "timeout" | "cancelled";

export class AttemptFailure extends Error {
  readonly delivery: Delivery;
  readonly kind: FailureKind;
  /** The socket-level code (ECONNRESET, UND_ERR_CONNECT_TIMEOUT, DEPTH_ZERO_SELF_SIGNED_CERT...), if any. */
  readonly errorCode: string | undefined;

  constructor(kind: FailureKind, delivery: Delivery, errorCode: string | undefined, cause: unknown) {
    super(`HTTP attempt failed (${kind}, ${delivery}${errorCode ? `, ${errorCode}` : ""})`, { cause });
    this.name = "AttemptFailure";
    this.kind = kind;
    this.delivery = delivery;
    this.errorCode = errorCode;
  }
}

const DNS = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "EAI_NODATA", "EAI_NONAME"]);
/** The connection was never made (https://nodejs.org/api/errors.html#common-system-errors, undici's ConnectTimeoutError). */
const CONNECT = new Set(["ECONNREFUSED", "ENETUNREACH", "EHOSTUNREACH", "UND_ERR_CONNECT_TIMEOUT"]);
/** Certificate checks of the TLS handshake: they fail before a byte of the request is written. */
const CERTIFICATE =
  /^(CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|ERR_TLS_CERT_ALTNAME_INVALID$|HOSTNAME_MISMATCH$|ERR_TLS_HANDSHAKE_TIMEOUT$)/;
const TLS = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH$)/;

interface SocketFacts {
  code: string | undefined;
  syscall: string | undefined;
  bytesWritten: number | undefined;
}

/**
 * The first code in the error's cause chain, with its syscall and (undici's SocketError carries it) how
 * many bytes had been written. fetch wraps the socket error: TypeError("fetch failed", { cause }), and
 * undici's own errors may wrap another, so the chain is walked a few levels deep.
 */
function socketFacts(error: unknown): SocketFacts {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth += 1) {
    const { code, syscall, socket } = current as { code?: unknown; syscall?: unknown; socket?: unknown };
    if (typeof code === "string") {
      const written = (socket as { bytesWritten?: unknown } | undefined)?.bytesWritten;
      return {
        code,
        syscall: typeof syscall === "string" ? syscall : undefined,
        bytesWritten: typeof written === "number" ? written : undefined,
      };
    }
    current = (current as { cause?: unknown }).cause;
  }
  return { code: undefined, syscall: undefined, bytesWritten: undefined };
}

export interface FailureContext {
  /** The caller's signal (or the call's deadline) ended the attempt. */
  cancelled: boolean;
  /** The attempt's own timeout ended it. */
  timedOut: boolean;
  /** The status line had arrived: the failure happened while the body was read. */
  answered: boolean;
}

/** Classifies why an attempt produced no answer. */
export function classifyFailure(error: unknown, context: FailureContext): AttemptFailure {
  const after: Delivery = context.answered ? "sent" : "unknown";
  if (context.cancelled) return new AttemptFailure("cancelled", after, undefined, error);
  if (context.timedOut) return new AttemptFailure("timeout", after, undefined, error);
  const { code, syscall, bytesWritten } = socketFacts(error);
  if (code && DNS.has(code)) return new AttemptFailure("dns", "not_sent", code, error);
  if (code && CONNECT.has(code)) return new AttemptFailure("connect", "not_sent", code, error);
  if (code && TLS.test(code)) {
    return new AttemptFailure("tls", CERTIFICATE.test(code) ? "not_sent" : after, code, error);
  }
  // "connect ECONNRESET": the peer reset the connection while it was being made, before the request.
  // undici's "other side closed" says how much it wrote: nothing written is nothing sent.
  if (!context.answered && (syscall === "connect" || bytesWritten === 0)) {
    return new AttemptFailure("reset", "not_sent", code, error);
  }
  return new AttemptFailure("reset", after, code, error);
}

/**
 * The one replay rule: a read may be sent again after any fault but a cancellation or a refused
 * certificate (which a replay cannot fix); a write only when it never left (`not_sent`), since a write
 * that may have been received could be applied twice.
 */
export function mayReplay(failure: AttemptFailure, write: boolean): boolean {
  if (failure.kind === "cancelled" || failure.kind === "tls") return false;
  return write ? failure.delivery === "not_sent" : true;
}
