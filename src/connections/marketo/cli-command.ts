/**
 * `martech-steps marketo configure|show|remove`: the Marketo room's command, as the CLI registers it at every
 * start (src/cli/room-commands.ts). What each subcommand does is cli-actions.ts, loaded when one runs: `serve`
 * registers the commands (for help and parsing) without paying for the configure flow at start (cold start
 * is measured by the bench).
 */
import type { RoomCommand } from "../types.js";
import type { ConfigureOptions } from "./cli-actions.js";
import type { MarketoHandle } from "./handle.js";

/** The actions, imported when a marketo command runs (not when `serve` starts). */
const actions = () => import("./cli-actions.js");

export const MARKETO_COMMAND: RoomCommand<MarketoHandle> = {
  name: "marketo",
  description: "Configure the workspace's Marketo connection (admins).",
  subcommands: [
    {
      name: "configure",
      description:
        "Save Client ID, Client Secret (read from stdin or a hidden prompt, never a flag) and REST API Endpoint.",
      options: [
        { flags: "--client-id <id>", description: "Client ID of the LaunchPoint custom service" },
        {
          flags: "--endpoint <url>",
          description: "REST API Endpoint, e.g. https://123-ABC-456.mktorest.com/rest",
        },
        {
          flags: "--no-verify",
          description: "save without asking Marketo for a token first (offline set-up)",
        },
        {
          flags: "--force",
          description:
            "save even if the workspace's store cannot be opened (damaged, or another key): it is kept aside and its other connections are lost",
        },
      ],
      run: async (context, options: ConfigureOptions) => (await actions()).configureAction(context, options),
    },
    {
      name: "show",
      description: "Show the Marketo connection (never the secret).",
      options: [],
      run: async (context) => (await actions()).showAction(context),
    },
    {
      name: "remove",
      description:
        "Forget the workspace's stored Marketo connection (also when the store cannot be opened: then it is kept aside).",
      options: [],
      run: async (context) => (await actions()).removeAction(context),
    },
  ],
};
