import { spawn } from "node:child_process";
import type { Command } from "commander";
import { StoreUnreadableError } from "../auth/credential-store.js";
import type { AccountSummary } from "../auth/google/accounts.js";
import type { RevokeResult } from "../auth/google/index.js";
import { readOnlyAccount, saveGoogleClient } from "../connections/google/configure.js";
import { ConfigurationError, ValidationError } from "../errors.js";
import { DEFAULT_WORKSPACE, type Workspace } from "../workspace.js";
import { printJson, prompt, readSecret } from "./io.js";
import { updateOrStartOver, withWorkspace } from "./workspace.js";

/** Best-effort browser launch; the URL is always printed too, for headless machines. */
function openBrowser(url: string): void {
  const command =
    process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open";
  try {
    const child = spawn(command, [url], { stdio: "ignore", detached: true });
    child.on("error", () => undefined);
    child.unref();
  } catch {
    // No browser here: the printed URL is enough.
  }
}

/** With Google's granular consent a user may untick "edit": reading works, creating will not. */
function warnIfReadOnly(summary: AccountSummary): void {
  if (readOnlyAccount(summary.scopes)) {
    process.stderr.write(
      `Warning: "${summary.label}" may only read Google Analytics (the edit permission was not granted): ` +
        "Create Key Events and Create properties will be refused. Connect it again and allow editing to use them.\n",
    );
  }
}

/**
 * Removes an account. When the store cannot be opened, its labels cannot be read: whether the account
 * is there is unknown (a typo would otherwise wipe the workspace), so only --force starts over, with
 * the old document kept aside and the account forgotten unrevoked (its token cannot be read either).
 */
async function removeAccount(workspace: Workspace, label: string, force: boolean): Promise<RevokeResult> {
  try {
    return await workspace.removeAccount(label);
  } catch (error) {
    if (!(error instanceof StoreUnreadableError)) throw error;
    if (!force) {
      const flag = workspace.name === DEFAULT_WORKSPACE ? "" : ` --workspace ${workspace.name}`;
      throw new ConfigurationError(
        `The credential store of workspace "${workspace.name}" cannot be opened (${error.reason === "damaged" ? "damaged" : "written with another key"}), so whether "${label}" is connected cannot be checked: nothing was removed.`,
        {
          hint: `To forget every connection of this workspace and start over (the unreadable file is kept aside), run: martech-steps accounts remove ${label} --force${flag}`,
        },
      );
    }
    await updateOrStartOver(workspace, (current) => {
      const { [label]: _removed, ...rest } = current.googleAccounts;
      return { ...current, googleAccounts: rest };
    });
    workspace.accountsChanged();
    return { revoked: false, reason: "the store could not be opened, so the token could not be read" };
  }
}

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
    .action(async (options: { clientId?: string; workspace: string }) => {
      await withWorkspace(options.workspace, async (workspace) => {
        const clientId = (options.clientId ?? (await prompt("OAuth Client ID", "--client-id"))).trim();
        if (!clientId) throw new ValidationError("OAuth Client ID", "it is empty.");
        const clientSecret = await readSecret("OAuth Client Secret");
        await saveGoogleClient(workspace.secrets, { clientId, clientSecret });
        process.stderr.write(`Google OAuth client saved for workspace "${workspace.name}".\n`);
      });
    });
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
    .action(async (options: { label?: string; browser: boolean; workspace: string }) => {
      await withWorkspace(options.workspace, async (workspace) => {
        const summary = await workspace.connectAccount({
          ...(options.label ? { label: options.label } : {}),
          onUrl: (url) => process.stderr.write(`Open this URL to sign in and allow access:\n  ${url}\n`),
          ...(options.browser ? { openBrowser } : {}),
        });
        process.stderr.write(`Connected "${summary.label}"${summary.email ? ` (${summary.email})` : ""}.\n`);
        warnIfReadOnly(summary);
      });
    });

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
    .action(async (options: ImportOptions) => {
      const file = importFile(options);
      await withWorkspace(options.workspace, async (workspace) => {
        const summary = await workspace.importAccount({
          label: options.label,
          file,
          ...(options.subject !== undefined ? { subject: options.subject } : {}),
        });
        process.stderr.write(`Imported "${summary.label}"${summary.email ? ` (${summary.email})` : ""}.\n`);
        if (summary.serviceAccount && !options.subject) {
          process.stderr.write(
            `Google Analytics sees it as ${summary.serviceAccount}: add that email to each property it should read (Admin > Property access management).\n`,
          );
        }
        warnIfReadOnly(summary);
      });
    });
}

interface ImportOptions {
  label: string;
  keyFile?: string;
  refreshTokenFile?: string;
  subject?: string;
  workspace: string;
}

/** Exactly one of the two files; both are read alike (the file's JSON says what it holds). */
function importFile(options: ImportOptions): string {
  const given = [options.keyFile, options.refreshTokenFile].filter((file) => file !== undefined);
  if (given.length !== 1) {
    throw new ValidationError(
      "--key-file",
      "give exactly one of --key-file (a service account's JSON key) and --refresh-token-file.",
    );
  }
  return given[0] as string;
}

/** `accounts list` and `accounts remove`. */
function registerListAndRemoveCommands(accounts: Command): void {
  accounts
    .command("list")
    .description("List connected accounts (label, email, scopes, when added; never a token).")
    .option("--workspace <name>", "workspace", DEFAULT_WORKSPACE)
    .action(async (options: { workspace: string }) => {
      await withWorkspace(options.workspace, async (workspace) => printJson(await workspace.accounts.list()));
    });

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
    .action(async (label: string, options: { workspace: string; force?: boolean }) => {
      const { revoked, reason, advice } = await withWorkspace(options.workspace, (workspace) =>
        removeAccount(workspace, label, Boolean(options.force)),
      );
      process.stderr.write(
        revoked
          ? `Removed "${label}" and revoked its access at Google.\n`
          : `Removed "${label}" without revoking it (${reason ?? "Google did not confirm the revocation"}): ${advice ?? "also remove access at https://myaccount.google.com/permissions"}.\n`,
      );
    });
}
