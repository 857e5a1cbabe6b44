/**
 * A pushed authorization request (RFC 9126, on by default in oidc-provider and advertised in the
 * authorization server's metadata) carries its scope in the pushed request; the link the browser opens names
 * only client_id and request_uri. The default scope for a request without one (RFC 6749 section 3.3) must
 * not be added to such a link: the person is asked for what the client pushed, no more. And a refresh
 * token of a read-only grant cannot ask for steps:write (every registered client may ask for every scope,
 * src/web/oauth/embedded.ts, but only on the consent page).
 */
import {
  Client as ModernClient,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConsoleHandle, createConsole } from "../../src/console/index.js";
import { type HttpServerHandle, startHttpServer } from "../../src/host/http.js";
import { oauthSettings } from "../../src/settings.js";
import { type MarketoFixture, marketoFixture } from "../helpers/fixtures.js";
import { RecordingOAuthProvider, ScriptedBrowser, signInThroughConsent } from "../helpers/oauth-browser.js";

describe("no scope without the person's consent (embedded authorization server)", () => {
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

  it("asks for the pushed scope only, and the token carries only it", async () => {
    const provider = new RecordingOAuthProvider();
    const transport = new StreamableHTTPClientTransport(new URL(http.url), { authProvider: provider });
    await expect(new ModernClient({ name: "agent", version: "1" }).connect(transport)).rejects.toThrow(
      UnauthorizedError,
    );
    const start = provider.authorizationUrl as URL;
    const metadata = (await (await fetch(`${base}/.well-known/oauth-authorization-server/oauth`)).json()) as {
      pushed_authorization_request_endpoint?: string;
    };
    expect(metadata.pushed_authorization_request_endpoint).toBeTruthy();
    const pushed = new URLSearchParams(start.searchParams);
    pushed.set("scope", "steps:read");
    const answer = await fetch(metadata.pushed_authorization_request_endpoint as string, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: pushed,
    });
    const par = (await answer.json()) as { request_uri?: string };
    expect(answer.status, JSON.stringify(par)).toBe(201);
    provider.authorizationUrl = new URL(
      `${start.origin}${start.pathname}?${new URLSearchParams({
        client_id: String(start.searchParams.get("client_id")),
        request_uri: String(par.request_uri),
      })}`,
    );
    const callback = await signInThroughConsent(
      provider,
      new ScriptedBrowser(base),
      `/${new URL(web.loginUrl(base)).search}`,
      ["steps:read"],
    );
    expect(callback.searchParams.get("error")).toBeNull();
    await transport.finishAuth(callback.searchParams);
    const token = provider.saved?.access_token as string;
    const claims = JSON.parse(Buffer.from(token.split(".")[1] as string, "base64url").toString());
    expect(claims.scope).toBe("steps:read");
  });
  it("does not widen a read-only grant when its refresh token asks for steps:write", async () => {
    const provider = new RecordingOAuthProvider();
    const transport = new StreamableHTTPClientTransport(new URL(http.url), { authProvider: provider });
    await expect(new ModernClient({ name: "agent", version: "1" }).connect(transport)).rejects.toThrow(
      UnauthorizedError,
    );
    provider.authorizationUrl?.searchParams.set("scope", "steps:read");
    const callback = await signInThroughConsent(
      provider,
      new ScriptedBrowser(base),
      `/${new URL(web.loginUrl(base)).search}`,
      ["steps:read"],
    );
    await transport.finishAuth(callback.searchParams);
    const refreshToken = provider.saved?.refresh_token as string;
    expect(refreshToken).toBeTruthy();
    const answer = await fetch(`${base}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: refreshToken,
        client_id: String(provider.info?.client_id),
        scope: "steps:read steps:write",
        resource: http.url,
      }),
    });
    const body = (await answer.json()) as { access_token?: string; error?: string };
    if (answer.ok) {
      const token = body.access_token as string;
      const claims = JSON.parse(Buffer.from(token.split(".")[1] as string, "base64url").toString());
      expect(claims.scope).toBe("steps:read");
    } else {
      expect(body.error).toBe("invalid_scope");
    }
  });
});
