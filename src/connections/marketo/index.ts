/** The Marketo room: Client ID / Client Secret / REST endpoint of a LaunchPoint custom service. */
import type { MarketoConnector } from "../../connectors/marketo/connector.js";
import type { MarketoSandbox } from "../../sandbox/index.js";
import type { ConnectionRoom } from "../types.js";
import { MARKETO_COMMAND } from "./cli-command.js";
import { MARKETO_CLI_WORDS } from "./cli-words.js";
import { readMarketoCredentials } from "./credentials.js";
import { MARKETO_DEFINITION } from "./definition.js";
import { type MarketoHandle, openMarketo } from "./handle.js";
import { MARKETO_METRICS } from "./metrics.js";
import { MARKETO_PROMPTS } from "./prompts.js";
import { MARKETO_RESOURCES } from "./resources.js";
import { MARKETO_SANDBOX_COMMAND } from "./sandbox-command.js";

// Type-only: the room's part of WorkspaceSecrets, with nothing to load at run time (cold start).
export type { MarketoCredentials } from "./secrets.js";

export const MARKETO_ROOM: ConnectionRoom<
  "marketo",
  "marketo",
  MarketoConnector,
  MarketoHandle,
  MarketoSandbox
> = {
  kind: "marketo",
  label: "Marketo",
  product: "Adobe Marketo Engage",
  service: "marketo",
  definition: MARKETO_DEFINITION,
  open: openMarketo,
  configured: async (context) => (await readMarketoCredentials(context)) !== undefined,
  metrics: MARKETO_METRICS,
  prompts: MARKETO_PROMPTS,
  resources: MARKETO_RESOURCES,
  cli: { ...MARKETO_CLI_WORDS, command: MARKETO_COMMAND },
  sandbox: async () => (await import("./sandbox.js")).MARKETO_SANDBOX,
  sandboxCommand: MARKETO_SANDBOX_COMMAND,
};
