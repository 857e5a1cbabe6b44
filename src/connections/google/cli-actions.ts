/**
 * What `martech-steps accounts client|connect|import|list|remove` do (the command is cli-command.ts), loaded
 * only when one of them runs. The CLI opens the workspace and gives the terminal (src/cli/room-commands.ts).
 */

import { StoreUnreadableError } from "../../auth/credential-store.js";
import type { AccountSummary } from "../../auth/google/accounts.js";
import type { RevokeResult } from "../../auth/google/index.js";
import { ConfigurationError, ValidationError } from "../../errors.js";
import type { RoomCommandContext } from "../types.js";
import { connectedWords, readOnlyAccount, saveGoogleClient } from "./configure.js";
import type { GoogleHandle } from "./handle.js";

type Context = RoomCommandContext<GoogleHandle>;

export type ConnectOptions = {
  label?: string;
  browser: boolean;
};

export type ImportOptions = {
  label: string;
  keyFile?: string;
  refreshTokenFile?: string;
  subject?: string;
};

/** With Google's granular consent a user may untick "edit": reading works, creating will not. */
function warnIfReadOnly(context: Context, summary: AccountSummary): void {
  if (readOnlyAccount(summary.scopes)) {
    context.terminal.say(
      `Warning: "${summary.label}" may only read Google Analytics (the edit permission was not granted): ` +
        "Create Key Events and Create properties will be refused. Connect it again and allow editing to use them.",
    );
  }
}

/**
 * Removes an account. When the store cannot be opened, its labels cannot be read: whether the account
 * is there is unknown (a typo would otherwise wipe the workspace), so only --force starts over, with
 * the old document kept aside and the account forgotten unrevoked (its token cannot be read either).
 */
async function removeAccount(context: Context, label: string, force: boolean): Promise<RevokeResult> {
  try {
    const outcome = await context.handle.accounts.remove(label);
    context.accountsChanged();
    return outcome;
  } catch (error) {
    if (!(error instanceof StoreUnreadableError)) throw error;
    if (!force) {
      const flag = context.isDefault ? "" : ` --workspace ${context.workspace}`;
      throw new ConfigurationError(
        `The credential store of workspace "${context.workspace}" cannot be opened (${error.reason === "damaged" ? "damaged" : "written with another key"}), so whether "${label}" is connected cannot be checked: nothing was removed.`,
        {
          hint: `To forget every connection of this workspace and start over (the unreadable file is kept aside), run: martech-steps accounts remove ${label} --force${flag}`,
        },
      );
    }
    await context.startingOver.update((current) => {
      const { [label]: _removed, ...rest } = current.googleAccounts;
      return { ...current, googleAccounts: rest };
    });
    context.accountsChanged();
    return { revoked: false, reason: "the store could not be opened, so the token could not be read" };
  }
}

export async function clientAction(context: Context, options: { clientId?: string }): Promise<void> {
  const clientId = (
    options.clientId ?? (await context.terminal.prompt("OAuth Client ID", "--client-id"))
  ).trim();
  if (!clientId) throw new ValidationError("OAuth Client ID", "it is empty.");
  const clientSecret = await context.terminal.readSecret("OAuth Client Secret");
  await saveGoogleClient(context.secrets, { clientId, clientSecret });
  context.terminal.say(`Google OAuth client saved for workspace "${context.workspace}".`);
}

export async function connectAction(context: Context, options: ConnectOptions): Promise<void> {
  const { terminal } = context;
  const summary = await context.handle.accounts.connect({
    ...(options.label ? { label: options.label } : {}),
    onUrl: (url) => terminal.say(`Open this URL to sign in and allow access:\n  ${url}`),
    ...(options.browser ? { openBrowser: (url: string) => terminal.openBrowser(url) } : {}),
  });
  context.accountsChanged();
  terminal.say(connectedWords(summary, "Connected"));
  warnIfReadOnly(context, summary);
}

export async function importAction(context: Context, options: ImportOptions): Promise<void> {
  const file = importFile(options);
  const summary = await context.handle.accounts.importAccount({
    label: options.label,
    file,
    ...(options.subject !== undefined ? { subject: options.subject } : {}),
  });
  context.accountsChanged();
  context.terminal.say(connectedWords(summary, "Imported"));
  if (summary.serviceAccount && !options.subject) {
    context.terminal.say(
      `Google Analytics sees it as ${summary.serviceAccount}: add that email to each property it should read (Admin > Property access management).`,
    );
  }
  warnIfReadOnly(context, summary);
}

export async function listAction(context: Context): Promise<void> {
  context.terminal.printJson(await context.handle.accounts.list());
}

export async function removeAction(context: Context, label: string, force: boolean): Promise<void> {
  const { revoked, reason, advice } = await removeAccount(context, label, force);
  context.terminal.say(
    revoked
      ? `Removed "${label}" and revoked its access at Google.`
      : `Removed "${label}" without revoking it (${reason ?? "Google did not confirm the revocation"}): ${advice ?? "also remove access at https://myaccount.google.com/permissions"}.`,
  );
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
