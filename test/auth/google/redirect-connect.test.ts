import nock from "nock";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GoogleAccounts } from "../../../src/auth/google/accounts.js";
import { pkceChallenge } from "../../../src/auth/google/oauth.js";
import { ConfigurationError, ValidationError } from "../../../src/errors.js";
import {
  CLIENT,
  ENDPOINTS,
  form,
  GA_SCOPE_STRING,
  idToken,
  MemoryCredentialStore,
  OAUTH,
  seed,
} from "../../helpers/google-auth.js";

const WS = "acme";
const REDIRECT = "http://127.0.0.1:3333/console/oauth/callback";
const STATE = "state-chosen-by-the-caller-0123456789";

function accounts(store: MemoryCredentialStore) {
  return new GoogleAccounts({ store, workspace: WS, endpoints: ENDPOINTS, env: {}, now: () => 0 });
}

beforeEach(() => nock.disableNetConnect());
afterEach(() => {
  nock.cleanAll();
  nock.enableNetConnect();
});

describe("GoogleAccounts.beginRedirectConnect (the caller receives the redirect)", () => {
  it("asks for the caller's redirect URI and state, and exchanges the code with the PKCE verifier", async () => {
    const store = new MemoryCredentialStore();
    await seed(store, WS);
    const { url, finish } = await accounts(store).beginRedirectConnect({
      redirectUri: REDIRECT,
      state: STATE,
      label: "marketing",
    });
    const consent = new URL(url);
    expect(`${consent.origin}${consent.pathname}`).toBe(ENDPOINTS.authorizeUrl);
    expect(consent.searchParams.get("redirect_uri")).toBe(REDIRECT);
    expect(consent.searchParams.get("state")).toBe(STATE);
    expect(consent.searchParams.get("code_challenge_method")).toBe("S256");
    let sent: Record<string, string> = {};
    nock(OAUTH)
      .post("/token", (body) => {
        sent = form(new URLSearchParams(body as Record<string, string>));
        return true;
      })
      .reply(200, {
        access_token: "ya29.access",
        expires_in: 3599,
        scope: GA_SCOPE_STRING,
        refresh_token: "1//from-the-console",
        id_token: idToken("ana@example.com"),
      });
    const summary = await finish("4/code-from-redirect");
    expect(sent).toMatchObject({
      grant_type: "authorization_code",
      code: "4/code-from-redirect",
      redirect_uri: REDIRECT,
      client_id: CLIENT.clientId,
    });
    expect(pkceChallenge(sent.code_verifier ?? "")).toBe(consent.searchParams.get("code_challenge"));
    expect(summary).toMatchObject({ label: "marketing", email: "ana@example.com" });
    expect((await store.read(WS)).googleAccounts.marketing?.refreshToken).toBe("1//from-the-console");
  });

  it("revokes the fresh grant when the account cannot be stored (no Analytics scope)", async () => {
    const store = new MemoryCredentialStore();
    await seed(store, WS);
    const { finish } = await accounts(store).beginRedirectConnect({ redirectUri: REDIRECT, state: STATE });
    nock(OAUTH)
      .post("/token")
      .reply(200, { access_token: "a", expires_in: 3599, scope: "openid", refresh_token: "1//unused" });
    const revoked = nock(OAUTH)
      .post(
        "/revoke",
        (body) => form(new URLSearchParams(body as Record<string, string>)).token === "1//unused",
      )
      .reply(200, {});
    await expect(finish("4/code")).rejects.toThrow(/did not grant Google Analytics access/);
    expect(revoked.isDone()).toBe(true);
    expect((await store.read(WS)).googleAccounts).toEqual({});
  });

  it("refuses a bad label and a workspace without an OAuth client before any request", async () => {
    const store = new MemoryCredentialStore();
    await expect(
      accounts(store).beginRedirectConnect({ redirectUri: REDIRECT, state: STATE, label: "no spaces" }),
    ).rejects.toBeInstanceOf(ValidationError);
    await expect(
      accounts(store).beginRedirectConnect({ redirectUri: REDIRECT, state: STATE }),
    ).rejects.toBeInstanceOf(ConfigurationError);
  });
});
