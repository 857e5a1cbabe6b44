/**
 * One small error hierarchy shared by every layer (modelled on ky's one-class-per-kind errors).
 *
 * Every error carries:
 * - `code`: a stable machine-readable kind (snake_case), used by adapters to map errors;
 * - `hint`: what the caller should do next, in one sentence;
 * - `details`: safe structured data (never a secret, a token or a URL with credentials).
 *
 * `message` is what an MCP client and a CLI user read verbatim, so it must never contain a
 * secret: McpServer copies `error.message` into `isError` results as it is. Connectors redact upstream
 * text where they read it (src/redact.ts); as a last line of defence every message, hint, detail and
 * cause is also checked here against every credential this process has sent.
 */
/**
 * What scrubs error text, details and causes of every credential this process has sent. src/redact.ts
 * installs the process-wide one when it loads; it is the only module that learns credentials, so until it
 * loads there is nothing to scrub. This module imports nothing, so that code shared with the browser
 * console (the wording of input errors) can build these errors too.
 */
export interface ErrorScrubber {
  text(text: string): string;
  value<T>(value: T): T;
  /** A cause with any credential in it (its chain, a request it holds) replaced, or the cause itself. */
  cause(cause: unknown): unknown;
}

let scrubber: ErrorScrubber | undefined;

export function installErrorScrubber(installed: ErrorScrubber): void {
  scrubber = installed;
}

/**
 * Safe structured data an error carries (never a secret, a token or a URL with credentials): the fields
 * its code defines, typed below, and any further safe fields the place that throws it adds.
 */
export interface SafeDetails {
  readonly [key: string]: unknown;
}

/**
 * The connections an error can be about: the kinds of src/connections/registry.ts, which declares them
 * here by declaration merging (this module imports nothing).
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the connection registry's declaration merging.
export interface ErrorConnections {}
export type ErrorConnection = keyof ErrorConnections;

export interface InvalidInputDetails extends SafeDetails {
  /** The input field at fault (also `ValidationError.field`). */
  field: string;
}
export interface NotConfiguredDetails extends SafeDetails {
  /** Which connection is missing: an adapter may offer to connect it (MCP URL elicitation for Google). */
  connection?: ErrorConnection;
  /** Set when the MCP adapter already sent the client a sign-in link. */
  elicitation?: "sent";
  /** The OAuth error Google answered for the client (invalid_client, unauthorized_client). */
  oauthError?: string;
}
export interface AuthenticationDetails extends SafeDetails {
  oauthError?: string;
  account?: string;
  status?: number;
}
export interface PermissionDetails extends SafeDetails {
  /** Google's ErrorInfo reason (SERVICE_DISABLED, ACCESS_TOKEN_SCOPE_INSUFFICIENT, ...). */
  reason?: string;
  account?: string;
  serviceCode?: string;
}
export interface RateLimitDetails extends SafeDetails {
  retryAfterMs: number;
}
export interface QuotaDetails extends SafeDetails {
  /** ISO 8601. */
  resetsAt?: string;
  serviceCode?: string;
}
export interface ServiceErrorDetails extends SafeDetails {
  serviceCode?: string;
  status?: number;
}
export interface DeadlineDetails extends SafeDetails {
  writeMayHaveHappened: boolean;
  deadlineMs?: number;
}

/** Every error code, with the details an error of that code carries. */
export interface ErrorDetailsByCode {
  invalid_input: InvalidInputDetails;
  not_configured: NotConfiguredDetails;
  authentication_failed: AuthenticationDetails;
  permission_denied: PermissionDetails;
  not_found: SafeDetails;
  rate_limited: RateLimitDetails;
  quota_exhausted: QuotaDetails;
  service_error: ServiceErrorDetails;
  unknown_outcome: SafeDetails;
  deadline_exceeded: DeadlineDetails;
  cancelled: SafeDetails;
  network_error: SafeDetails;
  store_lost: SafeDetails;
}

/** A stable machine-readable kind of error (snake_case), as MCP `_meta`, the console and the CLI show it. */
export type ErrorCode = keyof ErrorDetailsByCode;

export interface MartechErrorOptions<D extends SafeDetails = SafeDetails> {
  hint?: string;
  /** The fields the error class does not set itself (a RateLimitError sets retryAfterMs, ...). */
  details?: Partial<D>;
  cause?: unknown;
  /** True when the same call may succeed if repeated later unchanged. */
  retryable?: boolean;
}

/** An error's message without the hint the constructor appended to it (and without the space before it). */
export function withoutHint(error: { message: string; hint?: string | undefined }): string {
  const { hint, message } = error;
  return hint && message.endsWith(hint) ? message.slice(0, -hint.length).trimEnd() : message;
}

/** One class per code (below); `isMartechError` narrows to their union, so `code` discriminates `details`. */
export abstract class MartechError<C extends ErrorCode = ErrorCode> extends Error {
  abstract readonly code: C;
  readonly hint: string | undefined;
  readonly details: ErrorDetailsByCode[C];
  readonly retryable: boolean;

  constructor(message: string, options: MartechErrorOptions<ErrorDetailsByCode[C]> = {}) {
    const hint = options.hint === undefined ? undefined : (scrubber?.text(options.hint) ?? options.hint);
    const text = scrubber?.text(message) ?? message;
    const cause = options.cause === undefined ? undefined : (scrubber?.cause(options.cause) ?? options.cause);
    super(hint ? `${text} ${hint}` : text, { cause });
    this.name = new.target.name;
    this.hint = hint;
    // A subclass's constructor passes the fields its code requires (field, retryAfterMs, ...).
    const details = (options.details ?? {}) as ErrorDetailsByCode[C];
    this.details = scrubber?.value(details) ?? details;
    this.retryable = options.retryable ?? false;
  }

  /** A JSON-safe view for structured outputs and logs. */
  toJSON(): Record<string, unknown> {
    return { error: this.code, message: this.message, retryable: this.retryable, ...this.details };
  }
}

/** Bad input: names the field and what is accepted. Nothing was sent. */
export class ValidationError extends MartechError<"invalid_input"> {
  readonly code = "invalid_input";
  readonly field: string;

  constructor(field: string, message: string, options: MartechErrorOptions<InvalidInputDetails> = {}) {
    super(`Invalid ${field}: ${message}`, { ...options, details: { field, ...options.details } });
    this.field = field;
  }

  /**
   * One error for several field problems, named after the first: "Invalid a: why." for one problem,
   * "Invalid a: why; b: why." for several (the first field is named once, by the prefix; each other problem
   * says which field it is about).
   */
  static fromIssues(
    issues: readonly { field: string; message: string }[],
    options: MartechErrorOptions<InvalidInputDetails> = {},
  ): ValidationError {
    const first = issues[0] ?? { field: "input", message: "it is not valid" };
    const text =
      issues.length <= 1
        ? first.message
        : [first.message, ...issues.slice(1).map((issue) => `${issue.field}: ${issue.message}`)].join("; ");
    return new ValidationError(first.field, /[.!?]$/.test(text) ? text : `${text}.`, options);
  }
}

/** A caller-supplied endpoint that could change host, scheme, port or API. Nothing was sent. */
export class EndpointNotAllowedError extends ValidationError {}

/** The connection (Marketo credentials, Google account) is missing or incomplete. */
export class ConfigurationError extends MartechError<"not_configured"> {
  readonly code = "not_configured";
}

/** The service refused the credentials (bad client id/secret, revoked refresh token). */
export class AuthenticationError extends MartechError<"authentication_failed"> {
  readonly code = "authentication_failed";
}

/** The credentials are valid but lack the role or permission the call needs. */
export class PermissionError extends MartechError<"permission_denied"> {
  readonly code = "permission_denied";
}

/** The resource or endpoint does not exist. */
export class NotFoundError extends MartechError<"not_found"> {
  readonly code = "not_found";
}

/** A short-term limit (calls per window, concurrency) was hit; `retryAfterMs` says when to retry. */
export class RateLimitError extends MartechError<"rate_limited"> {
  readonly code = "rate_limited";
  readonly retryAfterMs: number;

  constructor(message: string, retryAfterMs: number, options: MartechErrorOptions<RateLimitDetails> = {}) {
    super(message, { retryable: true, ...options, details: { retryAfterMs, ...options.details } });
    this.retryAfterMs = retryAfterMs;
  }
}

/** A long-term quota (Marketo daily calls, GA4 tokens per hour/day) is exhausted until `resetsAt`. */
export class QuotaExceededError extends MartechError<"quota_exhausted"> {
  readonly code = "quota_exhausted";
  readonly resetsAt: Date | undefined;

  constructor(message: string, resetsAt?: Date, options: MartechErrorOptions<QuotaDetails> = {}) {
    super(message, {
      ...options,
      details: { ...(resetsAt ? { resetsAt: resetsAt.toISOString() } : {}), ...options.details },
    });
    this.resetsAt = resetsAt;
  }
}

/** The service answered with an error that is none of the kinds above. */
export class UpstreamError extends MartechError<"service_error"> {
  readonly code = "service_error";
  /** The service's own error code ("1003", "INVALID_ARGUMENT", ...). */
  readonly serviceCode: string | undefined;
  readonly status: number | undefined;

  constructor(
    message: string,
    options: MartechErrorOptions<ServiceErrorDetails> & { serviceCode?: string; status?: number } = {},
  ) {
    super(message, {
      ...options,
      details: {
        ...(options.serviceCode ? { serviceCode: options.serviceCode } : {}),
        ...(options.status ? { status: options.status } : {}),
        ...options.details,
      },
    });
    this.serviceCode = options.serviceCode;
    this.status = options.status;
  }
}

/**
 * The connection failed or timed out after a request that changes data was sent: the service may
 * or may not have processed it. It is never replayed automatically.
 */
export class UnknownOutcomeError extends MartechError<"unknown_outcome"> {
  readonly code = "unknown_outcome";
}

/**
 * The call's overall deadline passed (MARTECH_STEPS_DEADLINE_MS, default 120 s), or a wait (rate window,
 * backoff) could not have ended before it. `writeMayHaveHappened` is true when a request that changes data
 * had been sent without an answer: its outcome is unknown and it must be checked before a retry.
 */
export class DeadlineExceededError extends MartechError<"deadline_exceeded"> {
  readonly code = "deadline_exceeded";
  readonly writeMayHaveHappened: boolean;

  constructor(
    message: string,
    options: MartechErrorOptions<DeadlineDetails> & { writeMayHaveHappened: boolean; deadlineMs?: number },
  ) {
    const { writeMayHaveHappened, deadlineMs, ...rest } = options;
    super(message, {
      retryable: !writeMayHaveHappened,
      ...rest,
      details: {
        writeMayHaveHappened,
        ...(deadlineMs !== undefined ? { deadlineMs } : {}),
        ...rest.details,
      },
    });
    this.writeMayHaveHappened = writeMayHaveHappened;
  }
}

/** The caller cancelled (MCP cancellation, Ctrl-C). */
export class CancelledError extends MartechError<"cancelled"> {
  readonly code = "cancelled";
}

/** Network failure or timeout before any response, on a call that is safe to report as failed. */
export class NetworkError extends MartechError<"network_error"> {
  readonly code = "network_error";
}

/**
 * The credential store no longer holds documents it held (Redis came back empty): every call of those
 * workspaces would fail as not configured. Readiness reports it (auth/readiness.ts).
 */
export class StoreLostError extends MartechError<"store_lost"> {
  readonly code = "store_lost";
}

/** Every kind of error, discriminated by `code`: narrowing on it types `details`. */
export type AnyMartechError =
  | ValidationError
  | ConfigurationError
  | AuthenticationError
  | PermissionError
  | NotFoundError
  | RateLimitError
  | QuotaExceededError
  | UpstreamError
  | UnknownOutcomeError
  | DeadlineExceededError
  | CancelledError
  | NetworkError
  | StoreLostError;

/** MartechError is abstract and each code has one class above, so every instance is one of the union. */
export function isMartechError(error: unknown): error is AnyMartechError {
  return error instanceof MartechError;
}
