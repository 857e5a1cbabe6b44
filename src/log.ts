import { createRequire } from "node:module";
import type { Logger } from "pino";
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
  // A service account's key (stored record and key file spellings) and the assertion signed with it.
  "*.privateKey",
  "*.private_key",
  "*.assertion",
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

/** pino's level numbers; "silent" is above every line. */
const RANK: Record<string, number> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Number.POSITIVE_INFINITY,
};

const LEVEL = importLevel();

let logger: Logger | undefined;

/**
 * Logs go to stderr only: stdout carries the MCP stdio protocol. Fields that could hold a secret are
 * redacted by path, every known credential is cut out of the line, and no code logs a request URL with
 * credentials or an Authorization header. pino (and the streams and worker threads it loads) is loaded
 * at the first line written, not at import: most runs of a command write none, and stdio cold start is
 * measured by the bench. It is CommonJS, so it loads synchronously.
 */
function pinoLogger(): Logger {
  if (!logger) {
    const { pino, destination } = createRequire(import.meta.url)("pino") as typeof import("pino");
    logger = pino(
      {
        level: LEVEL,
        base: undefined,
        redact: {
          paths: [...LOG_REDACT_PATHS],
          censor: "[redacted]",
        },
        hooks: { streamWrite: scrubLogLine },
      },
      destination({ dest: 2, sync: true }),
    );
  }
  return logger;
}

type LogMethod = (fields: object, message?: string) => void;

/** Whether lines of `level` are written (pino's isLevelEnabled, answered without loading pino). */
function isLevelEnabled(level: string): boolean {
  const rank = RANK[level];
  return rank !== undefined && rank !== RANK.silent && rank >= (RANK[LEVEL] ?? RANK.info!);
}

function method(level: "debug" | "info" | "warn" | "error"): LogMethod {
  return (fields, message) => {
    if (isLevelEnabled(level)) pinoLogger()[level](fields, message);
  };
}

/** The package's logger: pino's methods, on stderr, at MARTECH_STEPS_LOG_LEVEL (read at import). */
export const log = {
  debug: method("debug"),
  info: method("info"),
  warn: method("warn"),
  error: method("error"),
  isLevelEnabled,
};
