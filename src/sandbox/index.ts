/**
 * The embedded sandbox: local emulators of Marketo, GA4 and Google OAuth. A separate program that
 * speaks HTTP; nothing in the product imports it except the CLI that starts it (and tests).
 */
import { type GoogleSandbox, type GoogleSandboxOptions, startGoogleSandbox } from "./google/index.js";
import { type MarketoSandbox, type MarketoSandboxOptions, startMarketoSandbox } from "./marketo/index.js";

export type { GoogleSandbox, GoogleSandboxOptions, MarketoSandbox, MarketoSandboxOptions };
export { startGoogleSandbox, startMarketoSandbox };

/** The user the pre-connected sandbox Google account signs in as (administrator on both sandbox accounts). */
export const SANDBOX_GOOGLE_USER = "analyst@sandbox.example";

/** Environment that points the connectors at running sandboxes. Sandbox credentials are public defaults. */
export function sandboxEnv(sandboxes: {
  marketo?: MarketoSandbox;
  google?: GoogleSandbox;
}): Record<string, string> {
  const env: Record<string, string> = {};
  if (sandboxes.marketo) {
    env.MARKETO_CLIENT_ID = sandboxes.marketo.clientId;
    env.MARKETO_CLIENT_SECRET = sandboxes.marketo.clientSecret;
    env.MARKETO_REST_ENDPOINT = sandboxes.marketo.restEndpoint;
  }
  if (sandboxes.google) {
    env.GA4_DATA_API_URL = sandboxes.google.dataApiUrl;
    env.GA4_ADMIN_API_URL = sandboxes.google.adminApiUrl;
    env.GOOGLE_OAUTH_URL = sandboxes.google.oauthUrl;
    env.GOOGLE_OAUTH_AUTHORIZE_URL = sandboxes.google.authorizeUrl;
    env.GOOGLE_OAUTH_CLIENT_ID = sandboxes.google.clientId;
    env.GOOGLE_OAUTH_CLIENT_SECRET = sandboxes.google.clientSecret;
  }
  return env;
}
