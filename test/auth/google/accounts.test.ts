import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import nock from "nock";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FileCredentialStore } from "../../../src/auth/credential-store.js";
import { GoogleAccounts } from "../../../src/auth/google/accounts.js";
import {
  AuthenticationError,
  ConfigurationError,
  NotFoundError,
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
import { tempDir } from "../../helpers/temp.js";

const WS = "acme";
let dir: string;

function accounts(store: MemoryCredentialStore | FileCredentialStore, now = () => Date.UTC(2025, 0, 2)) {
  return new GoogleAccounts({ store, workspace: WS, endpoints: ENDPOINTS, env: {}, now });
}

function refreshReply(extra: Record<string, unknown> = {}) {
  return {
    access_token: "ya29.fresh",
    expires_in: 3599,
    token_type: "Bearer",
    scope: GA_SCOPE_STRING,
    ...extra,
  };
}

beforeAll(async () => {
  dir = await tempDir("martech-google-");
});
beforeEach(() => nock.disableNetConnect());
afterEach(() => {
  nock.cleanAll();
  nock.enableNetConnect();
});

describe("importAccount", () => {
  it("imports a bare refresh token after one validating refresh, and primes the access token", async () => {
    const store = new MemoryCredentialStore();
    await seed(store, WS);
    let sent: Record<string, string> = {};
    nock(OAUTH)
      .post("/token", (body) => {
        sent = form(new URLSearchParams(body as Record<string, string>));
        return true;
      })
      .reply(200, refreshReply({ id_token: idToken("ana@example.com") }));
    const google = accounts(store);
    const summary = await google.importAccount({ label: "ana", refreshToken: "1//bare-token" });
    expect(summary).toEqual({
      label: "ana",
      email: "ana@example.com",
      scopes: GA_SCOPE_STRING.split(" "),
      addedAt: "2025-01-02T00:00:00.000Z",
    });
    expect(sent).toMatchObject({
      grant_type: "refresh_token",
      refresh_token: "1//bare-token",
      client_id: CLIENT.clientId,
    });
    // The access token from the validating refresh is served without a second token request.
    expect(await (await google.tokenSource("ana")).getToken()).toBe("ya29.fresh");
    expect(nock.pendingMocks()).toEqual([]);
  });

  it("imports gcloud's authorized_user JSON with its own client, which survives the encrypted file store", async () => {
    const store = new FileCredentialStore({ home: join(dir, "home"), key: Buffer.alloc(32, 7) });
    await store.update(WS, () => ({ googleClient: CLIENT, googleAccounts: {} }));
    const file = join(dir, "adc.json");
    const adc = {
      type: "authorized_user",
      client_id: "gcloud-id",
      client_secret: "gcloud-secret",
      refresh_token: "1//adc-refresh",
    };
    await writeFile(file, JSON.stringify(adc), { mode: 0o600 });
    const bodies: Record<string, string>[] = [];
    nock(OAUTH)
      .post("/token", (body) => {
        bodies.push(form(new URLSearchParams(body as Record<string, string>)));
        return true;
      })
      .times(2)
      .reply(200, refreshReply());
    await accounts(store).importAccount({ label: "adc", file });
    // A fresh instance reads the stored client back and refreshes with it, not the workspace client.
    await (await accounts(store).tokenSource("adc")).getToken();
    expect(bodies.map((b) => [b.client_id, b.client_secret, b.refresh_token])).toEqual([
      ["gcloud-id", "gcloud-secret", "1//adc-refresh"],
      ["gcloud-id", "gcloud-secret", "1//adc-refresh"],
    ]);
  });

  it("imports a file holding a bare token; refuses service-account JSON, both inputs, and taken labels", async () => {
    const store = new MemoryCredentialStore();
    await seed(store, WS, [{ label: "taken", refreshToken: "1//t" }]);
    const bare = join(dir, "token.txt");
    await writeFile(bare, "1//from-file\n", { mode: 0o600 });
    nock(OAUTH)
      .post("/token", (b) => (b as Record<string, string>).refresh_token === "1//from-file")
      .reply(200, refreshReply());
    await expect(accounts(store).importAccount({ label: "filed", file: bare })).resolves.toMatchObject({
      label: "filed",
    });
    const sa = join(dir, "sa.json");
    await writeFile(sa, JSON.stringify({ type: "service_account", private_key: "-----BEGIN" }), {
      mode: 0o600,
    });
    await expect(accounts(store).importAccount({ label: "sa", file: sa })).rejects.toThrow(
      /service account key file has no valid client_email/,
    );
    await expect(
      accounts(store).importAccount({ label: "x", file: bare, refreshToken: "1//y" }),
    ).rejects.toBeInstanceOf(ValidationError);
    await expect(
      accounts(store).importAccount({ label: "taken", refreshToken: "1//zzzzzzzzzz" }),
    ).rejects.toThrow(/already used/);
  });

  it("says the token is expired or revoked when the validating refresh gets invalid_grant", async () => {
    const store = new MemoryCredentialStore();
    await seed(store, WS);
    nock(OAUTH)
      .post("/token")
      .reply(400, { error: "invalid_grant", error_description: "Token has been expired or revoked." });
    const error = await accounts(store)
      .importAccount({ label: "dead", refreshToken: "1//dead-token" })
      .catch((e) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toContain("this refresh token is expired or revoked");
    expect((await store.read(WS)).googleAccounts).toEqual({});
  });
});

describe("list and remove", () => {
  it("lists summaries that never include a token", async () => {
    const store = new MemoryCredentialStore();
    await seed(store, WS, [
      { label: "b", refreshToken: "1//secret-b", email: "b@example.com" },
      { label: "a", refreshToken: "1//secret-a" },
    ]);
    const list = await accounts(store).list();
    expect(list.map((s) => s.label)).toEqual(["a", "b"]);
    expect(Object.keys(list[1] ?? {}).sort()).toEqual(["addedAt", "email", "label", "scopes"]);
    expect(JSON.stringify(list)).not.toMatch(/secret-/);
  });

  it("revokes at Google with the token in the form body, then forgets the account", async () => {
    const store = new MemoryCredentialStore();
    await seed(store, WS, [{ label: "gone", refreshToken: "1//to-revoke" }]);
    let revokedBody = "";
    let revokedPath = "";
    nock(OAUTH)
      .post(/^\/revoke/, (body) => {
        revokedBody = new URLSearchParams(body as Record<string, string>).toString();
        return true;
      })
      .reply(function () {
        revokedPath = this.req.path;
        return [200, {}];
      });
    await expect(accounts(store).remove("gone")).resolves.toEqual({ revoked: true });
    expect(revokedBody).toBe("token=1%2F%2Fto-revoke");
    expect(revokedPath).toBe("/revoke");
    expect((await store.read(WS)).googleAccounts).toEqual({});
  });

  it("forgets the account even when revoking fails, and says so", async () => {
    const store = new MemoryCredentialStore();
    await seed(store, WS, [{ label: "gone", refreshToken: "1//to-revoke" }]);
    nock(OAUTH)
      .post("/revoke")
      .reply(400, { error: "invalid_token", error_description: "Token expired or revoked" });
    const result = await accounts(store).remove("gone");
    expect(result.revoked).toBe(false);
    expect(result.reason).toMatch(/already expired or revoked/);
    expect((await store.read(WS)).googleAccounts).toEqual({});
    await expect(accounts(store).remove("gone")).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("tokenSource", () => {
  it("explains how to connect when there is no account, and lists labels when the choice is ambiguous", async () => {
    const store = new MemoryCredentialStore();
    await seed(store, WS);
    const none = await accounts(store)
      .tokenSource(undefined)
      .catch((e) => e);
    expect(none).toBeInstanceOf(ConfigurationError);
    expect(none.message).toContain("martech-steps accounts connect");
    await seed(store, WS, [
      { label: "one", refreshToken: "1//1" },
      { label: "two", refreshToken: "1//2" },
    ]);
    const ambiguous = await accounts(store)
      .tokenSource(undefined)
      .catch((e) => e);
    expect(ambiguous).toBeInstanceOf(ValidationError);
    expect(ambiguous.message).toContain("one, two");
    await expect(accounts(store).tokenSource("three")).rejects.toThrow(/one, two/);
    await seed(store, WS, [{ label: "only", refreshToken: "1//only" }]);
    await expect(accounts(store).tokenSource(undefined)).resolves.toMatchObject({ label: "only" });
  });

  it("shares one refresh among 100 concurrent callers, also across tokenSource() calls", async () => {
    const store = new MemoryCredentialStore();
    await seed(store, WS, [{ label: "main", refreshToken: "1//main" }]);
    const refresh = nock(OAUTH).post("/token").delay(50).reply(200, refreshReply());
    const google = accounts(store);
    const sources = await Promise.all([google.tokenSource("main"), google.tokenSource("main")]);
    const tokens = await Promise.all(
      Array.from({ length: 100 }, (_, i) => (sources[i % 2] ?? sources[0])!.getToken()),
    );
    expect(new Set(tokens)).toEqual(new Set(["ya29.fresh"]));
    expect(refresh.isDone()).toBe(true);
    expect(sources[0]?.tokenRequests()).toBe(1);
  });

  it("turns invalid_grant into the reconnect message and never caches the failure", async () => {
    const store = new MemoryCredentialStore();
    await seed(store, WS, [{ label: "main", refreshToken: "1//revoked" }]);
    nock(OAUTH)
      .post("/token")
      .times(2)
      .reply(400, { error: "invalid_grant", error_description: "Token has been expired or revoked." });
    const source = await accounts(store).tokenSource("main");
    const error = await source.getToken().catch((e) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toBe(
      "Google account 'main' must be reconnected: its refresh token was revoked or expired (run: martech-steps accounts connect --label main).",
    );
    await expect(source.getToken()).rejects.toThrow(/must be reconnected/);
    expect(source.tokenRequests()).toBe(2);
  });

  it("saves a rotated refresh token and uses it for the next refresh", async () => {
    const store = new MemoryCredentialStore();
    await seed(store, WS, [{ label: "main", refreshToken: "1//first" }]);
    const used: string[] = [];
    nock(OAUTH)
      .post("/token", (b) => {
        used.push((b as Record<string, string>).refresh_token ?? "");
        return true;
      })
      .reply(200, refreshReply({ access_token: "ya29.one", refresh_token: "1//rotated" }))
      .post("/token", (b) => {
        used.push((b as Record<string, string>).refresh_token ?? "");
        return true;
      })
      .reply(200, refreshReply({ access_token: "ya29.two" }));
    const google = accounts(store);
    const source = await google.tokenSource("main");
    expect(await source.getToken()).toBe("ya29.one");
    expect((await store.read(WS)).googleAccounts.main?.refreshToken).toBe("1//rotated");
    source.invalidate("ya29.one");
    expect(await source.getToken()).toBe("ya29.two");
    expect(used).toEqual(["1//first", "1//rotated"]);
    // The cached manager stays valid because the store and the manager agree on the token.
    expect(await google.tokenSource("main")).toBe(source);
  });
});
