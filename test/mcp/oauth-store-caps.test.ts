import {
  Client as ModernClient,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authorize, type EmbeddedFixture, register, startEmbeddedFixture } from "../helpers/embedded-as.js";
import { RecordingOAuthProvider, ScriptedBrowser } from "../helpers/oauth-browser.js";

/**
 * Issue 26, item 1: anyone could sign every OAuth client out. The store kept one 10,000-entry table for
 * every kind and dropped the oldest, so 11,000 open registrations or 10,500 unauthenticated sign-in
 * requests evicted a signed-in client's registration, grant and refresh token (its refresh then got 401
 * invalid_client). Here the caps are lowered to 20 registrations and 20 sign-in requests, the flood is three
 * times that, and the per-address limits are raised out of the way so that the caps alone are tested.
 */
const FLOOD = 60;

describe("the embedded authorization server's store under a flood of open registrations and sign-in requests", () => {
  let as: EmbeddedFixture;
  beforeAll(async () => {
    as = await startEmbeddedFixture({
      tuning: {
        limits: { kinds: { Client: { max: 20 }, Interaction: { max: 20 } } },
        requestRules: {
          registration: { burst: 1_000, everyMs: 1 },
          signIn: { burst: 1_000, everyMs: 1 },
        },
      },
    });
  });
  afterAll(async () => {
    await as.close();
  });

  it("keeps a signed-in client's registration, grant and refresh token", async () => {
    const signedIn = await as.signIn();
    const registrations: number[] = [];
    for (let i = 0; i < FLOOD; i++) registrations.push((await register(as.base)).status);
    // Registrations nobody approved give way to one another: every one is answered, none pushes out the client.
    expect(registrations.every((status) => status === 201)).toBe(true);

    const fresh = (await (await register(as.base)).json()) as { client_id: string };
    const signIns: Response[] = [];
    for (let i = 0; i < FLOOD; i++) signIns.push(await authorize(as.base, fresh.client_id));
    const kept = signIns.filter((answer) =>
      answer.headers.get("location")?.startsWith("/oauth/interaction/"),
    );
    expect(kept).toHaveLength(20);
    // Past the cap, a sign-in request is refused as OAuth says (RFC 6749 section 4.1.2.1), nothing is evicted.
    const refused = signIns.filter((answer) => !kept.includes(answer));
    for (const answer of refused)
      expect(new URL(String(answer.headers.get("location"))).searchParams.get("error")).toBe(
        "temporarily_unavailable",
      );

    const refresh = await as.token({
      grant_type: "refresh_token",
      refresh_token: signedIn.refreshToken,
      client_id: signedIn.clientId,
    });
    expect(refresh.status, await refresh.clone().text()).toBe(200);
    const body = (await refresh.json()) as { access_token: string };
    expect((await as.mcp(body.access_token)).status).toBe(200);
  });

  it("refuses a registration over its size (8 KB) as invalid metadata, and keeps nothing", async () => {
    const answer = await register(as.base, { client_name: "x".repeat(9 * 1024) });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error: "invalid_client_metadata" });
  });
});

describe("per-address limits of the embedded authorization server", () => {
  let as: EmbeddedFixture;
  let clock = Date.now();
  beforeAll(async () => {
    as = await startEmbeddedFixture({ now: () => new Date(clock) });
  });
  afterAll(async () => {
    await as.close();
  });

  it("answers the 11th registration from one address in a minute 429 with Retry-After, then admits one a minute later", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await register(as.base)).status);
    expect(statuses).toEqual(Array(10).fill(201));
    const refused = await register(as.base);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(await refused.json()).toMatchObject({
      error: "temporarily_unavailable",
      error_description: "Too many registrations from this address: retry in 60 s.",
    });
    clock += 60_000;
    expect((await register(as.base)).status).toBe(201);
    expect((await register(as.base)).status).toBe(429);
  });

  it("answers the 31st sign-in request at once 429, then one more every 2 s", async () => {
    clock += 60_000;
    const client = (await (await register(as.base)).json()) as { client_id: string };
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await authorize(as.base, client.client_id)).status);
    expect(statuses.slice(0, 30).every((status) => status === 303)).toBe(true);
    expect(statuses[30]).toBe(429);
    // A browser opening the link gets a page saying the same, not JSON.
    const page = await fetch(`${as.base}/oauth/auth?client_id=${client.client_id}`, {
      headers: { accept: "text/html" },
    });
    expect(page.status).toBe(429);
    expect(page.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
    expect(await page.text()).toMatch(/Too many sign-in requests from this address: retry in 2 s\./);
    clock += 2_000;
    expect((await authorize(as.base, client.client_id)).status).toBe(303);
    expect((await authorize(as.base, client.client_id)).status).toBe(429);
  });

  it("limits pushed authorization requests at the endpoint the metadata names (30 at once, then 429)", async () => {
    clock += 60_000;
    const client = (await (await register(as.base)).json()) as { client_id: string };
    const metadata = (await (
      await fetch(`${as.base}/.well-known/oauth-authorization-server/oauth`)
    ).json()) as {
      pushed_authorization_request_endpoint: string;
    };
    // oidc-provider serves it at /oauth/request; the limit once sat on /oauth/par, where nothing is served.
    const push = () =>
      fetch(metadata.pushed_authorization_request_endpoint, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          client_id: client.client_id,
          response_type: "code",
          redirect_uri: "http://127.0.0.1:9/cb",
          code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
          code_challenge_method: "S256",
          scope: "steps:read",
        }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await push()).status);
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(201));
    const refused = await push();
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({
      error: "temporarily_unavailable",
      error_description: "Too many sign-in requests from this address: retry in 2 s.",
    });
  });

  it("limits token requests (30 at once, then one every 2 s), before any client authentication", async () => {
    clock += 60_000;
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++)
      statuses.push(
        (await as.token({ grant_type: "refresh_token", refresh_token: "not-a-token", client_id: "nobody" }))
          .status,
      );
    expect(statuses.slice(0, 30).every((status) => status !== 429)).toBe(true);
    const refused = await as.token({ grant_type: "refresh_token", refresh_token: "x", client_id: "nobody" });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("2");
    expect(await refused.json()).toMatchObject({
      error_description: "Too many token requests from this address: retry in 2 s.",
    });
    clock += 2_000;
    expect((await as.token({ grant_type: "refresh_token", refresh_token: "x" })).status).not.toBe(429);
    // Revocation takes a client assertion too (each keeps a replay guard's entry): the same allowance.
    const revoke = await fetch((await as.metadata()).revocation_endpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: "x", client_id: "nobody" }),
    });
    expect(revoke.status).toBe(429);
  });
});

describe("an approval when the store holds as many grants as it may", () => {
  let as: EmbeddedFixture;
  beforeAll(async () => {
    as = await startEmbeddedFixture({ tuning: { limits: { kinds: { Grant: { max: 1 } } } } });
  });
  afterAll(async () => {
    await as.close();
  });

  it("is refused on the consent page (503, nothing approved), and the first client keeps its grant", async () => {
    const first = await as.signIn();
    const provider = new RecordingOAuthProvider();
    const transport = new StreamableHTTPClientTransport(new URL(as.http.url), { authProvider: provider });
    await expect(new ModernClient({ name: "agent", version: "1" }).connect(transport)).rejects.toThrow(
      UnauthorizedError,
    );
    const browser = new ScriptedBrowser(as.base);
    await browser.request("GET", `/${new URL(as.web.loginUrl(as.base)).search}`);
    const start = provider.authorizationUrl as URL;
    await browser.follow(`${start.pathname}${start.search}`);
    const consentPath = browser.lastGetPath;
    const csrf = ScriptedBrowser.csrfOf((await browser.request("GET", consentPath)).text);
    const refused = await browser.request(
      "POST",
      consentPath,
      { "content-type": "application/x-www-form-urlencoded", origin: as.base },
      new URLSearchParams({ csrf, decision: "approve" }).toString(),
    );
    expect(refused.status, refused.text).toBe(503);
    expect(refused.text).toContain("Not approved: the server is full");
    expect((await as.mcp(first.accessToken)).status).toBe(200);
  });
});
