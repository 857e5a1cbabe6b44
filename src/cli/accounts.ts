import type { Command } from "commander";
import { DEFAULT_WORKSPACE } from "../workspace.js";
import type { ImportOptions } from "./accounts-actions.js";

/** The actions, imported when an accounts command runs (not when `serve` starts). */
const actions = () => import("./accounts-actions.js");

/** `martech-steps accounts ...` (the Google room); returns the command, so program.ts knows it opens the store. */
export function registerAccountCommands(program: Command): Command {
  const accounts = program
    .command("accounts")
    .description("Connect, list and remove the workspace's Google accounts (Google Analytics 4).");
  registerClientCommand(accounts);
  registerConnectCommands(accounts);
  registerListAndRemoveCommands(accounts);
  return accounts;
}

/** `accounts client`: the OAuth client used to connect accounts. */
function registerClientCommand(accounts: Command): void {
  accounts
    .command("client")
    .description(
      "Save the Google OAuth client (Desktop app) used to connect accounts; the secret is read from stdin or a prompt.",
    )
    .option("--client-id <id>", "OAuth client ID, e.g. 1234-abc.apps.googleusercontent.com")
    .option("--workspace <name>", "workspace", DEFAULT_WORKSPACE)
    .action(async (options: { clientId?: string; workspace: string }) =>
      (await actions()).clientAction(options),
    );
}

/** `accounts connect` and `accounts import`: the two ways an account is added. */
function registerConnectCommands(accounts: Command): void {
  accounts
    .command("connect")
    .description(
      "Connect a Google account: sign in in the browser (authorization code + PKCE, loopback redirect).",
    )
    .option("--label <label>", "name to choose this account by in tool steps (default: from the email)")
    .option("--no-browser", "only print the URL")
    .option("--workspace <name>", "workspace", DEFAULT_WORKSPACE)
    .action(async (options: { label?: string; browser: boolean; workspace: string }) =>
      (await actions()).connectAction(options),
    );

  accounts
    .command("import")
    .description(
      "Add an account for a headless server: a service account's JSON key (--key-file, optionally acting as a Workspace user with --subject), or a refresh token file (a bare token, or gcloud's authorized_user JSON).",
    )
    .requiredOption("--label <label>", "name to choose this account by")
    .option(
      "--key-file <file>",
      "a service account's JSON key (Cloud console > IAM & Admin > Service accounts > Keys); add its client_email to each GA property",
    )
    .option("--refresh-token-file <file>", "file holding the refresh token or authorized_user JSON")
    .option(
      "--subject <email>",
      "with --key-file: the Google Workspace user to act as (domain-wide delegation)",
    )
    .option("--workspace <name>", "workspace", DEFAULT_WORKSPACE)
    .action(async (options: ImportOptions) => (await actions()).importAction(options));
}

/** `accounts list` and `accounts remove`. */
function registerListAndRemoveCommands(accounts: Command): void {
  accounts
    .command("list")
    .description("List connected accounts (label, email, scopes, when added; never a token).")
    .option("--workspace <name>", "workspace", DEFAULT_WORKSPACE)
    .action(async (options: { workspace: string }) => (await actions()).listAction(options));

  accounts
    .command("remove")
    .description(
      "Revoke the account's access at Google and forget it; the analytics data is untouched. With --force, also when the store cannot be opened (then it is kept aside).",
    )
    .argument("<label>", "account label")
    .option(
      "--force",
      "when the workspace's store cannot be opened (damaged, or another key): keep it aside and start over, losing its other connections",
    )
    .option("--workspace <name>", "workspace", DEFAULT_WORKSPACE)
    .action(async (label: string, options: { workspace: string; force?: boolean }) =>
      (await actions()).removeAction(label, options),
    );
}
