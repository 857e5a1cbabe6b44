import {
  auth,
  Client as ModernClient,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type ConsoleHandle, createConsole } from "../../src/console/index.js";
import { type HttpServerHandle, startHttpServer } from "../../src/host/http.js";
import { oauthSettings } from "../../src/settings.js";
import { EMBEDDED_WORKSPACE_CLAIM } from "../../src/web/oauth/embedded.js";
import { Workspace } from "../../src/workspace.js";
import { CANARY_SECRET, type MarketoFixture, marketoFixture } from "../helpers/fixtures.js";
import { RecordingOAuthProvider, ScriptedBrowser, signInThroughConsent } from "../helpers/oauth-browser.js";
import { allowStderr } from "../helpers/stderr.js";

/**
 * The embedded authorization server (issue 20, item 1): an MCP client that knows only the server's URL
 * signs in with the SDK's own OAuth flow (its OAuthClientProvider: dynamic registration, authorization code
 * with PKCE), a scripted browser logs in to the console and approves on the consent page, and the client
 * calls a step; its refresh token refreshes, and a revoked one no longer does.
 */
describe("the embedded authorization server (MARTECH_STEPS_OAUTH=embedded)", () => {
  let fixture: MarketoFixture;
  let web: ConsoleHandle;
  let http: HttpServerHandle;
  let base: string;

  beforeAll(async () => {
    fixture = await marketoFixture();
    web = createConsole({ workspace: () => fixture.workspace, loopback: true, env: {} });
    http = await startHttpServer({
      port: 0,
      workspace: () => fixture.workspace,
      routes: web.routes,
      oauth: { ...oauthSettings({ MARTECH_STEPS_OAUTH: "embedded" }), consent: web.consent },
    });
    base = new URL(http.url).origin;
  });
  afterAll(async () => {
    web.close();
    await http.close();
    await fixture.close();
  });

  it("lets the SDK client register, sign in through the console's consent page, call a step, refresh, and be revoked", async () => {
    const provider = new RecordingOAuthProvider();
    const first = new StreamableHTTPClientTransport(new URL(http.url), { authProvider: provider });
    await expect(new ModernClient({ name: "agent", version: "1" }).connect(first)).rejects.toThrow(
      UnauthorizedError,
    );
    expect(provider.info?.client_id).toBeTruthy();
    expect(provider.authorizationUrl?.searchParams.get("code_challenge_method")).toBe("S256");
    const callback = await signInThroughConsent(
      provider,
      new ScriptedBrowser(base),
      `/${new URL(web.loginUrl(base)).search}`,
    );
    await first.finishAuth(callback.searchParams);
    const token = provider.saved?.access_token as string;
    const claims = JSON.parse(Buffer.from(token.split(".")[1] as string, "base64url").toString());
    expect(claims).toMatchObject({
      iss: `${base}/oauth`,
      aud: http.url,
      [EMBEDDED_WORKSPACE_CLAIM]: "default",
    });
    expect(claims.scope.split(" ").sort()).toEqual(["steps:read", "steps:write"]);

    const client = new ModernClient({ name: "agent", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url), { authProvider: provider }));
    try {
      const result = await client.callTool({
        name: "marketo_api_call",
        arguments: {
          method: "POST",
          endpoint: "/rest/v1/leads.json",
          body: { input: [{ email: "a@b.example" }] },
        },
      });
      expect(result.isError).toBeFalsy();
      expect(JSON.stringify(result)).not.toContain(CANARY_SECRET);
    } finally {
      await client.close();
    }

    // A refresh (the SDK's auth() refreshes when it holds a refresh token) gives a new access token that works.
    const refreshToken = provider.saved?.refresh_token as string;
    expect(refreshToken).toBeTruthy();
    expect(await auth(provider, { serverUrl: http.url })).toBe("AUTHORIZED");
    const refreshed = provider.saved?.access_token as string;
    expect(refreshed).not.toBe(token);
    const again = new ModernClient({ name: "agent", version: "1" });
    await again.connect(new StreamableHTTPClientTransport(new URL(http.url), { authProvider: provider }));
    expect((await again.listTools()).tools.length).toBeGreaterThan(0);
    await again.close();

    // Revocation (RFC 7009) at the endpoint the metadata names: the refresh token no longer refreshes.
    const metadata = (await (await fetch(`${base}/.well-known/oauth-authorization-server/oauth`)).json()) as {
      revocation_endpoint: string;
      token_endpoint: string;
      issuer: string;
      response_types_supported: string[];
    };
    expect(metadata.issuer).toBe(`${base}/oauth`);
    // OAuth 2.1: the code flow only, no implicit or front-channel id_token.
    expect(metadata.response_types_supported).toEqual(["code"]);
    const current = provider.saved?.refresh_token as string;
    const revoked = await fetch(metadata.revocation_endpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        token: current,
        token_type_hint: "refresh_token",
        client_id: provider.info?.client_id as string,
      }),
    });
    expect(revoked.status).toBe(200);
    const refresh = await fetch(metadata.token_endpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: current,
        client_id: provider.info?.client_id as string,
      }),
    });
    expect(refresh.status).toBe(400);
    expect(await refresh.json()).toMatchObject({ error: "invalid_grant" });
    // The SDK's client, refused the refresh, drops its tokens and starts a new sign-in (saying so on stderr).
    allowStderr(/\[mcp-sdk\] OAuth "invalid_grant"/);
    expect(await auth(provider, { serverUrl: http.url })).toBe("REDIRECT");
    expect(provider.saved).toBeUndefined();
  });

  it("serves an authorization request without a scope with both scopes of /mcp (RFC 6749 section 3.3's default)", async () => {
    const provider = new RecordingOAuthProvider();
    const transport = new StreamableHTTPClientTransport(new URL(http.url), { authProvider: provider });
    await expect(new ModernClient({ name: "agent", version: "1" }).connect(transport)).rejects.toThrow(
      UnauthorizedError,
    );
    // A client that leaves the scope out (the conformance suite's authorization-code-grant does).
    provider.authorizationUrl?.searchParams.delete("scope");
    const callback = await signInThroughConsent(
      provider,
      new ScriptedBrowser(base),
      `/${new URL(web.loginUrl(base)).search}`,
    );
    expect(callback.searchParams.get("error")).toBeNull();
    await transport.finishAuth(callback.searchParams);
    const token = provider.saved?.access_token as string;
    const claims = JSON.parse(Buffer.from(token.split(".")[1] as string, "base64url").toString());
    expect(claims.scope.split(" ").sort()).toEqual(["steps:read", "steps:write"]);
  });

  it("refuses an approval without the CSRF token, and a declined client gets access_denied", async () => {
    const provider = new RecordingOAuthProvider();
    const transport = new StreamableHTTPClientTransport(new URL(http.url), { authProvider: provider });
    await expect(new ModernClient({ name: "agent", version: "1" }).connect(transport)).rejects.toThrow(
      UnauthorizedError,
    );
    const browser = new ScriptedBrowser(base);
    const login = new URL(web.loginUrl(base));
    await browser.request("GET", `/${login.search}`);
    const start = provider.authorizationUrl as URL;
    await browser.follow(`${start.pathname}${start.search}`);
    const consentPath = browser.lastGetPath;
    const page = await browser.request("GET", consentPath);
    const csrf = ScriptedBrowser.csrfOf(page.text);
    const form = { "content-type": "application/x-www-form-urlencoded" };
    // Right token, but not from the page's origin; then no token at all.
    expect((await browser.request("POST", consentPath, form, `csrf=${csrf}&decision=approve`)).status).toBe(
      403,
    );
    const noToken = await browser.request("POST", consentPath, { ...form, origin: base }, "decision=approve");
    expect(noToken.status).toBe(403);
    const declined = await browser.request(
      "POST",
      consentPath,
      { ...form, origin: base },
      new URLSearchParams({ csrf, decision: "deny" }).toString(),
    );
    expect(declined.status).toBe(303);
    const back = await browser.follow(String(declined.headers.location));
    expect(back.location?.searchParams.get("error")).toBe("access_denied");
  });

  it("reopens the consent page from its own origin when a hosted client's page navigated to it cross-site", async () => {
    const provider = new RecordingOAuthProvider();
    const transport = new StreamableHTTPClientTransport(new URL(http.url), { authProvider: provider });
    await expect(new ModernClient({ name: "agent", version: "1" }).connect(transport)).rejects.toThrow(
      UnauthorizedError,
    );
    const browser = new ScriptedBrowser(base);
    await browser.request("GET", `/${new URL(web.loginUrl(base)).search}`);
    const start = provider.authorizationUrl as URL;
    await browser.follow(`${start.pathname}${start.search}`);
    const consentPath = browser.lastGetPath;
    // The navigation from the client's site, and the redirects after it, arrive cross-site: the browser
    // leaves out the console's SameSite=Strict cookie, so the page cannot be shown yet; it reopens itself.
    const crossSite = await browser.request("GET", consentPath, {
      "sec-fetch-site": "cross-site",
      "sec-fetch-mode": "navigate",
      cookie: [...browser.jar]
        .filter(([name]) => name.startsWith("_interaction"))
        .map((p) => p.join("="))
        .join("; "),
    });
    expect(crossSite.status, crossSite.text).toBe(200);
    expect(crossSite.text).toContain('<meta http-equiv="refresh" content="0">');
    expect(crossSite.text).not.toContain("csrf");
    expect(crossSite.text).not.toContain("Test Agent");
    // The reopened page is a same-origin navigation, with the session's cookie: the consent form.
    const reopened = await browser.request("GET", consentPath, {
      "sec-fetch-site": "same-origin",
      "sec-fetch-mode": "navigate",
    });
    expect(reopened.status, reopened.text).toBe(200);
    ScriptedBrowser.csrfOf(reopened.text);
    // A cross-site POST is still refused, whatever it carries.
    const form = { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "cross-site" };
    expect((await browser.request("POST", consentPath, form, "decision=approve")).status).toBe(403);
  });

  it("answers a broken authorization request with its own escaped error page, printing nothing", async () => {
    const info = vi.spyOn(console, "info");
    try {
      const answer = await fetch(`${base}/oauth/auth?client_id=%3Cscript%3E&response_type=code`);
      expect(answer.status).toBe(400);
      expect(answer.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
      const text = await answer.text();
      expect(text).toContain("Start the sign-in again from your MCP client.");
      expect(text).not.toContain("<script>");
      expect(info).not.toHaveBeenCalled();
    } finally {
      info.mockRestore();
    }
  });

  it("is refused off loopback without HTTPS, and without the console", async () => {
    const workspace = () => new Workspace({ env: {} });
    const embedded = oauthSettings({ MARTECH_STEPS_OAUTH: "embedded" });
    await expect(
      startHttpServer({ host: "0.0.0.0", port: 0, workspace, oauth: { ...embedded, consent: web.consent } }),
    ).rejects.toThrow(/without HTTPS/);
    // A loopback http audience does not make a server bound to every interface local: other hosts reach
    // its /oauth and the console login over plain HTTP (the review's bypass).
    const loopbackAudience = oauthSettings({
      MARTECH_STEPS_OAUTH: "embedded",
      MARTECH_STEPS_OAUTH_AUDIENCE: "http://127.0.0.1:47311/mcp",
    });
    await expect(
      startHttpServer({
        host: "0.0.0.0",
        port: 0,
        workspace,
        oauth: { ...loopbackAudience, consent: web.consent },
      }),
    ).rejects.toThrow(/Refusing MARTECH_STEPS_OAUTH=embedded on 0\.0\.0\.0 without HTTPS/);
    await expect(startHttpServer({ port: 0, workspace, oauth: embedded })).rejects.toThrow(
      /needs the console/,
    );
    const behindTls = await startHttpServer({
      host: "0.0.0.0",
      port: 0,
      workspace,
      oauth: {
        ...oauthSettings({
          MARTECH_STEPS_OAUTH: "embedded",
          MARTECH_STEPS_OAUTH_AUDIENCE: "https://mcp.example.com/mcp",
        }),
        consent: web.consent,
      },
    });
    const answer = await fetch(`http://127.0.0.1:${behindTls.port}/.well-known/oauth-protected-resource/mcp`);
    expect(await answer.json()).toMatchObject({
      resource: "https://mcp.example.com/mcp",
      authorization_servers: ["https://mcp.example.com/oauth"],
    });
    await behindTls.close();
  });
});
