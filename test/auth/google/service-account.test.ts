/**
 * Service accounts end to end against the Google sandbox over loopback (no nock): a key file the
 * sandbox issued is imported (one JWT bearer grant), stored sealed, and runs reports; each refusal
 * (property not shared, key disabled, delegation not granted, unknown subject) says what to do, and
 * doing it works. GOOGLE_APPLICATION_CREDENTIALS is picked up as an account.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileCredentialStore, MemoryCredentialStore } from "../../../src/auth/credential-store.js";
import { GoogleAccounts } from "../../../src/auth/google/accounts.js";
import type { GoogleEndpoints } from "../../../src/auth/google/config.js";
import { parseServiceAccountKey, signAssertion } from "../../../src/auth/google/service-account.js";
import { GoogleAnalyticsConnector } from "../../../src/connectors/google/connector.js";
import { AuthenticationError, ConfigurationError, PermissionError } from "../../../src/errors.js";
import { type GoogleSandbox, startGoogleSandbox } from "../../../src/sandbox/google/index.js";
import { MemoryState } from "../../../src/state/memory.js";
import { tempDir } from "../../helpers/temp.js";

const WS = "agency";
const PROPERTY = "412345671";
const ACCOUNT = "100001";
const SCOPES = [
  "https://www.googleapis.com/auth/analytics.readonly",
  "https://www.googleapis.com/auth/analytics.edit",
];
let sandbox: GoogleSandbox;
let endpoints: GoogleEndpoints;
let dir: string;

beforeAll(async () => {
  sandbox = await startGoogleSandbox();
  endpoints = {
    dataApiUrl: sandbox.dataApiUrl,
    adminApiUrl: sandbox.adminApiUrl,
    oauthUrl: sandbox.oauthUrl,
    authorizeUrl: sandbox.authorizeUrl,
  };
  dir = await tempDir("martech-sa-");
});
afterAll(async () => {
  await sandbox?.close();
});

/** No OAuth client is configured: a service account needs none. */
function accounts(store = new MemoryCredentialStore(), env: NodeJS.ProcessEnv = {}, workspace = WS) {
  return new GoogleAccounts({ store, workspace, endpoints, env });
}

async function keyFile(name: string, key: Record<string, string>): Promise<string> {
  const path = join(dir, `${name}.json`);
  await writeFile(path, JSON.stringify(key, null, 2), { mode: 0o600 });
  return path;
}

async function report(google: GoogleAccounts, label?: string) {
  const ga = new GoogleAnalyticsConnector({
    tokens: await google.tokenSource(label),
    endpoints,
    state: new MemoryState(),
  });
  return ga.runReport(`properties/${PROPERTY}`, {
    dateRanges: [{ startDate: "28daysAgo", endDate: "yesterday" }],
    dimensions: [{ name: "eventName" }],
    metrics: [{ name: "eventCount" }],
  });
}

describe("service account import", () => {
  it("imports a key file, keeps the key sealed and unshown, and runs a report as the service account", async () => {
    const key = await sandbox.issueServiceAccountKey({ name: "reporter", roles: { [ACCOUNT]: "viewer" } });
    const store = new FileCredentialStore({ home: join(dir, "home"), env: {} });
    const google = accounts(store as unknown as MemoryCredentialStore);
    const summary = await google.importAccount({ label: "reporter", file: await keyFile("reporter", key) });
    expect(summary).toMatchObject({
      label: "reporter",
      email: key.client_email,
      serviceAccount: key.client_email,
      scopes: SCOPES,
    });
    expect(JSON.stringify(await google.list())).not.toContain("PRIVATE KEY");
    const onDisk = await readFile(join(dir, "home", "workspaces", `${WS}.json`), "utf8");
    expect(onDisk).not.toContain((key.private_key as string).split("\n")[1]);
    expect(
      (await report(accounts(store as unknown as MemoryCredentialStore), "reporter")).rows?.length,
    ).toBeGreaterThan(0);
  });

  it("signs the claims Google's guide names, RS256 with the key's id", async () => {
    const key = parseServiceAccountKey(
      await sandbox.issueServiceAccountKey({ name: "claims" }),
      `${sandbox.oauthUrl}/token`,
      "ana@sandbox.example",
    );
    const now = Date.UTC(2026, 0, 5, 12);
    const assertion = await signAssertion(key, `${sandbox.oauthUrl}/token`, SCOPES, now);
    expect(decodeProtectedHeader(assertion)).toEqual({ alg: "RS256", typ: "JWT", kid: key.privateKeyId });
    expect(decodeJwt(assertion)).toEqual({
      iss: key.clientEmail,
      sub: "ana@sandbox.example",
      aud: `${sandbox.oauthUrl}/token`,
      scope: SCOPES.join(" "),
      iat: now / 1000,
      exp: now / 1000 + 3600,
    });
  });

  it("refuses a key issued for another token endpoint before sending anything", async () => {
    const key = {
      ...(await sandbox.issueServiceAccountKey({ name: "elsewhere" })),
      token_uri: "https://oauth2.googleapis.com/token",
    };
    const before = sandbox.stats().tokenRequests;
    await expect(
      accounts().importAccount({ label: "x", file: await keyFile("elsewhere", key) }),
    ).rejects.toThrow(/issued for the token endpoint https:\/\/oauth2\.googleapis\.com\/token/);
    expect(sandbox.stats().tokenRequests).toBe(before);
  });
});

describe("service account refusals say what to do, and doing it works", () => {
  it("a property not shared with the service account names the email to add", async () => {
    const key = await sandbox.issueServiceAccountKey({ name: "unshared" });
    const google = accounts();
    await google.importAccount({ label: "unshared", file: await keyFile("unshared", key) });
    const error = await report(google).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionError);
    expect((error as PermissionError).hint).toContain(
      `Add the service account ${key.client_email} to the Google Analytics property`,
    );
    // Following it: the email added to the account (the sandbox's stand-in for Property access management).
    await sandbox.issueServiceAccountKey({ name: "unshared", roles: { [ACCOUNT]: "viewer" } });
    expect((await report(google)).rows?.length).toBeGreaterThan(0);
  });

  it("a disabled key is refused with how to replace it, and the replacement works", async () => {
    const key = await sandbox.issueServiceAccountKey({ name: "rotated", roles: { [ACCOUNT]: "viewer" } });
    const google = accounts();
    await google.importAccount({ label: "rotated", file: await keyFile("rotated", key) });
    sandbox.disableServiceAccountKey(key.private_key_id as string);
    sandbox.expireAccessTokens();
    const error = await report(google).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).toContain("Invalid JWT Signature");
    const hint = (error as AuthenticationError).hint ?? "";
    expect(hint).toContain(`Service accounts > ${key.client_email} > Keys`);
    expect(hint).toContain(
      "martech-steps accounts remove rotated, then martech-steps accounts import --label rotated --key-file",
    );
    const fresh = await sandbox.issueServiceAccountKey({ name: "rotated", roles: { [ACCOUNT]: "viewer" } });
    expect(await google.remove("rotated")).toMatchObject({
      revoked: false,
      advice: expect.stringContaining(key.private_key_id as string),
    });
    await google.importAccount({ label: "rotated", file: await keyFile("rotated2", fresh) });
    expect((await report(google)).rows?.length).toBeGreaterThan(0);
  });

  it("impersonation without domain-wide delegation names the client id and scopes to delegate", async () => {
    const key = await sandbox.issueServiceAccountKey({ name: "delegate" });
    const file = await keyFile("delegate", key);
    const error = await accounts()
      .importAccount({ label: "as-analyst", file, subject: "analyst@sandbox.example" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    const hint = (error as ConfigurationError).hint ?? "";
    expect(hint).toContain(`client ID ${key.client_id}`);
    expect(hint).toContain(SCOPES.join(","));
    // Following it: the scopes delegated to the client id (a new key file of the same account).
    const delegated = await sandbox.issueServiceAccountKey({ name: "delegate", delegatedScopes: SCOPES });
    const google = accounts();
    const summary = await google.importAccount({
      label: "as-analyst",
      file: await keyFile("delegate2", delegated),
      subject: "analyst@sandbox.example",
    });
    expect(summary).toMatchObject({
      email: "analyst@sandbox.example",
      serviceAccount: delegated.client_email,
    });
    expect((await report(google)).rows?.length).toBeGreaterThan(0);
  });

  it("an unknown subject is named as such", async () => {
    const key = await sandbox.issueServiceAccountKey({ name: "nobody", delegatedScopes: SCOPES });
    const error = await accounts()
      .importAccount({
        label: "nobody",
        file: await keyFile("nobody", key),
        subject: "ghost@sandbox.example",
      })
      .catch((e: unknown) => e);
    expect((error as AuthenticationError).hint).toContain(
      "ghost@sandbox.example is not a user of the Google Workspace domain",
    );
  });
});

describe("GOOGLE_APPLICATION_CREDENTIALS", () => {
  it("a service account key file is the default workspace's application-default account", async () => {
    const key = await sandbox.issueServiceAccountKey({ name: "adc", roles: { [ACCOUNT]: "viewer" } });
    const env = { GOOGLE_APPLICATION_CREDENTIALS: await keyFile("adc", key) };
    const google = accounts(new MemoryCredentialStore(), env, "default");
    expect(await google.list()).toEqual([
      expect.objectContaining({
        label: "application-default",
        serviceAccount: key.client_email,
        from: "GOOGLE_APPLICATION_CREDENTIALS",
      }),
    ]);
    expect((await report(google)).rows?.length).toBeGreaterThan(0);
    // Another workspace does not see it.
    expect(await accounts(new MemoryCredentialStore(), env, WS).list()).toEqual([]);
  });

  it("an authorized_user file is used with its own client", async () => {
    const file = await keyFile("user", {
      type: "authorized_user",
      client_id: sandbox.clientId,
      client_secret: sandbox.clientSecret,
      refresh_token: sandbox.issueRefreshToken("analyst@sandbox.example"),
    });
    const google = accounts(new MemoryCredentialStore(), { GOOGLE_APPLICATION_CREDENTIALS: file }, "default");
    expect((await report(google, "application-default")).rows?.length).toBeGreaterThan(0);
  });

  it("a file that is not credentials says what to point the variable at", async () => {
    const file = await keyFile("junk", { type: "external_account" });
    const google = accounts(new MemoryCredentialStore(), { GOOGLE_APPLICATION_CREDENTIALS: file }, "default");
    const error = await google.tokenSource(undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as ConfigurationError).hint).toContain(
      "Point GOOGLE_APPLICATION_CREDENTIALS at a service account's JSON key",
    );
  });
});
