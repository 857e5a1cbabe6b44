import { createHash } from "node:crypto";
import {
  Client as ModernClient,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import { createLocalJWKSet, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProtectedResource } from "../../src/web/oauth/resource.js";
import { type EmbeddedFixture, startEmbeddedFixture } from "../helpers/embedded-as.js";
import { RecordingOAuthProvider, ScriptedBrowser } from "../helpers/oauth-browser.js";

/**
 * Issue 26, item 6 (tokens and pages): /mcp checks `typ: at+jwt` (RFC 9068 section 4) for the embedded
 * server's own tokens, refuses an `iat` in the future (30 s of skew allowed) and a lifetime longer than the
 * server issues (15 minutes); an external issuer's token may say `at+jwt`, `JWT` or nothing, never another
 * type. The `form_post` page carries a CSP that admits its one inline script by hash and nothing else.
 */
const ISSUER = "https://issuer.example";
const AUDIENCE = "http://127.0.0.1:1/mcp";

async function keyPair() {
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "k", alg: "ES256" };
  return { privateKey, keys: createLocalJWKSet({ keys: [jwk] }) };
}

describe("/mcp's checks of a JWT access token's type and times (resource.ts)", () => {
  let signer: Awaited<ReturnType<typeof keyPair>>;
  const live = new Set<string>(["g1"]);
  const now = () => Math.floor(Date.now() / 1000);
  beforeAll(async () => {
    signer = await keyPair();
  });

  const resource = (own: boolean) =>
    new ProtectedResource({
      issuer: ISSUER,
      audience: AUDIENCE,
      keys: async () => ({ issuer: ISSUER, keys: signer.keys }),
      ...(own
        ? {
            ownTokens: {
              maxLifetimeSeconds: 900,
              isLive: (claims: JWTPayload) => live.has(String(claims.grant)),
            },
          }
        : {}),
    });
  // One clock reading for iat and exp: read twice, a second could tick between them and make a 900 s token
  // live 901 s, which the 15-minute check refuses (CI, Node 20, under load).
  const token = (typ: string | undefined, claims: JWTPayload = {}, at = now()) =>
    new SignJWT({ scope: "steps:read", grant: "g1", iat: at, exp: at + 900, ...claims })
      .setProtectedHeader({ alg: "ES256", kid: "k", ...(typ === undefined ? {} : { typ }) })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .sign(signer.privateKey);
  const decide = async (own: boolean, jwt: Promise<string>) => {
    const decision = await resource(own).authorize(await jwt, "read");
    return decision.ok ? "ok" : decision.message;
  };

  it("requires typ at+jwt of the embedded server's own tokens", async () => {
    expect(await decide(true, token("at+jwt"))).toBe("ok");
    expect(await decide(true, token("application/at+jwt"))).toBe("ok");
    for (const typ of ["JWT", undefined, "id_token+jwt"])
      expect(await decide(true, token(typ)), String(typ)).toMatch(/not an access token \(typ "at\+jwt"\)/);
  });

  it("refuses an own token issued in the future, living longer than 15 minutes, or whose grant is gone", async () => {
    expect(await decide(true, token("at+jwt", { iat: now() + 25 }))).toBe("ok");
    expect(await decide(true, token("at+jwt", { iat: now() + 120, exp: now() + 900 }))).toMatch(
      /iat claim is in the future/,
    );
    expect(await decide(true, token("at+jwt", { iat: now(), exp: now() + 901 }))).toMatch(
      /lives longer than this server issues tokens for \(900 s\)/,
    );
    expect(await decide(true, token("at+jwt", { iat: undefined }))).toMatch(/iat/);
    expect(await decide(true, token("at+jwt", { grant: "g2" }))).toMatch(/revoked, or its sign-in has ended/);
  });

  it("accepts an external issuer's at+jwt, JWT or untyped token, and refuses any other type or a future iat", async () => {
    for (const typ of ["at+jwt", "application/at+jwt", "JWT", "jwt", undefined])
      expect(await decide(false, token(typ)), String(typ)).toBe("ok");
    for (const typ of ["id_token+jwt", "logout+jwt", "dpop+jwt", "secevent+jwt"])
      expect(await decide(false, token(typ)), typ).toMatch(/is not an access token's/);
    expect(await decide(false, token("at+jwt", { iat: now() + 120 }))).toMatch(/iat claim is in the future/);
    // The declared type is quoted back in WWW-Authenticate: never a line break or a quote.
    const odd = await resource(false).authorize(await token('x"\r\nset-cookie: a=b'), "read");
    expect(odd.ok).toBe(false);
    expect(odd.ok ? "" : odd.challenge).not.toMatch(/[\r\n]|x"/);
    // No lifetime is known of an external issuer: a long-lived token is its policy.
    expect(await decide(false, token("at+jwt", { exp: now() + 86_400 }))).toBe("ok");
  });
});

describe("the form_post response page of the embedded authorization server", () => {
  let as: EmbeddedFixture;
  beforeAll(async () => {
    as = await startEmbeddedFixture();
  });
  afterAll(async () => {
    await as.close();
  });

  it("admits only its own inline script, by hash, and posts only to the client's redirect origin", async () => {
    const provider = new RecordingOAuthProvider();
    const transport = new StreamableHTTPClientTransport(new URL(as.http.url), { authProvider: provider });
    await expect(new ModernClient({ name: "agent", version: "1" }).connect(transport)).rejects.toThrow(
      UnauthorizedError,
    );
    const start = provider.authorizationUrl as URL;
    start.searchParams.set("response_mode", "form_post");
    const browser = new ScriptedBrowser(as.base);
    await browser.request("GET", `/${new URL(as.web.loginUrl(as.base)).search}`);
    await browser.follow(`${start.pathname}${start.search}`);
    const consentPath = browser.lastGetPath;
    const csrf = ScriptedBrowser.csrfOf((await browser.request("GET", consentPath)).text);
    const approved = await browser.request(
      "POST",
      consentPath,
      { "content-type": "application/x-www-form-urlencoded", origin: as.base },
      new URLSearchParams({ csrf, decision: "approve" }).toString(),
    );
    const page = (await browser.follow(String(approved.headers.location))).answer;
    expect(page.status, page.text).toBe(200);
    expect(page.text).toContain('<form method="post" action="http://127.0.0.1:9/callback">');
    const script = /<script>([\s\S]*?)<\/script>/.exec(page.text)?.[1] as string;
    const hash = createHash("sha256").update(script).digest("base64");
    const csp = String(page.headers["content-security-policy"]);
    expect(csp.split(/;\s*/)).toEqual(
      expect.arrayContaining([
        "default-src 'none'",
        `script-src 'sha256-${hash}'`,
        "form-action http://127.0.0.1:9",
        "frame-ancestors 'none'",
        "base-uri 'none'",
      ]),
    );
  });
});
