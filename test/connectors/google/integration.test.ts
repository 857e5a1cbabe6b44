/**
 * The real accounts, token managers and connector against the Google sandbox over loopback HTTP
 * (no nock): import, connect through the authorize endpoint, reports, key events, listing,
 * access-token expiry and revocation, counting the requests the sandbox saw.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryCredentialStore } from "../../../src/auth/credential-store.js";
import { GoogleAccounts } from "../../../src/auth/google/accounts.js";
import type { GoogleEndpoints } from "../../../src/auth/google/config.js";
import { GoogleAnalyticsConnector } from "../../../src/connectors/google/connector.js";
import { AuthenticationError, PermissionError } from "../../../src/errors.js";
import { type GoogleSandbox, startGoogleSandbox } from "../../../src/sandbox/google/index.js";
import { MemoryState } from "../../../src/state/memory.js";

const WS = "integration";
const PROPERTY = "412345671";
let sandbox: GoogleSandbox;
let endpoints: GoogleEndpoints;

beforeAll(async () => {
  sandbox = await startGoogleSandbox();
  endpoints = {
    dataApiUrl: sandbox.dataApiUrl,
    adminApiUrl: sandbox.adminApiUrl,
    oauthUrl: sandbox.oauthUrl,
    authorizeUrl: sandbox.authorizeUrl,
  };
});
afterAll(async () => {
  await sandbox?.close();
});

async function workspace() {
  const store = new MemoryCredentialStore();
  await store.update(WS, (current) => ({
    ...current,
    googleClient: { clientId: sandbox.clientId, clientSecret: sandbox.clientSecret },
  }));
  return new GoogleAccounts({ store, workspace: WS, endpoints, env: {} });
}

function connectorFor(tokens: Awaited<ReturnType<GoogleAccounts["tokenSource"]>>) {
  return new GoogleAnalyticsConnector({ tokens, endpoints, state: new MemoryState() });
}

describe("GA4 connector against the Google sandbox", () => {
  it("imports an account, reads, writes, survives token expiry, and stops after removal", async () => {
    const accounts = await workspace();
    const summary = await accounts.importAccount({
      label: "analyst",
      refreshToken: sandbox.issueRefreshToken("analyst@sandbox.example"),
    });
    expect(summary).toMatchObject({ label: "analyst", email: "analyst@sandbox.example" });
    const tokens = await accounts.tokenSource("analyst");
    const ga = connectorFor(tokens);

    const properties = await ga.listAll<{ name: string }>("v1beta/properties", "properties", {
      filter: "parent:accounts/100001",
      pageSize: 1,
    });
    expect(properties.items.map((p) => p.name)).toContain(`properties/${PROPERTY}`);
    expect(properties.items.length).toBeGreaterThanOrEqual(2);

    const report = await ga.runReport(`properties/${PROPERTY}`, {
      dateRanges: [{ startDate: "28daysAgo", endDate: "yesterday" }],
      dimensions: [{ name: "eventName" }],
      metrics: [{ name: "eventCount" }],
    });
    expect(report.rows?.length).toBeGreaterThan(0);
    expect(ga.quota(PROPERTY)?.quotas.tokensPerDay?.remaining).toBeGreaterThan(0);

    const keyEvents = await ga.listAll<{ eventName: string }>(
      `v1beta/properties/${PROPERTY}/keyEvents`,
      "keyEvents",
    );
    const existing = new Set(keyEvents.items.map((k) => k.eventName));
    const candidate = report.rows
      ?.map((row) => row.dimensionValues?.[0]?.value ?? "")
      .find((name) => name !== "" && !existing.has(name));
    expect(candidate).toBeDefined();
    const created = await ga.call({
      method: "POST",
      path: `v1beta/properties/${PROPERTY}/keyEvents`,
      body: { eventName: candidate, countingMethod: "ONCE_PER_EVENT" },
    });
    expect(created).toMatchObject({ api: "admin", body: { eventName: candidate } });

    // Expired access tokens: every concurrent caller gets a 401, and they share ONE refresh.
    const refreshesBefore = sandbox.stats().refreshRequests;
    const requestsBefore = tokens.tokenRequests();
    sandbox.expireAccessTokens();
    const again = await Promise.all(
      Array.from({ length: 8 }, () => ga.call({ method: "GET", path: `v1beta/properties/${PROPERTY}` })),
    );
    expect(again.every((r) => (r.body as { name?: string }).name === `properties/${PROPERTY}`)).toBe(true);
    expect(sandbox.stats().refreshRequests - refreshesBefore).toBe(1);
    expect(tokens.tokenRequests() - requestsBefore).toBe(1);

    const revocationsBefore = sandbox.stats().revocations;
    await expect(accounts.remove("analyst")).resolves.toEqual({ revoked: true });
    expect(sandbox.stats().revocations - revocationsBefore).toBe(1);
    expect(await accounts.list()).toEqual([]);
    const dead = await ga.call({ method: "GET", path: `v1beta/properties/${PROPERTY}` }).catch((e) => e);
    expect(dead).toBeInstanceOf(AuthenticationError);
    expect(dead.message).toContain("Google account 'analyst' must be reconnected");
  });

  it("connects through the authorize endpoint (PKCE, loopback redirect) and enforces roles", async () => {
    const accounts = await workspace();
    sandbox.setConsentAs("viewer@sandbox.example");
    try {
      const { url, done } = await accounts.beginConnect({});
      // The "browser": the sandbox consents at once and redirects to our loopback receiver.
      const page = await fetch(url);
      expect(page.status).toBe(200);
      await expect(done).resolves.toMatchObject({ label: "viewer", email: "viewer@sandbox.example" });
    } finally {
      sandbox.setConsentAs("analyst@sandbox.example");
    }
    const ga = connectorFor(await accounts.tokenSource(undefined));
    const denied = await ga
      .call({
        method: "POST",
        path: "v1beta/properties",
        body: {
          parent: "accounts/100001",
          displayName: "Nope",
          timeZone: "Europe/Paris",
          currencyCode: "EUR",
        },
      })
      .catch((e) => e);
    expect(denied).toBeInstanceOf(PermissionError);
    expect(denied.message).toMatch(/Administrator role on the Google Analytics account/);
  });
});
