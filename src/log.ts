import pino from "pino";
import { processRedactor } from "./redact.js";

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
 * The last step before a log line is written: every credential this process has sent (src/redact.ts)
 * is cut out of the serialized line, wherever it sits (a message, an error's cause, a field no redact
 * path names). The line stays one JSON object.
 */
export function scrubLogLine(line: string): string {
  if (!processRedactor.leaks(line)) return line;
  try {
    return `${JSON.stringify(processRedactor.value(JSON.parse(line)))}\n`;
  } catch {
    return `${JSON.stringify({ msg: "[log line withheld: it held a credential]" })}\n`;
  }
}

/**
 * Logs go to stderr only: stdout carries the MCP stdio protocol. Fields that could hold a secret are
 * redacted by path, every known credential is cut out of the line, and no code logs a request URL with
 * credentials or an Authorization header.
 */
export const log = pino(
  {
    level: process.env.MARTECH_STEPS_LOG_LEVEL ?? "info",
    base: undefined,
    redact: {
      paths: [...LOG_REDACT_PATHS],
      censor: "[redacted]",
    },
    hooks: { streamWrite: scrubLogLine },
  },
  pino.destination({ dest: 2, sync: true }),
);
