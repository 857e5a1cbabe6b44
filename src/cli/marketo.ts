import type { Command } from "commander";
import { DEFAULT_WORKSPACE } from "../workspace.js";
import type { ConfigureOptions } from "./marketo-actions.js";

/** The actions, imported when a marketo command runs (not when `serve` starts). */
const actions = () => import("./marketo-actions.js");

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
    .action(async (options: ConfigureOptions) => (await actions()).configureAction(options));

  marketo
    .command("show")
    .description("Show the Marketo connection (never the secret).")
    .option("--workspace <name>", "workspace", DEFAULT_WORKSPACE)
    .action(async (options: { workspace: string }) => (await actions()).showAction(options));

  marketo
    .command("remove")
    .description(
      "Forget the workspace's stored Marketo connection (also when the store cannot be opened: then it is kept aside).",
    )
    .option("--workspace <name>", "workspace", DEFAULT_WORKSPACE)
    .action(async (options: { workspace: string }) => (await actions()).removeAction(options));
  return marketo;
}
