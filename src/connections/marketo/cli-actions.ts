/**
 * What `martech-steps marketo configure|show|remove` do (the command is cli-command.ts), loaded only when one
 * of them runs. The CLI opens the workspace and gives the terminal (src/cli/room-commands.ts).
 */
import { ConfigurationError, ValidationError } from "../../errors.js";
import type { RoomCommandContext } from "../types.js";
import { configureMarketo, parseRestEndpoint, removeMarketo } from "./configure.js";
import type { MarketoHandle } from "./handle.js";

type Context = RoomCommandContext<MarketoHandle>;

export type ConfigureOptions = {
  clientId?: string;
  endpoint?: string;
  verify: boolean;
  force?: boolean;
};

/** `--endpoint` is the user's input: a bad one is named as the flag, and exits 2 as invalid input. */
function endpointFlag(value: string): URL {
  try {
    return parseRestEndpoint(value);
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    throw new ValidationError("--endpoint", error.message.replace(/^The Marketo REST endpoint /, "it "));
  }
}

export async function configureAction(context: Context, options: ConfigureOptions): Promise<void> {
  const { terminal } = context;
  const clientId = (options.clientId ?? (await terminal.prompt("Client ID", "--client-id"))).trim();
  if (!clientId) throw new ValidationError("Client ID", "it is empty.");
  const origin = endpointFlag(options.endpoint ?? (await terminal.prompt("REST API Endpoint", "--endpoint")));
  const clientSecret = await terminal.readSecret("Client Secret");
  // With --force, written even when the store cannot be opened (then it is kept aside).
  await configureMarketo(
    options.force ? context.startingOver : context.secrets,
    { clientId, clientSecret, origin },
    { verify: options.verify, verified: () => terminal.say("Marketo accepted the credentials.") },
  );
  terminal.say(`Marketo connection saved for workspace "${context.workspace}" (secret encrypted at rest).`);
}

export async function showAction(context: Context): Promise<void> {
  const credentials = await context.handle.credentials();
  context.terminal.printJson(
    credentials
      ? {
          workspace: context.workspace,
          source: credentials.source,
          clientId: credentials.clientId,
          clientSecret: "set (hidden)",
          restEndpoint: credentials.restEndpoint,
        }
      : { workspace: context.workspace, configured: false },
  );
}

export async function removeAction(context: Context): Promise<void> {
  await removeMarketo(context.startingOver);
  context.terminal.say(`Marketo connection removed from workspace "${context.workspace}".`);
}
