import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConsoleHandle, createConsole } from "../../src/console/index.js";
import { type HttpServerHandle, startHttpServer } from "../../src/host/http.js";
import { oauthSettings } from "../../src/settings.js";
import { rawRequest } from "../helpers/console.js";
import { type MarketoFixture, marketoFixture } from "../helpers/fixtures.js";

/**
 * Issue 26, item 3: behind an https audience the embedded authorization server trusted X-Forwarded-Host,
 * so its metadata's token, authorization, registration and jwks_uri endpoints became https://evil.example/…,
 * in an answer without Cache-Control (a shared cache could keep the forgery for everyone). The public URLs
 * come from MARTECH_STEPS_OAUTH_AUDIENCE alone, whatever the request's forwarded headers say, and the
 * metadata is answered `no-store`.
 */
const PUBLIC = "https://mcp.example.com";
const ENDPOINTS = [
  "issuer",
  "authorization_endpoint",
  "token_endpoint",
  "registration_endpoint",
  "revocation_endpoint",
  "jwks_uri",
  "pushed_authorization_request_endpoint",
] as const;

describe("the embedded authorization server's published URLs behind a TLS proxy", () => {
  let fixture: MarketoFixture;
  let web: ConsoleHandle;
  let http: HttpServerHandle;
  let local: string;
  beforeAll(async () => {
    fixture = await marketoFixture();
    web = createConsole({ workspace: () => fixture.workspace, loopback: true, env: {} });
    http = await startHttpServer({
      port: 0,
      workspace: () => fixture.workspace,
      routes: web.routes,
      allowedHosts: ["mcp.example.com"],
      oauth: {
        ...oauthSettings({ MARTECH_STEPS_OAUTH: "embedded", MARTECH_STEPS_OAUTH_AUDIENCE: `${PUBLIC}/mcp` }),
        consent: web.consent,
      },
    });
    local = `http://127.0.0.1:${http.port}`;
  });
  afterAll(async () => {
    web.close();
    await http.close();
    await fixture.close();
  });

  const metadata = async (path: string, headers: Record<string, string>) => {
    const answer = await rawRequest(local, "GET", path, { headers: { host: "mcp.example.com", ...headers } });
    expect(answer.status, answer.text).toBe(200);
    return { answer, body: JSON.parse(answer.text) as Record<string, unknown> };
  };

  it("names only the configured public URL, whatever X-Forwarded-Host/Proto/For and Forwarded say, and is not cached", async () => {
    const forged = {
      "x-forwarded-host": "evil.example",
      "x-forwarded-proto": "http",
      "x-forwarded-for": "203.0.113.9",
      "x-forwarded-port": "8443",
      forwarded: "for=203.0.113.9;host=evil.example;proto=http",
    };
    for (const path of [
      "/.well-known/oauth-authorization-server/oauth",
      "/oauth/.well-known/openid-configuration",
    ]) {
      const { answer, body } = await metadata(path, forged);
      for (const name of ENDPOINTS)
        expect(String(body[name]), name).toMatch(new RegExp(`^${PUBLIC}/oauth(/|$)`));
      expect(answer.headers["cache-control"]).toBe("no-store");
    }
    const jwks = await rawRequest(local, "GET", "/oauth/jwks", {
      headers: { host: "mcp.example.com", ...forged },
    });
    expect(jwks.headers["cache-control"]).toBe("no-store");
  });

  it("holds for any forwarded header values (fast-check)", async () => {
    const host = fc.oneof(fc.domain(), fc.constant("127.0.0.1:1"), fc.constant("[::1]"));
    const headers = fc.record(
      {
        "x-forwarded-host": fc.oneof(
          host,
          fc.array(host, { minLength: 2, maxLength: 3 }).map((h) => h.join(", ")),
        ),
        "x-forwarded-proto": fc.constantFrom("http", "https", "ftp", "http, https"),
        "x-forwarded-for": fc.ipV4(),
        forwarded: host.map((h) => `host="${h}";proto=http`),
        "x-original-host": host,
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(headers, async (forged) => {
        const { body } = await metadata("/.well-known/oauth-authorization-server/oauth", forged);
        return ENDPOINTS.every((name) => String(body[name]).startsWith(`${PUBLIC}/oauth`));
      }),
      { seed: 26, numRuns: 40 },
    );
  });
});
