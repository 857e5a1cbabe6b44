import pino from "pino";
import { ConfigurationError } from "./errors.js";
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

/** pino's levels, quietest last. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/**
 * The level `MARTECH_STEPS_LOG_LEVEL` asks for (default info). pino itself throws an internal stack
 * ("default level:… must be included in custom levels") on an unknown name; this names the variable
 * and the accepted values instead. The CLI checks it before any command runs.
 */
export function logLevel(env: NodeJS.ProcessEnv = process.env): string {
  const value = env.MARTECH_STEPS_LOG_LEVEL;
  if (value === undefined || value === "") return "info";
  const level = value.trim().toLowerCase();
  if ((LOG_LEVELS as readonly string[]).includes(level)) return level;
  throw new ConfigurationError(`MARTECH_STEPS_LOG_LEVEL is "${value}".`, {
    hint: `Accepted: ${LOG_LEVELS.join(", ")} (default info).`,
  });
}

/** At import, an unknown level must not crash a program that only imports the package: it logs at info. */
function importLevel(): string {
  try {
    return logLevel();
  } catch {
    return "info";
  }
}

/**
 * Logs go to stderr only: stdout carries the MCP stdio protocol. Fields that could hold a secret are
 * redacted by path, every known credential is cut out of the line, and no code logs a request URL with
 * credentials or an Authorization header.
 */
export const log = pino(
  {
    level: importLevel(),
    base: undefined,
    redact: {
      paths: [...LOG_REDACT_PATHS],
      censor: "[redacted]",
    },
    hooks: { streamWrite: scrubLogLine },
  },
  pino.destination({ dest: 2, sync: true }),
);
