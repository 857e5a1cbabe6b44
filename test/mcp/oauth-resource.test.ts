import { decodeJwt, decodeProtectedHeader, importJWK, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpOptions } from "../../src/cli/serve.js";
import { type HttpServerHandle, parseApiKeys, startHttpServer } from "../../src/host/http.js";
import { oauthSettings } from "../../src/settings.js";
import { accessOf } from "../../src/web/oauth/scopes.js";
import { Workspace } from "../../src/workspace.js";
import { signingJwk, startIssuer, type TestIssuer, TOKEN_TTL_SECONDS } from "../helpers/oidc-issuer.js";
import { INIT, raw } from "../helpers/raw-http.js";
import { allowStderr } from "../helpers/stderr.js";

/**
 * /mcp as an OAuth 2.1 protected resource of an external issuer (issue 20, item 1): a real oidc-provider on
 * loopback stands for Auth0/Okta/Keycloak, and the server is configured through its settings alone.
 */

const KEY = "k".repeat(32);
const CLAIM = "martech_workspace";
const MODERN_HEADERS = {
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "tools/call",
  "mcp-name": "marketo_api_call",
};
const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** A 2026-07-28 tools/call (no session needed), so that one request reaches the step. */
function call(name: string, args: Record<string, unknown>) {
  return {
    jsonrpc: "2.0",
    id: "c1",
    method: "tools/call",
    params: { name, arguments: args, _meta: MODERN_META },
  };
}

const MARKETO_WRITE = call("marketo_api_call", { method: "POST", endpoint: "/rest/v1/leads.json", body: {} });
const MARKETO_READ = call("marketo_api_call", { method: "get", endpoint: "/rest/v1/lists.json" });

/** The parameters of a Bearer challenge (RFC 6750 section 3). */
function challenge(header: unknown): Record<string, string> {
  expect(typeof header).toBe("string");
  const text = header as string;
  expect(text.startsWith("Bearer ")).toBe(true);
  return Object.fromEntries([...text.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
}

describe("/mcp as an OAuth protected resource of an external issuer", () => {
  let issuer: TestIssuer;
  let http: HttpServerHandle;
  let clock: Date | undefined;
  const opened: string[] = [];
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  beforeAll(async () => {
    allowStderr(/oidc-provider WARNING/);
    issuer = await startIssuer();
    issuer.claims[CLAIM] = "team";
    const env = {
      MARTECH_STEPS_OAUTH_ISSUER: issuer.issuer,
      MARTECH_STEPS_OAUTH_WORKSPACE_CLAIM: CLAIM,
      MARTECH_STEPS_API_KEYS: `keyed:${KEY}`,
    };
    const options = httpOptions(env, { port: "0" });
    http = await startHttpServer({
      ...options,
      oauth: { ...options.oauth, now: () => clock ?? new Date() },
      workspace: (name) => {
        opened.push(name);
        return new Workspace({ name, env: {} });
      },
    });
  });
  afterAll(async () => {
    await http.close();
    await issuer.close();
  });

  it("publishes its Protected Resource Metadata at the path-suffixed and the root address", async () => {
    const origin = new URL(http.url).origin;
    for (const path of [
      "/.well-known/oauth-protected-resource/mcp",
      "/.well-known/oauth-protected-resource",
    ]) {
      const response = await fetch(`${origin}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      expect(await response.json()).toEqual({
        resource: http.url,
        authorization_servers: [issuer.issuer],
        scopes_supported: ["steps:read", "steps:write"],
        bearer_methods_supported: ["header"],
        resource_name: "martech-steps",
      });
    }
  });

  it("answers a request without a token 401, with the metadata's address and the scopes to ask for", async () => {
    const refused = await raw(http.url, { body: INIT });
    expect(refused.status).toBe(401);
    const params = challenge(refused.headers["www-authenticate"]);
    expect(params.resource_metadata).toBe(
      `${new URL(http.url).origin}/.well-known/oauth-protected-resource/mcp`,
    );
    expect(params.scope).toBe("steps:read steps:write");
    expect(refused.json()).toMatchObject({ id: 1, error: { code: -32000 } });
  });

  it("serves a valid token's workspace, from the configured claim", async () => {
    opened.length = 0;
    const token = await issuer.token(http.url, "steps:read");
    const served = await raw(http.url, { headers: bearer(token), body: INIT });
    expect(served.status).toBe(200);
    expect(opened).toContain("team");
    expect(opened).not.toContain("default");
  });

  it("keeps static API keys working beside OAuth", async () => {
    opened.length = 0;
    const served = await raw(http.url, { headers: bearer(KEY), body: INIT });
    expect(served.status).toBe(200);
    expect(opened).toContain("keyed");
  });

  it("refuses a token minted for another audience (RFC 8707)", async () => {
    const token = await issuer.token("https://other.example.com/mcp", "steps:read steps:write");
    const refused = await raw(http.url, { headers: bearer(token), body: INIT });
    expect(refused.status).toBe(401);
    const params = challenge(refused.headers["www-authenticate"]);
    expect(params.error).toBe("invalid_token");
    expect(params.error_description).toMatch(/not for this server/);
    expect(params.resource_metadata).toMatch(/oauth-protected-resource\/mcp$/);
  });

  it("refuses an expired token, after the clock skew allowed", async () => {
    const token = await issuer.token(http.url, "steps:read");
    const exp = decodeJwt(token).exp as number;
    try {
      clock = new Date((exp + 20) * 1000);
      expect((await raw(http.url, { headers: bearer(token), body: INIT })).status).toBe(200);
      clock = new Date((exp + 31) * 1000);
      const refused = await raw(http.url, { headers: bearer(token), body: INIT });
      expect(refused.status).toBe(401);
      expect(challenge(refused.headers["www-authenticate"])).toMatchObject({
        error: "invalid_token",
        error_description: "the token has expired",
      });
    } finally {
      clock = undefined;
    }
    expect(exp - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(TOKEN_TTL_SECONDS);
  });

  it("refuses a token of another issuer, even one signed with the same key", async () => {
    allowStderr(/oidc-provider WARNING/);
    const other = await startIssuer({ jwk: issuer.jwk });
    try {
      other.claims[CLAIM] = "team";
      const token = await other.token(http.url, "steps:read");
      const refused = await raw(http.url, { headers: bearer(token), body: INIT });
      expect(refused.status).toBe(401);
      expect(challenge(refused.headers["www-authenticate"])).toMatchObject({
        error: "invalid_token",
        error_description: "the token is from another issuer",
      });
    } finally {
      await other.close();
    }
  });

  it("refuses a forged signature: the same claims signed with a key the issuer does not hold", async () => {
    const token = await issuer.token(http.url, "steps:read steps:write");
    const forgedKey = await importJWK(await signingJwk(decodeProtectedHeader(token).kid), "ES256");
    const forged = await new SignJWT(decodeJwt(token))
      .setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid: decodeProtectedHeader(token).kid as string })
      .sign(forgedKey);
    const refused = await raw(http.url, { headers: bearer(forged), body: INIT });
    expect(refused.status).toBe(401);
    expect(challenge(refused.headers["www-authenticate"])).toMatchObject({
      error: "invalid_token",
      error_description: "the token's signature is not valid",
    });
    const unsigned = `${token.split(".").slice(0, 2).join(".")}.`;
    expect((await raw(http.url, { headers: bearer(unsigned), body: INIT })).status).toBe(401);
  });

  it("refuses alg confusion, alg none, a token not valid yet or without exp or aud, and a workspace that is a path", async () => {
    const token = await issuer.token(http.url, "steps:read steps:write");
    const claims = decodeJwt(token);
    const { kid } = decodeProtectedHeader(token);
    const { d: _private, ...publicJwk } = issuer.jwk;
    const real = await importJWK(issuer.jwk, "ES256");
    const sign = (payload: Record<string, unknown>) =>
      new SignJWT(payload).setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid: kid as string }).sign(real);
    const status = async (jwt: string) => (await raw(http.url, { headers: bearer(jwt), body: INIT })).status;
    // HS256 keyed with the issuer's public key (published, so anyone has it), and alg none.
    const hs = await new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256", kid: kid as string })
      .sign(new TextEncoder().encode(JSON.stringify(publicJwk)));
    expect(await status(hs)).toBe(401);
    const none = `${Buffer.from(JSON.stringify({ alg: "none", kid })).toString("base64url")}.${token.split(".")[1]}.`;
    expect(await status(none)).toBe(401);
    const now = Math.floor(Date.now() / 1000);
    expect(await status(await sign({ ...claims, nbf: now + 3600 }))).toBe(401);
    const { exp: _exp, ...noExp } = claims;
    expect(await status(await sign(noExp))).toBe(401);
    const { aud: _aud, ...noAud } = claims;
    expect(await status(await sign(noAud))).toBe(401);
    for (const workspace of ["../keyed", "team/../keyed", "Team", "", 7])
      expect(await status(await sign({ ...claims, [CLAIM]: workspace }))).toBe(401);
    // The same key and claims, with the scope padded by spaces: still valid.
    expect(await status(await sign({ ...claims, scope: "  steps:read   steps:write " }))).toBe(200);
  });

  it("refuses a token without the workspace claim", async () => {
    delete issuer.claims[CLAIM];
    try {
      const token = await issuer.token(http.url, "steps:read");
      const refused = await raw(http.url, { headers: bearer(token), body: INIT });
      expect(refused.status).toBe(401);
      expect(challenge(refused.headers["www-authenticate"]).error_description).toMatch(
        /martech_workspace claim/,
      );
    } finally {
      issuer.claims[CLAIM] = "team";
    }
  });

  it("answers 403 insufficient_scope naming the scope a request needs", async () => {
    const none = await issuer.token(http.url, "");
    const refused = await raw(http.url, { headers: bearer(none), body: INIT });
    expect(refused.status).toBe(403);
    expect(challenge(refused.headers["www-authenticate"])).toMatchObject({
      error: "insufficient_scope",
      scope: "steps:read",
    });
    const read = await issuer.token(http.url, "steps:read");
    const write = await raw(http.url, {
      headers: { ...bearer(read), ...MODERN_HEADERS },
      body: MARKETO_WRITE,
    });
    expect(write.status).toBe(403);
    const params = challenge(write.headers["www-authenticate"]);
    expect(params).toMatchObject({ error: "insufficient_scope", scope: "steps:write" });
    expect(params.resource_metadata).toMatch(/oauth-protected-resource\/mcp$/);
    const keyEvents = call("google_analytics_create_key_events", { property: "1", key_events: [] });
    const headers = { ...bearer(read), ...MODERN_HEADERS, "mcp-name": "google_analytics_create_key_events" };
    expect((await raw(http.url, { headers, body: keyEvents })).status).toBe(403);
  });

  it("lets a read token read and a write token write (the step runs and answers)", async () => {
    const read = await issuer.token(http.url, "steps:read");
    const reading = await raw(http.url, {
      headers: { ...bearer(read), ...MODERN_HEADERS },
      body: MARKETO_READ,
    });
    expect(reading.status).toBe(200);
    expect(reading.json()).toMatchObject({ id: "c1", result: { isError: true } });
    const write = await issuer.token(http.url, "steps:write");
    const writing = await raw(http.url, {
      headers: { ...bearer(write), ...MODERN_HEADERS },
      body: MARKETO_WRITE,
    });
    expect(writing.status).toBe(200);
    expect(writing.json()).toMatchObject({ id: "c1", result: { isError: true } });
  });
});

describe("OAuth settings", () => {
  it("are off by default, and refuse what they cannot read", () => {
    expect(oauthSettings({})).toEqual({ mode: "off" });
    expect(oauthSettings({ MARTECH_STEPS_OAUTH_ISSUER: "https://login.example.com/" })).toEqual({
      mode: "external",
      issuer: "https://login.example.com/",
    });
    expect(() => oauthSettings({ MARTECH_STEPS_OAUTH_ISSUER: "login.example.com" })).toThrow(
      /MARTECH_STEPS_OAUTH_ISSUER must be an http\(s\) URL/,
    );
    expect(() => oauthSettings({ MARTECH_STEPS_OAUTH: "yes" })).toThrow(
      /MARTECH_STEPS_OAUTH must be "embedded" or "off"/,
    );
    expect(oauthSettings({ MARTECH_STEPS_OAUTH: "embedded" })).toEqual({ mode: "embedded" });
    expect(() =>
      oauthSettings({
        MARTECH_STEPS_OAUTH: "embedded",
        MARTECH_STEPS_OAUTH_ISSUER: "https://login.example.com/",
      }),
    ).toThrow(/both set/);
  });

  it("let a server on every interface start with OAuth alone, and say so without either", async () => {
    const workspace = () => new Workspace({ env: {} });
    await expect(
      startHttpServer({ host: "0.0.0.0", port: 0, workspace, apiKeys: parseApiKeys("") }),
    ).rejects.toThrow(/without API keys or OAuth/);
    const http = await startHttpServer({
      host: "0.0.0.0",
      port: 0,
      workspace,
      oauth: oauthSettings({ MARTECH_STEPS_OAUTH_ISSUER: "https://login.example.com/" }),
    });
    try {
      expect((await raw(`http://127.0.0.1:${http.port}/mcp`, { body: INIT })).status).toBe(401);
      // Open only where /mcp is: with OAuth and no API keys, nobody reads the metrics.
      expect((await fetch(`http://127.0.0.1:${http.port}/metrics`)).status).toBe(401);
    } finally {
      await http.close();
    }
  });
});

describe("which calls are writes", () => {
  const tools = (name: string, args: Record<string, unknown> = {}) => call(name, args);
  it("reads: every request but tools/call, the read-only steps, an API Call with GET", () => {
    expect(accessOf(INIT)).toBe("read");
    expect(accessOf(undefined)).toBe("read");
    expect(accessOf(tools("google_analytics_run_reports"))).toBe("read");
    expect(
      accessOf(tools("google_analytics_api_call", { method: "GET", endpoint: "v1beta/accountSummaries" })),
    ).toBe("read");
  });
  it("writes: the create steps, an API Call with any other method or none, an unknown tool, a batch with one", () => {
    expect(accessOf(tools("google_analytics_create_properties"))).toBe("write");
    expect(accessOf(tools("google_analytics_api_call", { method: "PATCH" }))).toBe("write");
    expect(accessOf(tools("marketo_api_call", { method: "DELETE" }))).toBe("write");
    expect(accessOf(tools("marketo_api_call", {}))).toBe("write");
    expect(accessOf(tools("no_such_tool"))).toBe("write");
    expect(accessOf([INIT, tools("marketo_api_call", { method: "POST" })])).toBe("write");
  });
});

describe("an external issuer behind a public URL, or out of reach", () => {
  it("binds tokens to MARTECH_STEPS_OAUTH_AUDIENCE when set (the public /mcp URL behind a proxy)", async () => {
    allowStderr(/oidc-provider WARNING/);
    const issuer = await startIssuer();
    const audience = "https://mcp.example.com/mcp";
    const env = { MARTECH_STEPS_OAUTH_ISSUER: issuer.issuer, MARTECH_STEPS_OAUTH_AUDIENCE: audience };
    const http = await startHttpServer({
      ...httpOptions(env, { port: "0" }),
      workspace: () => new Workspace({ env: {} }),
    });
    try {
      const metadata = await (
        await fetch(http.url.replace("/mcp", "/.well-known/oauth-protected-resource/mcp"))
      ).json();
      expect(metadata).toMatchObject({ resource: audience });
      const refused = await raw(http.url, { body: INIT });
      expect(challenge(refused.headers["www-authenticate"]).resource_metadata).toBe(
        "https://mcp.example.com/.well-known/oauth-protected-resource/mcp",
      );
      const forOwnUrl = await issuer.token(http.url, "steps:read");
      expect(
        (await raw(http.url, { headers: { authorization: `Bearer ${forOwnUrl}` }, body: INIT })).status,
      ).toBe(401);
      const forAudience = await issuer.token(audience, "steps:read");
      expect(
        (await raw(http.url, { headers: { authorization: `Bearer ${forAudience}` }, body: INIT })).status,
      ).toBe(200);
    } finally {
      await http.close();
      await issuer.close();
    }
  });

  it("answers 503 while the issuer's keys cannot be read, and logs why", async () => {
    allowStderr(/oidc-provider WARNING|OAuth: the issuer's signing keys could not be read/);
    const issuer = await startIssuer();
    const token = await issuer.token("http://127.0.0.1:1/mcp", "steps:read");
    await issuer.close();
    const env = {
      MARTECH_STEPS_OAUTH_ISSUER: issuer.issuer,
      MARTECH_STEPS_OAUTH_AUDIENCE: "http://127.0.0.1:1/mcp",
    };
    const http = await startHttpServer({
      ...httpOptions(env, { port: "0" }),
      workspace: () => new Workspace({ env: {} }),
    });
    try {
      const refused = await raw(http.url, { headers: { authorization: `Bearer ${token}` }, body: INIT });
      expect(refused.status).toBe(503);
      expect(refused.json()?.error?.message).toMatch(/signing keys could not be read/);
    } finally {
      await http.close();
    }
  });
});
