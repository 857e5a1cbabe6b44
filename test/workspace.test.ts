import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryCredentialStore } from "../src/auth/credential-store.js";
import { type GoogleSandbox, sandboxEnv, startGoogleSandbox } from "../src/sandbox/index.js";
import { MemoryState } from "../src/state/memory.js";
import { Workspace } from "../src/workspace.js";

describe("Workspace", () => {
  let sandbox: GoogleSandbox;
  beforeAll(async () => {
    sandbox = await startGoogleSandbox();
  });
  afterAll(async () => sandbox.close());

  it("picks up an account reconnected by another process instead of reusing a dead token", async () => {
    const store = new MemoryCredentialStore();
    const workspace = new Workspace({
      env: sandboxEnv({ google: sandbox }),
      store,
      state: new MemoryState(),
    });
    const oldToken = sandbox.issueRefreshToken("analyst@sandbox.example");
    await workspace.importAccount({ label: "me", refreshToken: oldToken });
    const summaries = () =>
      workspace
        .connection("google", "me")
        .then((ga) => ga.request("admin", { method: "GET", path: "v1beta/accountSummaries" }));
    await expect(summaries()).resolves.toBeTruthy();

    // Elsewhere: the account is reconnected (new refresh token stored) and the old grant revoked.
    const newToken = sandbox.issueRefreshToken("analyst@sandbox.example");
    await store.update("default", (s) => ({
      ...s,
      googleAccounts: { ...s.googleAccounts, me: { ...s.googleAccounts.me!, refreshToken: newToken } },
    }));
    await fetch(`${sandbox.oauthUrl}/revoke`, {
      method: "POST",
      body: new URLSearchParams({ token: oldToken }),
    });
    sandbox.expireAccessTokens();

    await expect(summaries()).resolves.toBeTruthy();
    await workspace.close();
  });

  it("stops using a stored OAuth client once the admin removed or replaced it, as a fresh process would", async () => {
    const { GOOGLE_OAUTH_CLIENT_ID, GOOGLE_OAUTH_CLIENT_SECRET, ...env } = sandboxEnv({ google: sandbox });
    const store = new MemoryCredentialStore();
    const client = {
      clientId: GOOGLE_OAUTH_CLIENT_ID as string,
      clientSecret: GOOGLE_OAUTH_CLIENT_SECRET as string,
    };
    await store.update("default", (s) => ({ ...s, googleClient: client }));
    const workspace = new Workspace({ env, store, state: new MemoryState() });
    await workspace.importAccount({
      label: "me",
      refreshToken: sandbox.issueRefreshToken("analyst@sandbox.example"),
    });
    const summaries = () =>
      workspace
        .connection("google", "me")
        .then((ga) => ga.request("admin", { method: "GET", path: "v1beta/accountSummaries" }));
    await expect(summaries()).resolves.toBeTruthy();

    // Elsewhere (the CLI, the console of another replica), the admin removes the client.
    await store.update("default", (s) => ({ ...s, googleClient: undefined }));
    await expect(summaries()).rejects.toMatchObject({ code: "not_configured" });
    await expect(
      new Workspace({ env, store, state: new MemoryState() }).connection("google", "me"),
    ).rejects.toMatchObject({ code: "not_configured" });

    // A replaced secret is the one used from now on: the old one is not kept in memory.
    await store.update("default", (s) => ({ ...s, googleClient: { ...client, clientSecret: "replaced" } }));
    sandbox.expireAccessTokens();
    await expect(summaries()).rejects.toThrow(/^Google does not accept the OAuth client/);
    await workspace.close();
  });

  it("emits accountsChanged when accounts change, also from outside the process (polling)", async () => {
    const store = new MemoryCredentialStore();
    const workspace = new Workspace({
      env: { ...sandboxEnv({ google: sandbox }), MARTECH_STEPS_ACCOUNT_POLL_MS: "20" },
      store,
      state: new MemoryState(),
    });
    let changes = 0;
    workspace.on("accountsChanged", () => {
      changes += 1;
    });
    await new Promise((r) => setTimeout(r, 60));
    expect(changes).toBe(0);
    // Another process adds an account straight into the shared store.
    await store.update("default", (s) => ({
      ...s,
      googleAccounts: {
        other: { label: "other", scopes: [], addedAt: "2026-01-01T00:00:00Z", refreshToken: "r" },
      },
    }));
    for (let i = 0; i < 50 && changes === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(changes).toBe(1);
    await workspace.close();
  });
});

describe("Workspace: Marketo credentials from the environment", () => {
  const env = {
    MARKETO_CLIENT_ID: "env-client",
    MARKETO_CLIENT_SECRET: "env-secret",
    MARKETO_REST_ENDPOINT: "https://123-ABC-456.mktorest.com/rest",
  };

  it("apply to the default workspace", async () => {
    const workspace = new Workspace({ env, store: new MemoryCredentialStore(), state: new MemoryState() });
    await expect(workspace.handle("marketo").credentials()).resolves.toMatchObject({ source: "environment" });
  });

  it("never to a named one, whose error says how to configure it instead of naming those variables", async () => {
    const workspace = new Workspace({
      name: "acme",
      env,
      store: new MemoryCredentialStore(),
      state: new MemoryState(),
    });
    await expect(workspace.handle("marketo").credentials()).resolves.toBeUndefined();
    const error = await workspace.connection("marketo").catch((e: Error) => e);
    expect(error).toMatchObject({ code: "not_configured" });
    expect((error as Error).message).toMatch(/workspace "acme"/);
    expect((error as Error).message).toContain("martech-steps marketo configure --workspace acme");
    expect((error as Error).message).not.toMatch(/MARKETO_CLIENT_ID/);
  });

  it("the default workspace's error still offers them", async () => {
    const workspace = new Workspace({
      env: {},
      store: new MemoryCredentialStore(),
      state: new MemoryState(),
    });
    const error = await workspace.connection("marketo").catch((e: Error) => e);
    expect((error as Error).message).toMatch(/MARKETO_CLIENT_ID/);
  });

  it("keeps its Marketo connector while the saved credentials stay, and rebuilds or refuses when they change", async () => {
    const store = new MemoryCredentialStore();
    const saved = {
      clientId: "id",
      clientSecret: "secret",
      restEndpoint: "https://123-abc-456.mktorest.com/rest",
    };
    await store.update("default", (s) => ({ ...s, marketo: saved }));
    const workspace = new Workspace({ env: {}, store, state: new MemoryState() });
    const first = await workspace.connection("marketo");
    expect(await workspace.connection("marketo")).toBe(first);
    await store.update("default", (s) => ({ ...s, marketo: { ...saved, clientSecret: "rotated" } }));
    const rotated = await workspace.connection("marketo");
    expect(rotated).not.toBe(first);
    await store.update("default", (s) => ({
      ...s,
      marketo: { ...saved, clientSecret: "rotated", restEndpoint: "ftp://x" },
    }));
    await expect(workspace.connection("marketo")).rejects.toMatchObject({ code: "not_configured" });
  });

  it("checks a MARKETO_REST_ENDPOINT before the first connector is built, naming the variable", async () => {
    const workspace = new Workspace({
      env: {
        MARKETO_CLIENT_ID: "id",
        MARKETO_CLIENT_SECRET: "secret",
        MARKETO_REST_ENDPOINT: "http://example.com",
      },
      store: new MemoryCredentialStore(),
      state: new MemoryState(),
    });
    for (let i = 0; i < 2; i++)
      await expect(workspace.connection("marketo")).rejects.toThrow(/^MARKETO_REST_ENDPOINT /);
  });
});
