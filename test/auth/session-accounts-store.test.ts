import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FileCredentialStore, MemoryCredentialStore } from "../../src/auth/credential-store.js";
import { GoogleAccounts } from "../../src/auth/google/accounts.js";
import { googleEndpointsFromEnv } from "../../src/auth/google/config.js";
import { serviceOf } from "../../src/auth/google/service.js";
import { SessionAccountsStore } from "../../src/auth/google/session-accounts-store.js";
import type { GoogleAccountRecord, GoogleService } from "../../src/auth/google/stored.js";
import { connectSandbox } from "../../src/cli/sandbox-wiring.js";
import { type GoogleSandbox, sandboxEnv, startGoogleSandbox } from "../../src/sandbox/index.js";
import { freshHome } from "../helpers/cli.js";

const quiet = { warn: () => undefined };
const GOOGLE: GoogleService = {
  oauthUrl: "https://oauth2.googleapis.com",
  dataApiUrl: "https://analyticsdata.googleapis.com",
  adminApiUrl: "https://analyticsadmin.googleapis.com",
};

function record(
  label: string,
  service: GoogleService,
  refreshToken = `${label}-refresh-token`,
): GoogleAccountRecord {
  return { label, scopes: [], addedAt: "2025-01-01T00:00:00.000Z", refreshToken, service };
}

describe("SessionAccountsStore: the user's store with the sandbox's accounts held in memory", () => {
  let google: GoogleSandbox | undefined;
  afterEach(async () => {
    await google?.close();
    google = undefined;
  });

  async function session() {
    google = await startGoogleSandbox();
    const env = { ...sandboxEnv({ google }) };
    const home = await freshHome("session-store-");
    const base = new FileCredentialStore({ home, env: {}, ...quiet });
    const sandbox = new MemoryCredentialStore();
    await connectSandbox(sandbox, "default", { marketo: undefined, google }, env);
    const store = new SessionAccountsStore({
      base,
      service: serviceOf(googleEndpointsFromEnv(env)),
      held: { default: (await sandbox.read("default")).googleAccounts },
    });
    /** Every byte of the user's store, decrypted, as one string to search. */
    const onDisk = async () => {
      const names = await readdir(join(home, "workspaces")).catch(() => [] as string[]);
      const files = await Promise.all(
        names.filter((n) => n.endsWith(".json")).map((n) => base.read(n.slice(0, -".json".length))),
      );
      const raw = await Promise.all(names.map((n) => readFile(join(home, "workspaces", n), "utf8")));
      return JSON.stringify(files) + raw.join("");
    };
    return {
      store,
      base,
      env,
      onDisk,
      sandboxToken: (await sandbox.read("default")).googleAccounts.sandbox!.refreshToken,
    };
  }

  it("shows the sandbox account, marked, and never writes it to the user's file", async () => {
    const { store, base, onDisk, sandboxToken } = await session();
    const accounts = new GoogleAccounts({
      store,
      workspace: "default",
      endpoints: googleEndpointsFromEnv({}),
    });
    expect(await accounts.list()).toEqual([expect.objectContaining({ label: "sandbox", sandbox: true })]);

    // Everything else is saved in the user's store, in the same write as the held account's view.
    await store.update("default", (current) => ({
      ...current,
      googleClient: { clientId: "1234-real.apps.googleusercontent.com", clientSecret: "GOCSPX-real" },
      googleAccounts: { ...current.googleAccounts, real: record("real", GOOGLE) },
    }));
    await store.update("acme", (current) => ({
      ...current,
      googleAccounts: { real: record("real", GOOGLE) },
    }));

    const stored = await base.read("default");
    expect(stored.googleClient?.clientId).toBe("1234-real.apps.googleusercontent.com");
    expect(Object.keys(stored.googleAccounts)).toEqual(["real"]);
    expect(Object.keys((await store.read("default")).googleAccounts).sort()).toEqual(["real", "sandbox"]);
    expect(Object.keys((await store.read("acme")).googleAccounts)).toEqual(["real"]);
    expect(await onDisk()).not.toContain(sandboxToken);
  });

  it("keeps an account connected on the sandbox's consent page in memory, in any workspace", async () => {
    const { store, base, env, onDisk } = await session();
    const sandboxService = serviceOf(googleEndpointsFromEnv(env));
    await store.update("acme", (current) => ({
      ...current,
      googleAccounts: { editor: record("editor", sandboxService, "editor-sandbox-token") },
    }));
    expect((await base.read("acme")).googleAccounts).toEqual({});
    expect((await store.read("acme")).googleAccounts.editor).toMatchObject({ sandbox: true });
    expect(await onDisk()).not.toContain("editor-sandbox-token");
  });

  it("leaves a stored account of the same label (the old banner's import) as it was, and removes only its own", async () => {
    const { store, base, env } = await session();
    const legacy = record("sandbox", GOOGLE, "legacy-token");
    await base.update("default", () => ({ googleAccounts: { sandbox: legacy } }));
    // The session's account wins while it runs...
    expect((await store.read("default")).googleAccounts.sandbox?.refreshToken).not.toBe("legacy-token");
    const accounts = new GoogleAccounts({
      store,
      workspace: "default",
      endpoints: googleEndpointsFromEnv(env),
      env,
    });
    // ...removing it revokes it at the sandbox (its own service) and forgets it from memory only.
    expect(await accounts.remove("sandbox")).toMatchObject({ revoked: true });
    expect((await base.read("default")).googleAccounts).toEqual({ sandbox: legacy });
    expect((await store.read("default")).googleAccounts).toEqual({ sandbox: legacy });
  });
});
