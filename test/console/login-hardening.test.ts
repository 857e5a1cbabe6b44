import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { type ConsoleOptions, createConsole } from "../../src/console/index.js";
import { type HttpServerHandle, startHttpServer } from "../../src/host/http.js";
import { Workspace } from "../../src/workspace.js";
import { rawRequest } from "../helpers/console.js";

/**
 * The console's login off the easy path (issue 16, item 7): wrong API keys are limited per client address,
 * the session cookie is Secure when the console is served over TLS, and a printed login link expires.
 */

const KEY = "k".repeat(32);
const servers: HttpServerHandle[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** A console on loopback with one API key and a clock the test moves. */
async function serve(options: Partial<ConsoleOptions> = {}) {
  const clock = { now: Date.now() };
  const web = createConsole({
    workspace: (name) => new Workspace({ name, env: {} }),
    loopback: true,
    apiKeys: new Map([[KEY, "default"]]),
    now: () => clock.now,
    ...options,
  });
  const http = await startHttpServer({
    workspace: (name) => new Workspace({ name, env: {} }),
    routes: web.routes,
  });
  servers.push(http);
  const base = new URL("/", http.url).origin;
  const login = (apiKey: string) =>
    rawRequest(base, "POST", "/console/api/login", {
      headers: { origin: base, "content-type": "application/json" },
      body: JSON.stringify({ apiKey }),
    });
  /** Opens the page with a login link's token: where it sends the browser, and the cookie it sets. */
  const open = async (link: string) => {
    const url = new URL(link);
    const answer = await rawRequest(base, "GET", `/${url.search}`);
    return { status: answer.status, location: answer.headers.location, cookie: answer.headers["set-cookie"] };
  };
  return { web, base, clock, login, open, mint: () => web.loginUrl(http.url) };
}

/** A login whose headers go now and whose body (a wrong key) goes when asked: the answer's status. */
function heldLogin(base: string): { send: (apiKey: string) => Promise<number> } {
  const url = new URL(base);
  let status: (code: number) => void = () => undefined;
  const answered = new Promise<number>((resolve) => {
    status = resolve;
  });
  const req = request(
    {
      host: url.hostname,
      port: url.port,
      path: "/console/api/login",
      method: "POST",
      headers: { origin: base, "content-type": "application/json" },
    },
    (res) => {
      res.resume();
      res.on("end", () => status(res.statusCode ?? 0));
    },
  );
  req.on("error", () => status(0));
  req.flushHeaders();
  return {
    send: (apiKey) => {
      req.end(JSON.stringify({ apiKey }));
      return answered;
    },
  };
}

describe("console login: wrong API keys", () => {
  it("are refused 429 with Retry-After past 10 from one address, a right key too, until the window ends", async () => {
    const { login, clock } = await serve();
    for (let attempt = 1; attempt <= 10; attempt++)
      expect((await login(`wrong-${attempt}`)).status).toBe(400);
    const limited = await login("wrong-11");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(limited.headers["retry-after"])).toBeLessThanOrEqual(60);
    expect(JSON.parse(limited.text).error).toMatchObject({
      error: "rate_limited",
      message: expect.stringMatching(/^Too many wrong API keys from this address: log in again in \d+ s\.$/),
    });
    // Guessing learns nothing inside the window: the right key is refused the same way.
    expect((await login(KEY)).status).toBe(429);
    clock.now += 60_000;
    expect((await login(KEY)).status).toBe(200);
  });

  it("sent all at once with their bodies late, still only 10 are judged: no race between the check and the count", async () => {
    const { base } = await serve();
    // Every request's headers reach the server before any body does, as a client that holds its bodies back sends them.
    const pending = Array.from({ length: 30 }, () => heldLogin(base));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const statuses = await Promise.all(pending.map((held, n) => held.send(`wrong-${n}`)));
    expect(statuses.filter((status) => status === 400)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
  });

  it("below the limit, a right key logs in as before", async () => {
    const { login } = await serve();
    for (let attempt = 1; attempt <= 9; attempt++) await login(`wrong-${attempt}`);
    expect((await login(KEY)).status).toBe(200);
  });
});

describe("console session cookie", () => {
  it("is Secure and __Host- with MARTECH_STEPS_COOKIE_SECURE=1 (served over TLS by a proxy), and not without", async () => {
    const plain = await serve({ env: {} });
    expect(String((await plain.login(KEY)).headers["set-cookie"])).not.toMatch(/Secure/);
    const secure = await serve({ env: { MARTECH_STEPS_COOKIE_SECURE: "1" } });
    const cookie = String((await secure.login(KEY)).headers["set-cookie"]);
    expect(cookie).toMatch(
      /^__Host-martech_console_\d+=[\w-]+; Path=\/; HttpOnly; SameSite=Strict; Secure; Max-Age=43200$/,
    );
    // Only the prefixed name, which a sibling subdomain cannot set, opens the session.
    const pair = cookie.split(";")[0] as string;
    const session = (cookieHeader: string) =>
      rawRequest(secure.base, "GET", "/console/api/session", { headers: { cookie: cookieHeader } });
    expect((await session(pair)).status).toBe(200);
    expect((await session(pair.replace(/^__Host-/, ""))).status).toBe(401);
    const link = await secure.open(secure.mint());
    expect(String(link.cookie)).toMatch(/; Secure;/);
  });
});

describe("console session cookie behind TLS (issue 26, item 6)", () => {
  it("is Secure and __Host- when the public /mcp URL is https, unless MARTECH_STEPS_COOKIE_SECURE=0 says otherwise", async () => {
    const audience = { MARTECH_STEPS_OAUTH_AUDIENCE: "https://mcp.example.com/mcp" };
    const tls = await serve({ env: audience });
    expect(tls.web.secureCookie).toBe(true);
    expect(String((await tls.login(KEY)).headers["set-cookie"])).toMatch(/^__Host-.*; Secure;/);
    const chosen = await serve({ env: { ...audience, MARTECH_STEPS_COOKIE_SECURE: "0" } });
    expect(String((await chosen.login(KEY)).headers["set-cookie"])).not.toMatch(/Secure/);
    const plain = await serve({ env: { MARTECH_STEPS_OAUTH_AUDIENCE: "http://127.0.0.1:1/mcp" } });
    expect(String((await plain.login(KEY)).headers["set-cookie"])).not.toMatch(/Secure/);
  });
});

describe("console session cookie through a TLS proxy that says so (issue 26, item 6)", () => {
  const through = (proxy: Record<string, string>) => async (base: string, pair?: string) =>
    rawRequest(base, "GET", "/console/api/session", {
      headers: { ...proxy, ...(pair ? { cookie: pair } : {}) },
    });

  it("is Secure and __Host- on a request marked X-Forwarded-Proto: https or Forwarded proto=https, with no setting", async () => {
    const { base, login } = await serve({ env: {} });
    const proxies: Record<string, string>[] = [
      { "x-forwarded-proto": "https" },
      { "x-forwarded-proto": "HTTPS, http" },
      { forwarded: 'for=192.0.2.60;proto="https";by=203.0.113.43' },
    ];
    for (const proxy of proxies) {
      const answer = await rawRequest(base, "POST", "/console/api/login", {
        headers: { ...proxy, origin: base, "content-type": "application/json" },
        body: JSON.stringify({ apiKey: KEY }),
      });
      const cookie = String(answer.headers["set-cookie"]);
      expect(cookie).toMatch(
        /^__Host-martech_console_\d+=[\w-]+; Path=\/; HttpOnly; SameSite=Strict; Secure;/,
      );
      // The session opens through the same proxy, under the same name.
      expect((await through(proxy)(base, cookie.split(";")[0])).status).toBe(200);
    }
    // Without the proxy's word (plain HTTP on loopback): as before.
    expect(String((await login(KEY)).headers["set-cookie"])).not.toMatch(/Secure|__Host-/);
    const other = await rawRequest(base, "POST", "/console/api/login", {
      headers: { "x-forwarded-proto": "http", origin: base, "content-type": "application/json" },
      body: JSON.stringify({ apiKey: KEY }),
    });
    expect(String(other.headers["set-cookie"])).not.toMatch(/Secure/);
  });

  it("is not Secure when MARTECH_STEPS_COOKIE_SECURE=0 chose plain HTTP", async () => {
    const { base } = await serve({ env: { MARTECH_STEPS_COOKIE_SECURE: "0" } });
    const answer = await rawRequest(base, "POST", "/console/api/login", {
      headers: { "x-forwarded-proto": "https", origin: base, "content-type": "application/json" },
      body: JSON.stringify({ apiKey: KEY }),
    });
    expect(String(answer.headers["set-cookie"])).not.toMatch(/Secure/);
  });
});

describe("a printed login link", () => {
  it("works for 15 minutes, then sends the browser to a page saying it expired", async () => {
    const { open, mint, clock } = await serve();
    const fresh = mint();
    const stale = mint();
    clock.now += 15 * 60_000 - 1;
    expect(await open(fresh)).toMatchObject({ status: 303, location: "/" });
    clock.now += 1;
    const expired = await open(stale);
    expect(expired).toMatchObject({ status: 303, location: "/#/login-link-expired", cookie: undefined });
    // Spent or unknown links keep their own answer.
    expect(await open(fresh)).toMatchObject({ status: 303, location: "/#/login-link-used" });
  });

  it("is not spent by a HEAD (a link preview's), nor is a Google sign-in's way back run by one", async () => {
    const { base, open, mint } = await serve();
    const link = mint();
    const head = await rawRequest(base, "HEAD", `/${new URL(link).search}`);
    expect(head.status).toBe(200);
    expect(head.headers["set-cookie"]).toBeUndefined();
    expect(await open(link)).toMatchObject({ status: 303, location: "/", cookie: expect.anything() });
    expect((await rawRequest(base, "HEAD", "/console/oauth/callback?state=x&code=y")).status).toBe(404);
  });

  it("lives as long as MARTECH_STEPS_LOGIN_TOKEN_TTL_MS says", async () => {
    const { open, mint, clock } = await serve({ env: { MARTECH_STEPS_LOGIN_TOKEN_TTL_MS: "1000" } });
    const link = mint();
    clock.now += 1000;
    expect(await open(link)).toMatchObject({ status: 303, location: "/#/login-link-expired" });
  });
});
