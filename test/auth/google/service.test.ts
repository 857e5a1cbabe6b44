import nock from "nock";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileCredentialStore } from "../../../src/auth/credential-store.js";
import { GoogleAccounts } from "../../../src/auth/google/accounts.js";
import type { GoogleEndpoints } from "../../../src/auth/google/config.js";
import { ConfigurationError } from "../../../src/errors.js";
import { Workspace } from "../../../src/workspace.js";
import {
  CLIENT,
  ENDPOINTS,
  GA_SCOPE_STRING,
  MemoryCredentialStore,
  OAUTH,
  seed,
} from "../../helpers/google-auth.js";
import { tempDir } from "../../helpers/temp.js";

const WS = "acme";
const SANDBOX = "http://127.0.0.1:4999";
const SANDBOX_ENDPOINTS: GoogleEndpoints = {
  oauthUrl: SANDBOX,
  dataApiUrl: SANDBOX,
  adminApiUrl: SANDBOX,
  authorizeUrl: `${SANDBOX}/o/oauth2/v2/auth`,
};

const accounts = (store: MemoryCredentialStore | FileCredentialStore, endpoints: GoogleEndpoints) =>
  new GoogleAccounts({ store, workspace: WS, endpoints, env: {} });

const refreshReply = { access_token: "ya29.sandbox", expires_in: 3599, scope: GA_SCOPE_STRING };

/** Every request that reaches Google's real token endpoint, which must stay empty. */
function watchGoogle(): { requests: string[] } {
  const seen = { requests: [] as string[] };
  nock(OAUTH)
    .persist()
    .post(/.*/)
    .reply((uri) => {
      seen.requests.push(uri);
      return [500, {}];
    });
  return seen;
}

beforeEach(() => nock.disableNetConnect());
afterEach(() => {
  nock.cleanAll();
  nock.enableNetConnect();
});

describe("a stored Google account belongs to the service it was connected to", () => {
  it("never sends a sandbox account's refresh token to Google's token endpoint", async () => {
    const store = new FileCredentialStore({ home: await tempDir("martech-svc-"), env: {} });
    await seed(store, WS);
    nock(SANDBOX).post("/token").reply(200, refreshReply);
    await accounts(store, SANDBOX_ENDPOINTS).importAccount({
      label: "sandbox",
      refreshToken: "1//sandbox-rt",
    });
    const record = (await store.read(WS)).googleAccounts.sandbox;
    expect(record?.service).toEqual({ oauthUrl: SANDBOX, dataApiUrl: SANDBOX, adminApiUrl: SANDBOX });

    // Later, without the sandbox variables: the endpoints are Google's own.
    const google = watchGoogle();
    const error = await accounts(store, ENDPOINTS)
      .tokenSource("sandbox")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(String(error)).toContain(
      `Google account "sandbox" belongs to another service than the one in use, so its token is not sent: GOOGLE_OAUTH_URL was ${SANDBOX} when it was connected and is ${OAUTH} now`,
    );
    expect(String(error)).toMatch(/accounts remove sandbox, then accounts connect or accounts import/);
    expect(String(error)).not.toContain("1//sandbox-rt");

    // The same through a workspace, as a tool step gets its connector, and on removal (no revoke sent).
    const workspace = new Workspace({
      name: WS,
      store,
      env: { GOOGLE_OAUTH_CLIENT_ID: "x", GOOGLE_OAUTH_CLIENT_SECRET: "y" },
    });
    await expect(workspace.connection("google", "sandbox")).rejects.toThrow(/belongs to another service/);
    const removed = await workspace.removeAccount("sandbox");
    expect(removed).toMatchObject({
      revoked: false,
      reason: expect.stringMatching(/^not sent for revocation: GOOGLE_OAUTH_URL was/),
    });
    await workspace.close();
    expect(google.requests).toEqual([]);
  });

  it("keeps using an account connected to Google with Google, and refuses it elsewhere", async () => {
    const store = new MemoryCredentialStore();
    await seed(store, WS);
    nock(OAUTH).post("/token").times(2).reply(200, refreshReply);
    await accounts(store, ENDPOINTS).importAccount({ label: "real", refreshToken: "1//real-rt" });
    expect(await (await accounts(store, ENDPOINTS).tokenSource("real")).getToken()).toBe("ya29.sandbox");
    const elsewhere = await accounts(store, { ...ENDPOINTS, dataApiUrl: "https://proxy.example.com" })
      .tokenSource("real")
      .catch((e: unknown) => e);
    expect(String(elsewhere)).toMatch(
      /GA4_DATA_API_URL was https:\/\/analyticsdata.googleapis.com when it was connected and is https:\/\/proxy.example.com now/,
    );
    expect(nock.pendingMocks()).toEqual([]);
  });

  it("migration: a record with no service works against Google's endpoints only", async () => {
    const store = new MemoryCredentialStore();
    await seed(store, WS, [{ label: "old", refreshToken: "1//old-rt", email: "ana@company.com" }]);
    expect((await store.read(WS)).googleAccounts.old?.service).toBeUndefined();
    nock(OAUTH).post("/token").reply(200, refreshReply);
    expect(await (await accounts(store, ENDPOINTS).tokenSource("old")).getToken()).toBe("ya29.sandbox");

    const toSandbox = await accounts(store, SANDBOX_ENDPOINTS)
      .tokenSource("old")
      .catch((e: unknown) => e);
    expect(String(toSandbox)).toMatch(
      /GOOGLE_OAUTH_URL was https:\/\/oauth2.googleapis.com when it was connected and is http:\/\/127.0.0.1:4999 now.*taken as Google's/,
    );
  });

  it("migration: a record with no service whose email cannot be a Google account (a sandbox's) is refused", async () => {
    const store = new MemoryCredentialStore();
    await seed(store, WS, [{ label: "sandbox", refreshToken: "1//sb-rt", email: "analyst@sandbox.example" }]);
    const google = watchGoogle();
    await expect(accounts(store, ENDPOINTS).tokenSource("sandbox")).rejects.toThrow(
      /it was connected to a sandbox \(analyst@sandbox.example cannot be a Google account\)/,
    );
    expect(google.requests).toEqual([]);
    expect((await store.read(WS)).googleClient).toEqual(CLIENT);
  });
});
