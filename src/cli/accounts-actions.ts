/**
 * What `martech-steps accounts client|connect|import|list|remove` do, loaded only when one of them runs:
 * `serve` registers the commands (for help and parsing) without loading the sign-in and import flows
 * (cold start is measured by the bench).
 */
import { spawn } from "node:child_process";
import { StoreUnreadableError } from "../auth/credential-store.js";
import type { AccountSummary } from "../auth/google/accounts.js";
import type { RevokeResult } from "../auth/google/index.js";
import { connectedWords, readOnlyAccount, saveGoogleClient } from "../connections/google/configure.js";
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

export async function clientAction(options: { clientId?: string; workspace: string }): Promise<void> {
  await withWorkspace(options.workspace, async (workspace) => {
    const clientId = (options.clientId ?? (await prompt("OAuth Client ID", "--client-id"))).trim();
    if (!clientId) throw new ValidationError("OAuth Client ID", "it is empty.");
    const clientSecret = await readSecret("OAuth Client Secret");
    await saveGoogleClient(workspace.secrets, { clientId, clientSecret });
    process.stderr.write(`Google OAuth client saved for workspace "${workspace.name}".\n`);
  });
}

export async function connectAction(options: {
  label?: string;
  browser: boolean;
  workspace: string;
}): Promise<void> {
  await withWorkspace(options.workspace, async (workspace) => {
    const summary = await workspace.connectAccount({
      ...(options.label ? { label: options.label } : {}),
      onUrl: (url) => process.stderr.write(`Open this URL to sign in and allow access:\n  ${url}\n`),
      ...(options.browser ? { openBrowser } : {}),
    });
    process.stderr.write(`${connectedWords(summary, "Connected")}\n`);
    warnIfReadOnly(summary);
  });
}

export async function importAction(options: ImportOptions): Promise<void> {
  const file = importFile(options);
  await withWorkspace(options.workspace, async (workspace) => {
    const summary = await workspace.importAccount({
      label: options.label,
      file,
      ...(options.subject !== undefined ? { subject: options.subject } : {}),
    });
    process.stderr.write(`${connectedWords(summary, "Imported")}\n`);
    if (summary.serviceAccount && !options.subject) {
      process.stderr.write(
        `Google Analytics sees it as ${summary.serviceAccount}: add that email to each property it should read (Admin > Property access management).\n`,
      );
    }
    warnIfReadOnly(summary);
  });
}

export async function listAction(options: { workspace: string }): Promise<void> {
  await withWorkspace(options.workspace, async (workspace) => printJson(await workspace.accounts.list()));
}

export async function removeAction(
  label: string,
  options: { workspace: string; force?: boolean },
): Promise<void> {
  const { revoked, reason, advice } = await withWorkspace(options.workspace, (workspace) =>
    removeAccount(workspace, label, Boolean(options.force)),
  );
  process.stderr.write(
    revoked
      ? `Removed "${label}" and revoked its access at Google.\n`
      : `Removed "${label}" without revoking it (${reason ?? "Google did not confirm the revocation"}): ${advice ?? "also remove access at https://myaccount.google.com/permissions"}.\n`,
  );
}

export interface ImportOptions {
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
