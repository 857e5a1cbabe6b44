/**
 * `martech-steps accounts client|connect|import|list|remove`: the Google room's command, as the CLI registers
 * it at every start (src/cli/room-commands.ts). What each subcommand does is cli-actions.ts, loaded when one
 * runs: `serve` registers the commands (for help and parsing) without loading the sign-in and import flows
 * (cold start is measured by the bench).
 */
import type { RoomCommand } from "../types.js";
import type { ConnectOptions, ImportOptions } from "./cli-actions.js";
import type { GoogleHandle } from "./handle.js";

/** The actions, imported when an accounts command runs (not when `serve` starts). */
const actions = () => import("./cli-actions.js");

export const GOOGLE_ACCOUNTS_COMMAND: RoomCommand<GoogleHandle> = {
  name: "accounts",
  description: "Connect, list and remove the workspace's Google accounts (Google Analytics 4).",
  subcommands: [
    {
      name: "client",
      description:
        "Save the Google OAuth client (Desktop app) used to connect accounts; the secret is read from stdin or a prompt.",
      options: [
        {
          flags: "--client-id <id>",
          description: "OAuth client ID, e.g. 1234-abc.apps.googleusercontent.com",
        },
      ],
      run: async (context, options: { clientId?: string }) =>
        (await actions()).clientAction(context, options),
    },
    {
      name: "connect",
      description:
        "Connect a Google account: sign in in the browser (authorization code + PKCE, loopback redirect).",
      options: [
        {
          flags: "--label <label>",
          description: "name to choose this account by in tool steps (default: from the email)",
        },
        { flags: "--no-browser", description: "only print the URL" },
      ],
      run: async (context, options: ConnectOptions) => (await actions()).connectAction(context, options),
    },
    {
      name: "import",
      description:
        "Add an account for a headless server: a service account's JSON key (--key-file, optionally acting as a Workspace user with --subject), or a refresh token file (a bare token, or gcloud's authorized_user JSON).",
      options: [
        { flags: "--label <label>", description: "name to choose this account by", required: true },
        {
          flags: "--key-file <file>",
          description:
            "a service account's JSON key (Cloud console > IAM & Admin > Service accounts > Keys); add its client_email to each GA property",
        },
        {
          flags: "--refresh-token-file <file>",
          description: "file holding the refresh token or authorized_user JSON",
        },
        {
          flags: "--subject <email>",
          description: "with --key-file: the Google Workspace user to act as (domain-wide delegation)",
        },
      ],
      run: async (context, options: ImportOptions) => (await actions()).importAction(context, options),
    },
    {
      name: "list",
      description: "List connected accounts (label, email, scopes, when added; never a token).",
      options: [],
      run: async (context) => (await actions()).listAction(context),
    },
    {
      name: "remove",
      description:
        "Revoke the account's access at Google and forget it; the analytics data is untouched. With --force, also when the store cannot be opened (then it is kept aside).",
      argument: { name: "<label>", description: "account label" },
      options: [
        {
          flags: "--force",
          description:
            "when the workspace's store cannot be opened (damaged, or another key): keep it aside and start over, losing its other connections",
        },
      ],
      run: async (context, options, label) =>
        (await actions()).removeAction(context, label ?? "", options.force === true),
    },
  ],
};
