/** The Google room: the OAuth client, and the Google accounts connected with it (several per workspace). */
import type { GoogleAnalyticsConnector } from "../../connectors/google/connector.js";
import type { GoogleSandbox } from "../../sandbox/index.js";
import type { ConnectionRoom } from "../types.js";
import { GOOGLE_ACCOUNTS_COMMAND } from "./cli-command.js";
import { GOOGLE_CLI_WORDS } from "./cli-words.js";
import { GOOGLE_DEFINITION } from "./definition.js";
import { type GoogleHandle, googleConfigured, openGoogle } from "./handle.js";
import { googleLogWarnings } from "./log-warnings.js";
import { GOOGLE_METRICS } from "./metrics.js";
import { GOOGLE_PROMPTS } from "./prompts.js";
import { GOOGLE_SANDBOX_COMMAND } from "./sandbox-command.js";
import { GOOGLE_SIGN_IN } from "./sign-in.js";

// Type-only: the room's part of WorkspaceSecrets, with nothing to load at run time (cold start).
export type * from "./secrets.js";

export const GOOGLE_ROOM: ConnectionRoom<
  "google",
  "google_analytics",
  GoogleAnalyticsConnector,
  GoogleHandle,
  GoogleSandbox
> = {
  kind: "google",
  label: "Google Analytics",
  product: "Google Analytics 4",
  service: "google_analytics",
  definition: GOOGLE_DEFINITION,
  open: openGoogle,
  configured: googleConfigured,
  logWarnings: googleLogWarnings,
  metrics: GOOGLE_METRICS,
  prompts: GOOGLE_PROMPTS,
  chartAppStep: "google_analytics_run_reports",
  cli: { ...GOOGLE_CLI_WORDS, command: GOOGLE_ACCOUNTS_COMMAND },
  accounts: true,
  signIn: GOOGLE_SIGN_IN,
  sandbox: async () => (await import("./sandbox.js")).GOOGLE_SANDBOX,
  sandboxCommand: GOOGLE_SANDBOX_COMMAND,
};
