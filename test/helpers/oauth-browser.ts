import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthTokens,
} from "@modelcontextprotocol/client";
import { expect } from "vitest";
import { type RawResponse, rawRequest } from "./console.js";

/**
 * An MCP client's side of the authorization code flow (the SDK's OAuthClientProvider), as a desktop agent
 * keeps it: registered once (dynamic registration), the PKCE verifier, the tokens; the authorization URL it
 * would open in a browser is kept for the scripted browser below.
 */
type DiscoveryState = Parameters<NonNullable<OAuthClientProvider["saveDiscoveryState"]>>[0];

export class RecordingOAuthProvider implements OAuthClientProvider {
  discovery: DiscoveryState | undefined;
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  authorizationUrl: URL | undefined;
  /** Never contacted: the browser reads the code from the redirect's Location. */
  readonly redirectUrl = "http://127.0.0.1:9/callback";

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "Test Agent <b>",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  /** The authorization server found at redirect time: the SDK checks the code comes back from it (SEP-2352). */
  saveDiscoveryState(state: DiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
  /** What the SDK drops when the server refuses it (a revoked refresh token: the tokens). */
  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery") {
    if (scope === "all" || scope === "tokens") this.saved = undefined;
    if (scope === "all" || scope === "client") this.info = undefined;
    if (scope === "all" || scope === "verifier") this.verifier = "";
    if (scope === "all" || scope === "discovery") this.discovery = undefined;
  }
}

/** A browser's cookie jar, sent whole on every request (one origin, paths ignored: enough for the flow). */
export class ScriptedBrowser {
  readonly jar = new Map<string, string>();
  /** The path of the last page {@link follow} arrived at (the consent page, in the flow). */
  lastGetPath = "";
  constructor(readonly base: string) {}

  get cookie(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  async request(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
    const answer = await rawRequest(this.base, method, path, {
      headers: { host: new URL(this.base).host, cookie: this.cookie, ...headers },
      ...(body !== undefined ? { body } : {}),
    });
    const set = answer.headers["set-cookie"];
    for (const line of Array.isArray(set) ? set : set ? [set] : []) {
      const [pair = ""] = line.split(";");
      const eq = pair.indexOf("=");
      const [name, value] = [pair.slice(0, eq).trim(), pair.slice(eq + 1).trim()];
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === "") this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return answer;
  }

  /** Follows same-origin redirects from `path`; stops at the first answer that is not one, or at another origin. */
  async follow(path: string): Promise<{ answer: RawResponse; location?: URL }> {
    let next = new URL(path, this.base);
    for (let hops = 0; hops < 10; hops++) {
      const answer = await this.request("GET", `${next.pathname}${next.search}`);
      const location = answer.headers.location;
      if (answer.status < 300 || answer.status >= 400 || typeof location !== "string") {
        this.lastGetPath = `${next.pathname}${next.search}`;
        return { answer };
      }
      next = new URL(location, next);
      if (next.origin !== this.base) return { answer, location: next };
    }
    throw new Error("too many redirects");
  }

  /** The consent form's hidden CSRF field. */
  static csrfOf(html: string): string {
    const token = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
    expect(token, html).toBeTruthy();
    return token as string;
  }
}

/**
 * The person's part of the flow: open the client's authorization URL (the consent page asks to log in to
 * the console first), log in with the console's one-time link `loginPath`, check the consent page (client
 * name escaped, the scopes `scopes` and no other), see a POST without the CSRF token refused, approve; the
 * client's callback URL (with the code) is returned.
 */
export async function signInThroughConsent(
  provider: RecordingOAuthProvider,
  browser: ScriptedBrowser,
  loginPath: string,
  scopes: readonly string[] = ["steps:read", "steps:write"],
): Promise<URL> {
  const start = provider.authorizationUrl as URL;
  expect(start.origin).toBe(browser.base);
  const first = await browser.follow(`${start.pathname}${start.search}`);
  expect(first.answer.status, String(first.location)).toBe(401);
  expect(first.answer.text).toContain("Log in to the console first");
  expect((await browser.request("GET", loginPath)).status).toBe(303);
  const consentPath = browser.lastGetPath;
  const consent = await browser.request("GET", consentPath);
  expect(consent.status, consent.text).toBe(200);
  expect(consent.headers["content-security-policy"]).toMatch(/default-src 'none'/);
  expect(consent.text).toContain("Test Agent &lt;b&gt;");
  for (const scope of ["steps:read", "steps:write"]) {
    expect(consent.text.includes(`<code>${scope}</code>`), scope).toBe(scopes.includes(scope));
  }
  const csrf = ScriptedBrowser.csrfOf(consent.text);
  const form = { "content-type": "application/x-www-form-urlencoded", origin: browser.base };
  // Without the session's CSRF token (a page of another site posting the form), the approval is refused.
  const forged = await browser.request("POST", consentPath, form, "decision=approve");
  expect(forged.status).toBe(403);
  expect(forged.text).toContain("CSRF");
  const approved = await browser.request(
    "POST",
    consentPath,
    form,
    new URLSearchParams({ csrf, decision: "approve" }).toString(),
  );
  expect(approved.status).toBe(303);
  const back = await browser.follow(String(approved.headers.location));
  const callback = back.location as URL;
  expect(callback, `${back.answer.status} ${back.answer.text}`).toBeDefined();
  expect(`${callback.origin}${callback.pathname}`).toBe(provider.redirectUrl);
  return callback;
}
