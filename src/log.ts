import pino from "pino";

/** Fields that could hold a secret, removed from every log line. */
export const LOG_REDACT_PATHS: readonly string[] = [
  "*.authorization",
  "*.Authorization",
  "headers.authorization",
  "*.clientSecret",
  "*.client_secret",
  "*.refreshToken",
  "*.refresh_token",
  "*.accessToken",
  "*.access_token",
  "*.token",
  // An HTTP client's error carries its request (with the Authorization header) and options.
  "err.request",
  "err.options",
  "err.cause.request",
  "err.cause.options",
  "*.headers",
];

/**
 * Logs go to stderr only: stdout carries the MCP stdio protocol. Fields that could hold a secret are
 * redacted by path, and no code logs a request URL with credentials or an Authorization header.
 */
export const log = pino(
  {
    level: process.env.MARTECH_STEPS_LOG_LEVEL ?? "info",
    base: undefined,
    redact: {
      paths: [...LOG_REDACT_PATHS],
      censor: "[redacted]",
    },
  },
  pino.destination({ dest: 2, sync: true }),
);
