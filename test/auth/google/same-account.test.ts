/**
 * The same Google account (the same email) connected again replaces the old one's credential, whichever
 * way it comes in (browser sign-in with or without a label asked for, a refresh token imported), and says
 * so (`replaced`); a sign-in asking for a new label moves it there (`renamedFrom`), or keeps its own when
 * that label is another account's (`labelRefused`); the CLI and the console word it with connectedWords.
 */
import nock from "nock";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GoogleAccounts } from "../../../src/auth/google/accounts.js";
import { connectedWords } from "../../../src/connections/google/configure.js";
import { ValidationError } from "../../../src/errors.js";
import {
  ENDPOINTS,
  GA_SCOPE_STRING,
  idToken,
  MemoryCredentialStore,
  OAUTH,
  seed,
} from "../../helpers/google-auth.js";

const WS = "acme";
const REDIRECT = "http://127.0.0.1:3333/console/oauth/callback";
const accounts = (store: MemoryCredentialStore) =>
  new GoogleAccounts({ store, workspace: WS, endpoints: ENDPOINTS, env: {}, now: () => 0 });

const grant = (email: string, refreshToken?: string) => ({
  access_token: "ya29.access",
  expires_in: 3599,
  scope: GA_SCOPE_STRING,
  ...(refreshToken ? { refresh_token: refreshToken } : {}),
  id_token: idToken(email),
});

async function signIn(store: MemoryCredentialStore, email: string, token: string, label?: string) {
  const { finish } = await accounts(store).beginRedirectConnect({
    redirectUri: REDIRECT,
    state: "state-chosen-by-the-caller-0123456789",
    ...(label ? { label } : {}),
  });
  nock(OAUTH).post("/token").reply(200, grant(email, token));
  return finish("4/code");
}

beforeEach(() => nock.disableNetConnect());
afterEach(() => {
  nock.cleanAll();
  nock.enableNetConnect();
});

describe("the same Google account connected twice", () => {
  it("replaces the first one's token under its label when no label or the same one is asked for", async () => {
    const store = new MemoryCredentialStore();
    await seed(store, WS);
    const first = await signIn(store, "ana@example.com", "1//first-token");
    expect(first.replaced).toBeUndefined();
    expect(connectedWords(first, "Connected")).toBe(`Connected "${first.label}" (ana@example.com).`);
    const again = await signIn(store, "Ana@Example.com", "1//second-token");
    expect(again).toMatchObject({ label: first.label, replaced: true });
    const stored = (await store.read(WS)).googleAccounts;
    expect(Object.keys(stored)).toEqual([first.label]);
    expect(stored[first.label]?.refreshToken).toBe("1//second-token");
    expect(stored[first.label]).not.toHaveProperty("replaced");
    expect(await accounts(store).list()).toHaveLength(1);
    expect(connectedWords(again, "Connected")).toBe(
      `Ana@Example.com was already connected as "${first.label}"; its token was replaced (one entry per Google account).`,
    );
  });

  it("applies a new label asked for when it reconnects: one entry, under the new label, and says so", async () => {
    const store = new MemoryCredentialStore();
    await seed(store, WS);
    const first = await signIn(store, "ana@example.com", "1//first-token", "ana");
    const again = await signIn(store, "Ana@Example.com", "1//second-token", "work");
    expect(again).toMatchObject({ label: "work", replaced: true, renamedFrom: first.label });
    const stored = (await store.read(WS)).googleAccounts;
    expect(Object.keys(stored)).toEqual(["work"]);
    expect(stored.work?.refreshToken).toBe("1//second-token");
    expect(connectedWords(again, "Connected")).toBe(
      'Ana@Example.com was already connected as "ana"; it is now labelled "work" and its token was replaced (one entry per Google account).',
    );
  });

  it("keeps its label, and says why, when the label asked for is another account's (its grant is not revoked)", async () => {
    const store = new MemoryCredentialStore();
    await seed(store, WS);
    await signIn(store, "ana@example.com", "1//ana-token", "ana");
    await signIn(store, "bob@example.com", "1//bob-token", "bob");
    const again = await signIn(store, "ana@example.com", "1//ana-again", "bob");
    expect(again).toMatchObject({ label: "ana", replaced: true, labelRefused: "bob" });
    const stored = (await store.read(WS)).googleAccounts;
    expect(stored.ana?.refreshToken).toBe("1//ana-again");
    expect(stored.bob?.refreshToken).toBe("1//bob-token");
    // No revoke was asked for: nock would refuse an unplanned request.
    expect(connectedWords(again, "Connected")).toMatch(
      /keeps that label: "bob" is another connected account's/,
    );
  });

  it("replaces it when the same account's refresh token is imported under another label", async () => {
    const store = new MemoryCredentialStore();
    await seed(store, WS);
    const first = await signIn(store, "ana@example.com", "1//first-token", "ana");
    nock(OAUTH).post("/token").reply(200, grant("ana@example.com"));
    const imported = await accounts(store).importAccount({ label: "other", refreshToken: "1//imported" });
    expect(imported).toMatchObject({ label: first.label, replaced: true });
    const stored = (await store.read(WS)).googleAccounts;
    expect(Object.keys(stored)).toEqual(["ana"]);
    expect(stored.ana?.refreshToken).toBe("1//imported");
  });

  it("still refuses a label another Google account holds", async () => {
    const store = new MemoryCredentialStore();
    await seed(store, WS);
    await signIn(store, "ana@example.com", "1//ana-token", "shared");
    nock(OAUTH).post("/token").reply(200, grant("bob@example.com"));
    await expect(
      accounts(store).importAccount({ label: "shared", refreshToken: "1//bob-token" }),
    ).rejects.toThrow(ValidationError);
    // The import's token request was made (only its answer tells the account), and nothing was stored.
    expect(nock.isDone()).toBe(true);
    const { finish } = await accounts(store).beginRedirectConnect({
      redirectUri: REDIRECT,
      state: "state-chosen-by-the-caller-0123456789",
      label: "shared",
    });
    nock(OAUTH).post("/token").reply(200, grant("bob@example.com", "1//bob-token"));
    nock(OAUTH).post("/revoke").reply(200, {});
    await expect(finish("4/code")).rejects.toThrow(
      /"shared" is already used by another connected Google account/,
    );
    expect((await store.read(WS)).googleAccounts.shared?.refreshToken).toBe("1//ana-token");
  });
});
