import {
  Client as ModernClient,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardRedirects } from "../../src/web/oauth/embedded.js";
import { checkRedirectUri } from "../../src/web/oauth/redirect-uris.js";
import { type EmbeddedFixture, register, startEmbeddedFixture } from "../helpers/embedded-as.js";
import { RecordingOAuthProvider, ScriptedBrowser } from "../helpers/oauth-browser.js";

/**
 * Issue 26, item 4: `http://127.0.0.1:9@evil.example/cb`, plain `http://evil.example/cb` and look-alikes were
 * registered; the consent page showed the raw string, and after Allow the code went to evil.example over
 * http. Redirect URIs must be https or http on loopback (the MCP authorization specification), without
 * userinfo, with the host written as the parser reads it; the consent page shows the host a person must trust.
 */
const REFUSED = [
  "http://127.0.0.1:9@evil.example/cb",
  "https://user@app.example.com/cb",
  "http://evil.example/cb",
  "http://localhost.evil.example/cb",
  "http://127.0.0.1.nip.io/cb",
  "http://0x7f.1/cb",
  "http://2130706433/cb",
  "http://127.1/cb",
  "http://%6cocalhost/cb",
  "http://[0:0:0:0:0:0:0:1]/cb",
  "http://localhost./cb",
  "http:evil.example/cb",
  "https://bücher.example/cb",
  "com.example.app:/cb",
  "javascript:alert(1)",
  "https://app.example.com/cb#frag",
  "https://app.example.com/c b",
  "https://app.example.com\\@evil.example/cb",
];
const ACCEPTED: [string, string, boolean][] = [
  ["http://127.0.0.1:9/cb", "127.0.0.1:9", true],
  ["http://127.0.0.1/cb", "127.0.0.1", true],
  ["http://127.8.9.10:8080/callback?x=1", "127.8.9.10:8080", true],
  ["http://[::1]:3000/cb", "[::1]:3000", true],
  ["http://localhost:3000/cb", "localhost:3000", true],
  ["https://app.example.com/oauth/callback", "app.example.com", false],
  ["https://xn--bcher-kva.example/cb", "xn--bcher-kva.example", false],
  ["https://localhost/cb", "localhost", false],
];

describe("redirect URIs the embedded authorization server accepts (redirect-uris.ts)", () => {
  it("refuses userinfo, plain http off loopback, look-alikes, unparsed hosts and private-use schemes", () => {
    for (const uri of REFUSED) expect(checkRedirectUri(uri), uri).toMatchObject({ ok: false });
    for (const [uri, host, loopback] of ACCEPTED)
      expect(checkRedirectUri(uri), uri).toEqual({ ok: true, host, loopback });
  });

  it("accepts only URIs whose code goes to the host it shows, over https or to loopback (fast-check)", () => {
    const host = fc.oneof(
      fc.domain(),
      fc.ipV4(),
      fc.ipV4Extended(),
      fc.constantFrom("localhost", "127.0.0.1", "[::1]", "0x7f.1", "LOCALHOST", "localhost.evil.example"),
      fc.constant("127.0.0.1.nip.io"),
    );
    // About a quarter of these are accepted (a fifth of those on loopback); the rest try each refusal.
    const uri = fc
      .tuple(
        fc.oneof(
          { arbitrary: fc.constantFrom("http://", "https://"), weight: 8 },
          { arbitrary: fc.constantFrom("HTTP://", "http:", "https:/", "com.example.app:/"), weight: 1 },
        ),
        fc.oneof(
          { arbitrary: fc.constant(""), weight: 6 },
          { arbitrary: fc.constantFrom("user@", "127.0.0.1:9@", "a:b@", "@"), weight: 1 },
        ),
        host,
        fc.option(
          fc.integer({ min: 1, max: 65535 }).map((port) => `:${port}`),
          { nil: "" },
        ),
        fc.webPath(),
      )
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(uri, (raw) => {
        const checked = checkRedirectUri(raw);
        if (!checked.ok) return true;
        const url = new URL(raw);
        const shown = raw.toLowerCase().includes(`//${checked.host}`);
        const safe =
          url.protocol === "https:" || (checked.loopback && /^(localhost|127\.|\[::1\])/.test(url.hostname));
        return shown && safe && url.username === "" && url.password === "" && checked.host === url.host;
      }),
      { seed: 4, numRuns: 300 },
    );
  });

  it("is asked again at every authorization request, whatever the registration holds", () => {
    class Client {
      redirectUriAllowed(_value: string): boolean {
        return true;
      }
    }
    guardRedirects({ Client } as never);
    const client = new Client();
    expect(client.redirectUriAllowed("http://127.0.0.1:9@evil.example/cb")).toBe(false);
    expect(client.redirectUriAllowed("http://evil.example/cb")).toBe(false);
    expect(client.redirectUriAllowed("http://127.0.0.1:9/cb")).toBe(true);
  });
});

describe("registration and consent with redirect URIs (embedded authorization server)", () => {
  let as: EmbeddedFixture;
  beforeAll(async () => {
    as = await startEmbeddedFixture({
      tuning: { requestRules: { registration: { burst: 100, everyMs: 1 } } },
    });
  });
  afterAll(async () => {
    await as.close();
  });

  it("refuses a registration with a dangerous redirect URI (400 invalid_redirect_uri, naming why)", async () => {
    for (const uri of REFUSED.slice(0, 8).concat("com.example.app:/cb")) {
      const answer = await register(as.base, { redirect_uris: ["http://127.0.0.1:9/cb", uri] });
      const body = (await answer.json()) as { error: string; error_description: string };
      expect(answer.status, uri).toBe(400);
      expect(body.error).toBe("invalid_redirect_uri");
      expect(body.error_description).toMatch(/^redirect_uris: /);
    }
    const userinfo = await register(as.base, { redirect_uris: ["http://127.0.0.1:9@evil.example/cb"] });
    expect(((await userinfo.json()) as { error_description: string }).error_description).toContain(
      "carries userinfo",
    );
    for (const [uri] of ACCEPTED)
      expect((await register(as.base, { redirect_uris: [uri] })).status, uri).toBe(201);
  });

  it("shows the host that receives the code on the consent page, with a warning for loopback", async () => {
    const provider = new RecordingOAuthProvider();
    const transport = new StreamableHTTPClientTransport(new URL(as.http.url), { authProvider: provider });
    await expect(new ModernClient({ name: "agent", version: "1" }).connect(transport)).rejects.toThrow(
      UnauthorizedError,
    );
    const browser = new ScriptedBrowser(as.base);
    await browser.request("GET", `/${new URL(as.web.loginUrl(as.base)).search}`);
    const start = provider.authorizationUrl as URL;
    await browser.follow(`${start.pathname}${start.search}`);
    const page = await browser.request("GET", browser.lastGetPath);
    expect(page.status).toBe(200);
    expect(page.text).toContain("<h2>Its access goes to 127.0.0.1:9</h2>");
    expect(page.text).toContain("a program on the computer this browser runs on");
    expect(page.text).toContain("The client registered itself with this server: its name is its own claim");
    expect(page.text).toContain("<code>http://127.0.0.1:9/callback</code>");
  });
});
