/**
 * What `martech-steps marketo configure|show|remove` do, loaded only when one of them runs: `serve`
 * registers the commands (for help and parsing) without paying for the configure flow at start
 * (cold start is measured by the bench).
 */
import { configureMarketo, parseRestEndpoint, removeMarketo } from "../connections/marketo/configure.js";
import type { SecretsTarget } from "../connections/types.js";
import { ConfigurationError, ValidationError } from "../errors.js";
import type { Workspace } from "../workspace.js";
import { printJson, prompt, readSecret } from "./io.js";
import { updateOrStartOver, withWorkspace } from "./workspace.js";

export interface ConfigureOptions {
  clientId?: string;
  endpoint?: string;
  verify: boolean;
  force?: boolean;
  workspace: string;
}

/** `--endpoint` is the user's input: a bad one is named as the flag, and exits 2 as invalid input. */
function endpointFlag(value: string): URL {
  try {
    return parseRestEndpoint(value);
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    throw new ValidationError("--endpoint", error.message.replace(/^The Marketo REST endpoint /, "it "));
  }
}

/** The workspace's entry, written with --force even when it cannot be opened (then it is kept aside). */
function startingOver(workspace: Workspace): SecretsTarget {
  return { ...workspace.secrets, update: (change) => updateOrStartOver(workspace, change) };
}

export async function configureAction(options: ConfigureOptions): Promise<void> {
  await withWorkspace(options.workspace, async (workspace) => {
    const clientId = (options.clientId ?? (await prompt("Client ID", "--client-id"))).trim();
    if (!clientId) throw new ValidationError("Client ID", "it is empty.");
    const origin = endpointFlag(options.endpoint ?? (await prompt("REST API Endpoint", "--endpoint")));
    const clientSecret = await readSecret("Client Secret");
    await configureMarketo(
      options.force ? startingOver(workspace) : workspace.secrets,
      { clientId, clientSecret, origin },
      {
        verify: options.verify,
        verified: () => process.stderr.write("Marketo accepted the credentials.\n"),
      },
    );
    process.stderr.write(
      `Marketo connection saved for workspace "${workspace.name}" (secret encrypted at rest).\n`,
    );
  });
}

export async function showAction(options: { workspace: string }): Promise<void> {
  await withWorkspace(options.workspace, async (workspace) => {
    const credentials = await workspace.handle("marketo").credentials();
    printJson(
      credentials
        ? {
            workspace: workspace.name,
            source: credentials.source,
            clientId: credentials.clientId,
            clientSecret: "set (hidden)",
            restEndpoint: credentials.restEndpoint,
          }
        : { workspace: workspace.name, configured: false },
    );
  });
}

export async function removeAction(options: { workspace: string }): Promise<void> {
  await withWorkspace(options.workspace, async (workspace) => {
    await removeMarketo(startingOver(workspace));
    process.stderr.write(`Marketo connection removed from workspace "${workspace.name}".\n`);
  });
}
