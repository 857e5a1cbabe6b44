import pino from "pino";

/**
 * Logs go to stderr only: stdout carries the MCP stdio protocol. Fields that could hold a secret are
 * redacted by path, and no code logs a request URL with credentials or an Authorization header.
 */
export const log = pino(
  {
    level: process.env.MARTECH_STEPS_LOG_LEVEL ?? "info",
    base: undefined,
    redact: {
      paths: [
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
      ],
      censor: "[redacted]",
    },
  },
  pino.destination({ dest: 2, sync: true }),
);
