import type { Command } from "commander";
import { configureMarketo, parseRestEndpoint, removeMarketo } from "../connections/marketo/configure.js";
import type { SecretsTarget } from "../connections/types.js";
import { ConfigurationError, ValidationError } from "../errors.js";
import { DEFAULT_WORKSPACE, type Workspace } from "../workspace.js";
import { printJson, prompt, readSecret } from "./io.js";
import { updateOrStartOver, withWorkspace } from "./workspace.js";

interface ConfigureOptions {
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

/** `martech-steps marketo configure|show|remove`; returns the command, so program.ts knows it opens the store. */
export function registerMarketoCommands(program: Command): Command {
  const marketo = program
    .command("marketo")
    .description("Configure the workspace's Marketo connection (admins).");

  marketo
    .command("configure")
    .description(
      "Save Client ID, Client Secret (read from stdin or a hidden prompt, never a flag) and REST API Endpoint.",
    )
    .option("--client-id <id>", "Client ID of the LaunchPoint custom service")
    .option("--endpoint <url>", "REST API Endpoint, e.g. https://123-ABC-456.mktorest.com/rest")
    .option("--no-verify", "save without asking Marketo for a token first (offline set-up)")
    .option(
      "--force",
      "save even if the workspace's store cannot be opened (damaged, or another key): it is kept aside and its other connections are lost",
    )
    .option("--workspace <name>", "workspace", DEFAULT_WORKSPACE)
    .action(async (options: ConfigureOptions) => {
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
    });

  marketo
    .command("show")
    .description("Show the Marketo connection (never the secret).")
    .option("--workspace <name>", "workspace", DEFAULT_WORKSPACE)
    .action(async (options: { workspace: string }) => {
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
    });

  marketo
    .command("remove")
    .description(
      "Forget the workspace's stored Marketo connection (also when the store cannot be opened: then it is kept aside).",
    )
    .option("--workspace <name>", "workspace", DEFAULT_WORKSPACE)
    .action(async (options: { workspace: string }) => {
      await withWorkspace(options.workspace, async (workspace) => {
        await removeMarketo(startingOver(workspace));
        process.stderr.write(`Marketo connection removed from workspace "${workspace.name}".\n`);
      });
    });
  return marketo;
}
