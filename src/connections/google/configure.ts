/**
 * The Google OAuth client's configure flow, once for every adapter (`martech-steps accounts client` and
 * the console's Google card). Connecting accounts is GoogleAccounts' (src/auth/google), reached through
 * the workspace.
 */
import type { AccountSummary } from "../../auth/google/accounts.js";
import { googleClientFrom, SCOPE_ANALYTICS, SCOPE_ANALYTICS_EDIT } from "../../auth/google/config.js";
import type { GoogleOAuthClient } from "../../auth/google/stored.js";
import type { RoomContext, SecretsTarget } from "../types.js";

/**
 * Whether an account may only read: with Google's granular consent a user may untick "edit". Reports
 * need analytics.readonly only; creating key events and properties needs edit.
 */
export function readOnlyAccount(scopes: readonly string[]): boolean {
  return !scopes.includes(SCOPE_ANALYTICS_EDIT) && !scopes.includes(SCOPE_ANALYTICS);
}

export async function saveGoogleClient(target: SecretsTarget, client: GoogleOAuthClient): Promise<void> {
  const googleClient = { clientId: client.clientId, clientSecret: client.clientSecret };
  await target.update((current) => ({ ...current, googleClient }));
}

export async function removeGoogleClient(target: SecretsTarget): Promise<void> {
  await target.update((current) => ({ ...current, googleClient: undefined }));
}

/** The stored client (not the environment's): what an empty secret field may keep. */
export async function savedGoogleClient(target: SecretsTarget): Promise<GoogleOAuthClient | undefined> {
  return (await target.read()).googleClient;
}

/** The client the environment sets (GOOGLE_OAUTH_CLIENT_ID and _SECRET), which wins over the stored one. */
export async function environmentGoogleClient(
  context: Pick<RoomContext, "workspace" | "env" | "store">,
): Promise<GoogleOAuthClient | undefined> {
  const env = context.env;
  if (!(env.GOOGLE_OAUTH_CLIENT_ID && env.GOOGLE_OAUTH_CLIENT_SECRET)) return undefined;
  return googleClientFrom(env, await context.store.read(context.workspace));
}

/**
 * What connecting or importing an account did, in the words every adapter prints (the CLI's `accounts
 * connect` and `import`, the console's callback page): the same Google account connected again replaces
 * the old one's credential under its label (src/auth/google/records.ts sameAccount), and says so.
 */
export function connectedWords(summary: AccountSummary, verb: "Connected" | "Imported"): string {
  const who = summary.email ?? summary.label;
  if (summary.replaced) {
    const what = summary.serviceAccount ? "key" : "token";
    if (summary.renamedFrom)
      return `${who} was already connected as "${summary.renamedFrom}"; it is now labelled "${summary.label}" and its ${what} was replaced (one entry per Google account).`;
    if (summary.labelRefused)
      return `${who} was already connected as "${summary.label}"; its ${what} was replaced, and it keeps that label: "${summary.labelRefused}" is another connected account's (one entry per Google account).`;
    return `${who} was already connected as "${summary.label}"; its ${what} was replaced (one entry per Google account).`;
  }
  return `${verb} "${summary.label}"${summary.email ? ` (${summary.email})` : ""}.`;
}
