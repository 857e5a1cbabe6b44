import { parseRestEndpoint } from "../../connectors/marketo/url.js";
import { ConfigurationError } from "../../errors.js";
import type { RoomContext } from "../types.js";
import type { MarketoCredentials } from "./secrets.js";

/** The Marketo connection in use, and where it came from. */
export type ActiveMarketo = MarketoCredentials & { source: "environment" | "store" };

/** Marketo credentials: the environment (default workspace only) wins over the store. */
export async function readMarketoCredentials(
  context: Pick<RoomContext, "workspace" | "isDefault" | "env" | "store">,
): Promise<ActiveMarketo | undefined> {
  const env = context.env;
  if (context.isDefault && env.MARKETO_CLIENT_ID && env.MARKETO_CLIENT_SECRET && env.MARKETO_REST_ENDPOINT) {
    return {
      clientId: env.MARKETO_CLIENT_ID,
      clientSecret: env.MARKETO_CLIENT_SECRET,
      restEndpoint: env.MARKETO_REST_ENDPOINT,
      source: "environment",
    };
  }
  const stored = (await context.store.read(context.workspace)).marketo;
  return stored ? { ...stored, source: "store" } : undefined;
}

/** What a step is told when the workspace has no Marketo connection: who fixes it, and how. */
export function marketoNotConfigured(
  context: Pick<RoomContext, "workspace" | "isDefault">,
): ConfigurationError {
  // The MARKETO_* variables configure the default workspace only: one server process serves
  // several workspaces, and its environment must not become every tenant's connection.
  const how = context.isDefault
    ? "An admin runs `martech-steps marketo configure` (or sets MARKETO_CLIENT_ID, MARKETO_CLIENT_SECRET and MARKETO_REST_ENDPOINT)"
    : `An admin runs \`martech-steps marketo configure --workspace ${context.workspace}\` (the MARKETO_* variables apply to the default workspace only)`;
  return new ConfigurationError(`Marketo is not configured for workspace "${context.workspace}".`, {
    hint: `${how} with the Client ID, Client Secret and REST API Endpoint of a LaunchPoint custom service.`,
  });
}

/** A bad MARKETO_REST_ENDPOINT is named as the variable, which is where the user has to fix it. */
export function checkEnvEndpoint(value: string): void {
  try {
    parseRestEndpoint(value);
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    throw new ConfigurationError(
      error.message.replace(/^The Marketo REST endpoint /, "MARKETO_REST_ENDPOINT "),
    );
  }
}
