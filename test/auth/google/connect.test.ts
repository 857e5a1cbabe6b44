import { createHash } from "node:crypto";
import nock from "nock";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GoogleAccounts } from "../../../src/auth/google/accounts.js";
import { GA_SCOPES } from "../../../src/auth/google/config.js";
import {
  AuthenticationError,
  CancelledError,
  ConfigurationError,
  ValidationError,
} from "../../../src/errors.js";
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

function accounts(store: MemoryCredentialStore, env: NodeJS.ProcessEnv = {}) {
  return new GoogleAccounts({
    store,
    workspace: WS,
    endpoints: ENDPOINTS,
    env,
    now: () => Date.UTC(2025, 0, 2),
  });
}

function tokenReply(email: string, refreshToken = "1//refresh-from-consent") {
  return {
    access_token: "ya29.access",
    expires_in: 3599,
    token_type: "Bearer",
    scope: GA_SCOPE_STRING,
    refresh_token: refreshToken,
    id_token: idToken(email),
  };
}

/** Plays the browser: follows the consent URL's redirect_uri with the given code and state. */
async function redirect(url: string, params: Record<string, string>): Promise<Response> {
  const consent = new URL(url);
  const target = new URL(consent.searchParams.get("redirect_uri") as string);
  for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
  return fetch(target);
}

beforeEach(() => {
  nock.disableNetConnect();
  nock.enableNetConnect(/127\.0\.0\.1|localhost/);
});
afterEach(() => {
  nock.cleanAll();
  nock.enableNetConnect();
});

describe("GoogleAccounts.connect (authorization code + PKCE + loopback)", () => {
  it("builds the consent URL, exchanges the code with the verifier and stores the account", async () => {
    const store = new MemoryCredentialStore();
    await seed(store, WS);
    let exchange: Record<string, string> = {};
    const scope = nock(OAUTH)
      .post("/token", (body) => {
        exchange = form(new URLSearchParams(body as Record<string, string>));
        return true;
      })
      .reply(200, tokenReply("analyst@example.com"));
    let shown = "";
    const pending = accounts(store).connect({ onUrl: (u) => (shown = u) });
    await expect.poll(() => shown).not.toBe("");
    const consent = new URL(shown);
    expect(`${consent.origin}${consent.pathname}`).toBe(ENDPOINTS.authorizeUrl);
    const q = consent.searchParams;
    expect(q.get("client_id")).toBe(CLIENT.clientId);
    expect(q.get("response_type")).toBe("code");
    expect(q.get("code_challenge_method")).toBe("S256");
    expect(q.get("access_type")).toBe("offline");
    expect(q.get("prompt")).toBe("consent");
    expect(q.get("scope")?.split(" ")).toEqual([...GA_SCOPES]);
    expect(q.get("redirect_uri")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(q.get("state")?.length).toBeGreaterThanOrEqual(22);
    expect(shown).not.toContain(CLIENT.clientSecret);

    const page = await redirect(shown, { code: "4/auth-code", state: q.get("state") as string });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("You can close this tab");

    const summary = await pending;
    expect(summary).toEqual({
      label: "analyst",
      email: "analyst@example.com",
      scopes: GA_SCOPE_STRING.split(" "),
      addedAt: "2025-01-02T00:00:00.000Z",
    });
    scope.done();
    expect(exchange.grant_type).toBe("authorization_code");
    expect(exchange.code).toBe("4/auth-code");
    expect(exchange.redirect_uri).toBe(q.get("redirect_uri"));
    expect(exchange.client_secret).toBe(CLIENT.clientSecret);
    // RFC 7636: the challenge sent first is BASE64URL(SHA-256(verifier sent last)).
    const verifier = exchange.code_verifier as string;
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    expect(createHash("sha256").update(verifier).digest("base64url")).toBe(q.get("code_challenge"));
    const stored = (await store.read(WS)).googleAccounts.analyst;
    expect(stored?.refreshToken).toBe("1//refresh-from-consent");
    // The loopback server is gone once the redirect was received.
    await expect(redirect(shown, { code: "again", state: q.get("state") as string })).rejects.toThrow();
  });

  it("refuses a redirect whose state does not match, without exchanging its code", async () => {
    const store = new MemoryCredentialStore();
    await seed(store, WS);
    const token = nock(OAUTH).post("/token").reply(200, tokenReply("x@example.com"));
    const { url, done } = await accounts(store).beginConnect({});
    const caught = done.catch((e: unknown) => e);
    const page = await redirect(url, { code: "4/forged", state: "attacker-state" });
    expect(page.status).toBe(400);
    const error = await caught;
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).toMatch(/state mismatch/);
    expect(token.isDone()).toBe(false);
    expect((await store.read(WS)).googleAccounts).toEqual({});
  });

  it("reports a refused consent (error=access_denied)", async () => {
    const store = new MemoryCredentialStore();
    await seed(store, WS);
    const { url, done } = await accounts(store).beginConnect({});
    const caught = done.catch((e: unknown) => e);
    const state = new URL(url).searchParams.get("state") as string;
    await redirect(url, { error: "access_denied", state });
    const error = await caught;
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).toContain("access_denied");
  });

  it("gives up after timeoutMs and on abort", async () => {
    const store = new MemoryCredentialStore();
    await seed(store, WS);
    await expect(accounts(store).connect({ timeoutMs: 50 })).rejects.toBeInstanceOf(CancelledError);
    const controller = new AbortController();
    const pending = accounts(store).connect({ signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(CancelledError);
  });

  it("refuses a label taken by another Google account, and reconnects the same account under its label", async () => {
    const store = new MemoryCredentialStore();
    await seed(store, WS, [{ label: "main", refreshToken: "1//old", email: "owner@example.com" }]);
    const run = async (email: string, refreshToken: string) => {
      nock(OAUTH).post("/token").reply(200, tokenReply(email, refreshToken));
      const { url, done } = await accounts(store).beginConnect({ label: "main" });
      const caught = done.catch((e: unknown) => e);
      await redirect(url, { code: "4/c", state: new URL(url).searchParams.get("state") as string });
      return caught;
    };
    // The grant that cannot be stored is revoked at Google, not left live and orphaned.
    const revoked = nock(OAUTH)
      .post("/revoke", (body) => (body as Record<string, string>).token === "1//intruder")
      .reply(200, {});
    const taken = await run("intruder@example.com", "1//intruder");
    expect(revoked.isDone()).toBe(true);
    expect(taken).toBeInstanceOf(ValidationError);
    expect((taken as Error).message).toMatch(/"main" is already used/);
    expect((await store.read(WS)).googleAccounts.main?.refreshToken).toBe("1//old");

    const again = await run("owner@example.com", "1//new");
    expect(again).toMatchObject({ label: "main", email: "owner@example.com" });
    expect((await store.read(WS)).googleAccounts.main?.refreshToken).toBe("1//new");
  });

  it("fails before listening when no OAuth client is configured; env client wins over the stored one", async () => {
    const store = new MemoryCredentialStore();
    await expect(accounts(store).connect({})).rejects.toBeInstanceOf(ConfigurationError);
    await seed(store, WS);
    const env = { GOOGLE_OAUTH_CLIENT_ID: "env-client", GOOGLE_OAUTH_CLIENT_SECRET: "env-secret" };
    const { url, done } = await accounts(store, env).beginConnect({ timeoutMs: 30 });
    done.catch(() => undefined);
    expect(new URL(url).searchParams.get("client_id")).toBe("env-client");
  });
});
