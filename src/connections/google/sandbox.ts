/**
 * The Google room's sandbox wiring: the OAuth and GA4 emulator, and the pre-connected account
 * "sandbox", imported the ordinary way (one token request) into a sandbox-owned store only.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
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

/** A service account key the Google sandbox issued, in the sandbox's folder (removed with it). */
export const SANDBOX_KEY_FILE = "service-account-key.json";
const SANDBOX_SERVICE_ACCOUNT = "sandbox-reporter";

/**
 * Writes a JSON key of a sandbox service account that was added to sandbox account 100001 as a
 * Viewer, so `accounts import --key-file "$MARTECH_STEPS_HOME/service-account-key.json"` can be tried
 * offline (its private key is a sandbox value, valid only against this sandbox).
 */
async function writeServiceAccountKey(emulator: GoogleSandbox, home: string): Promise<void> {
  const key = await emulator.issueServiceAccountKey({
    name: SANDBOX_SERVICE_ACCOUNT,
    roles: { "100001": "viewer" },
  });
  await writeFile(join(home, SANDBOX_KEY_FILE), `${JSON.stringify(key, null, 2)}\n`, { mode: 0o600 });
}

/** `martech-steps sandbox`'s lines: the emulator, the connected account, and the key to try. */
function banner(emulator: GoogleSandbox, home: string): string[] {
  return [
    `Google sandbox (OAuth, GA4 Data and Admin APIs): ${emulator.url}`,
    `Google account "${SANDBOX_ACCOUNT}" (${SANDBOX_GOOGLE_USER}) is connected in the sandbox's own store`,
    `(MARTECH_STEPS_HOME=${home}); your own credential store is not touched.`,
    `A service account key (Viewer on sandbox account 100001) is in ${join(home, SANDBOX_KEY_FILE)}:`,
    `try it with martech-steps accounts import --label reporter --key-file "$MARTECH_STEPS_HOME/${SANDBOX_KEY_FILE}".`,
  ];
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
  banner,
  furnish: writeServiceAccountKey,
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
