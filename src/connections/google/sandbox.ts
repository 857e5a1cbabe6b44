/**
 * The Google room's sandbox wiring: the OAuth and GA4 emulator, and the pre-connected account
 * "sandbox", imported the ordinary way (one token request) into a sandbox-owned store only.
 */
import { GoogleAccounts } from "../../auth/google/accounts.js";
import { googleEndpointsFromEnv } from "../../auth/google/config.js";
import { serviceOf } from "../../auth/google/service.js";
import { SessionAccountsStore } from "../../auth/google/session-accounts-store.js";
import { type CredentialStore, DEFAULT_WORKSPACE, MemoryCredentialStore } from "../../auth/store-core.js";
import { type GoogleSandbox, SANDBOX_GOOGLE_USER, startGoogleSandbox } from "../../sandbox/index.js";
import type { SandboxWiring } from "../types.js";

/** The label of the pre-connected sandbox Google account. */
export const SANDBOX_ACCOUNT = "sandbox";

async function connect(
  store: CredentialStore,
  workspace: string,
  emulator: GoogleSandbox,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const accounts = new GoogleAccounts({ store, workspace, endpoints: googleEndpointsFromEnv(env), env });
  await accounts.importAccount({
    label: SANDBOX_ACCOUNT,
    refreshToken: emulator.issueRefreshToken(SANDBOX_GOOGLE_USER),
  });
  // Marked, so that `accounts list` and the console show it as the sandbox's.
  await store.update(workspace, (current) => {
    const record = current.googleAccounts[SANDBOX_ACCOUNT];
    if (!record) return current;
    return {
      ...current,
      googleAccounts: { ...current.googleAccounts, [SANDBOX_ACCOUNT]: { ...record, sandbox: true } },
    };
  });
}

export const GOOGLE_SANDBOX: SandboxWiring<GoogleSandbox> = {
  start: (port) => startGoogleSandbox({ port }),
  env: (emulator) => ({
    GA4_DATA_API_URL: emulator.dataApiUrl,
    GA4_ADMIN_API_URL: emulator.adminApiUrl,
    GOOGLE_OAUTH_URL: emulator.oauthUrl,
    GOOGLE_OAUTH_AUTHORIZE_URL: emulator.authorizeUrl,
    GOOGLE_OAUTH_CLIENT_ID: emulator.clientId,
    GOOGLE_OAUTH_CLIENT_SECRET: emulator.clientSecret,
  }),
  connect,
  describe: (emulator) =>
    `sandbox at ${emulator.url} (account "${SANDBOX_ACCOUNT}", ${SANDBOX_GOOGLE_USER}, held by this server only, never saved)`,
  /**
   * The user's store, read and written as always (console saves, every workspace), with the sandbox's
   * Google account held in this process only: it never reaches the user's file.
   */
  async hold(base, emulator, env) {
    const sandbox = new MemoryCredentialStore();
    await connect(sandbox, DEFAULT_WORKSPACE, emulator, env);
    return new SessionAccountsStore({
      base,
      service: serviceOf(googleEndpointsFromEnv(env)),
      held: { [DEFAULT_WORKSPACE]: (await sandbox.read(DEFAULT_WORKSPACE)).googleAccounts },
    });
  },
};
