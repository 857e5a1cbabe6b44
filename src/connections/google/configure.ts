/**
 * The Google OAuth client's configure flow, once for every adapter (`martech-steps accounts client` and
 * the console's Google card). Connecting accounts is GoogleAccounts' (src/auth/google), reached through
 * the workspace.
 */
import { adcFile } from "../../auth/google/adc.js";
import {
  DEFAULT_GOOGLE_ENDPOINTS,
  googleClientFrom,
  SCOPE_ANALYTICS,
  SCOPE_ANALYTICS_EDIT,
} from "../../auth/google/config.js";
import type { GoogleOAuthClient } from "../../auth/store-core.js";
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
 * Google counts as configured only by what can reach the real Google: an OAuth client (environment or
 * store), an account imported with its own client (a gcloud authorized_user file), a service account
 * imported for Google's token endpoint, or GOOGLE_APPLICATION_CREDENTIALS. A stored account
 * without a client, such as a sandbox account imported while the sandbox's variables were exported,
 * cannot refresh against Google and must not stop the sandbox from being used.
 */
export async function googleConfigured(
  context: Pick<RoomContext, "workspace" | "env" | "store">,
): Promise<boolean> {
  const secrets = await context.store.read(context.workspace);
  if (googleClientFrom(context.env, secrets)) return true;
  // GOOGLE_APPLICATION_CREDENTIALS is an account of the default workspace (src/auth/google/adc.ts).
  if (adcFile(context.env, context.workspace)) return true;
  // A service account needs no OAuth client, but only one whose key signs for Google's endpoint reaches it.
  return Object.values(secrets.googleAccounts).some(
    (account) =>
      account.client ||
      (account.serviceAccount && account.service?.oauthUrl === DEFAULT_GOOGLE_ENDPOINTS.oauthUrl),
  );
}
