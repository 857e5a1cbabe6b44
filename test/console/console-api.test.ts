import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONNECTION_ROOMS, SERVICE_IDS } from "../../src/connections/registry.js";
import { searchToolSteps } from "../../src/tools/registry.js";
import {
  type ConsoleFixture,
  ConsolePage,
  type RawResponse,
  rawRequest,
  startConsoleFixture,
} from "../helpers/console.js";

describe("the console's server side", () => {
  let fixture: ConsoleFixture;
  const seen: RawResponse[] = [];
  let page: ConsolePage;

  beforeAll(async () => {
    fixture = await startConsoleFixture();
    page = new ConsolePage(fixture, seen);
    await page.login();
  });
  afterAll(async () => {
    await fixture.close();
  });

  describe("login and the security of the page", () => {
    it("spends the one-time token: an HttpOnly SameSite=Strict cookie and a redirect without the token", async () => {
      const token = new URL(fixture.console.loginUrl(fixture.base)).searchParams.get("token") ?? "";
      expect(token.length).toBeGreaterThanOrEqual(43);
      const first = await rawRequest(fixture.base, "GET", `/?token=${token}`, { seen });
      expect(first.status).toBe(303);
      expect(first.headers.location).toBe("/");
      const cookie = String(first.headers["set-cookie"]);
      expect(cookie).toMatch(
        /^martech_console_\d+=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/,
      );
      const again = await rawRequest(fixture.base, "GET", `/?token=${token}`, { seen });
      expect(again.headers.location).toBe("/#/login-link-used");
      expect(again.headers["set-cookie"]).toBeUndefined();
    });

    it("requires a login for every API", async () => {
      for (const path of [
        "/console/api/session",
        "/console/api/steps?q=x",
        "/console/api/marketo",
        "/console/api/google",
      ]) {
        const answer = await rawRequest(fixture.base, "GET", path, { seen });
        expect(answer.status).toBe(401);
        expect(JSON.parse(answer.text).error.error).toBe("login_required");
      }
      const form = await rawRequest(fixture.base, "GET", "/console/api/steps/marketo_api_call/form.js", {
        seen,
      });
      expect(form.status).toBe(401);
    });

    it("serves the page under a CSP with no inline script, no unsafe-inline and no eval", async () => {
      const answer = await rawRequest(fixture.base, "GET", "/", { seen });
      expect(answer.status).toBe(200);
      const csp = String(answer.headers["content-security-policy"]);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
      expect(answer.headers["x-frame-options"]).toBe("DENY");
      expect(answer.headers["referrer-policy"]).toBe("no-referrer");
      // Every script of the page is a same-origin file: none has inline content.
      expect(answer.text).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
      expect(answer.text).not.toMatch(/\sstyle=|<style/);
    });

    it("answers a foreign Host with 403 (DNS rebinding), as /mcp does", async () => {
      const answer = await rawRequest(fixture.base, "GET", "/", {
        headers: { host: "evil.example:80" },
        seen,
      });
      expect(answer.status).toBe(403);
    });

    it("refuses a change from another origin, without Origin, or without the CSRF token, and changes nothing", async () => {
      const origin = fixture.base;
      const csrf = page.csrf;
      const attempts: Record<string, string>[] = [
        { origin: "http://evil.example", "x-csrf-token": csrf },
        { origin: "http://127.0.0.1:1", "x-csrf-token": csrf },
        { "x-csrf-token": csrf },
        { origin },
        { origin, "x-csrf-token": "forged" },
        { origin, "x-csrf-token": csrf, "sec-fetch-site": "cross-site" },
        { origin, "x-csrf-token": csrf, "sec-fetch-site": "same-site" },
      ];
      for (const headers of attempts) {
        const answer = await rawRequest(fixture.base, "DELETE", "/console/api/marketo", {
          seen,
          headers: { host: page.host, cookie: page.cookie, ...headers },
        });
        expect({ headers, status: answer.status }).toEqual({ headers, status: 403 });
      }
      // A form post (the only cross-site request that needs no preflight) is not JSON: refused too.
      const form = await page.call("POST", "/console/api/marketo", undefined, {
        "content-type": "application/x-www-form-urlencoded",
      });
      expect(form.status).toBe(400);
      expect((await fixture.store.read("default")).marketo).toBeDefined();
    });
  });

  describe("the tool-step bar", () => {
    it("searches the same catalog as searchToolSteps", async () => {
      for (const q of ["marketing automation", "analytics", "leads", "report"]) {
        const { steps } = await page.json<{ steps: { id: string; title: string; summary: string }[] }>(
          "GET",
          `/console/api/steps?q=${encodeURIComponent(q)}`,
        );
        expect(steps.map((s) => s.id)).toEqual(searchToolSteps(q).map((hit) => hit.id));
      }
      const { steps } = await page.json<{
        steps: { id: string; title: string; summary: string; service: string }[];
      }>("GET", "/console/api/steps?q=marketing%20automation");
      expect(steps[0]).toMatchObject({ title: "Marketo API Call", service: "marketo" });
      expect(steps[0]?.summary).toMatch(/^Calls any Adobe Marketo Engage REST or bulk endpoint.*\.$/);
    });

    it("names each service's product for the bar's hits, as its connection room does", async () => {
      const { products } = await page.json<{ products: Record<string, string> }>(
        "GET",
        "/console/api/steps?q=",
      );
      const rooms = Object.values(CONNECTION_ROOMS);
      expect(products).toEqual(Object.fromEntries(rooms.map((room) => [room.service, room.product])));
      expect(Object.keys(products)).toEqual(expect.arrayContaining([...SERVICE_IDS]));
    });

    it("serves a step's form as a same-origin module, with the workspace's accounts as an enum", async () => {
      const answer = await page.call("GET", "/console/api/steps/google_analytics_run_reports/form.js");
      expect(answer.status).toBe(200);
      expect(answer.headers["content-type"]).toMatch(/^text\/javascript/);
      expect(answer.text).toContain("export const validators = exports;");
      const schema = JSON.parse(/export const schema = (.*);\n/.exec(answer.text)?.[1] ?? "{}");
      expect(schema.properties.account.enum).toEqual(["reader", "sandbox"]);
      expect(answer.text).not.toMatch(/new Function|\beval\(/);
    });

    it("runs a Marketo lead lookup through runToolStep", async () => {
      const events = await page.run("marketo_api_call", {
        method: "GET",
        endpoint: "/rest/v1/leads.json",
        query_parameters: { filterType: "email", filterValues: "lead7@example.com" },
      });
      const result = events.at(-1) as { type: string; summary: string; data: { result: { id: number }[] } };
      expect(result.type).toBe("result");
      expect(result.summary).toMatch(/^GET \/rest\/v1\/leads\.json: 1 record/);
      expect(result.data.result[0]?.id).toBe(7);
    });

    it("answers an invalid input with the typed error: field, issues and hint", async () => {
      const events = await page.run("marketo_api_call", {
        method: "GET",
        endpoint: "/rest/v1/leads.json",
        max_pages: 0,
      });
      expect(events).toEqual([
        { type: "started", run: expect.any(String) },
        {
          type: "error",
          error: expect.objectContaining({
            error: "invalid_input",
            field: "max_pages",
            message:
              "Most pages: Too small: expected number to be >=1; received a number 0. Fix the input and call again; nothing was sent.",
            hint: "Fix the input and call again; nothing was sent.",
            issues: [
              { field: "max_pages", message: "Too small: expected number to be >=1; received a number 0" },
            ],
          }),
        },
      ]);
    });

    it("runs a report and sends the chart the server defined", async () => {
      const events = await page.run("google_analytics_run_reports", {
        account: "sandbox",
        property: "412345671",
        metrics: ["sessions"],
        dimensions: ["date"],
        date_ranges: ["last7days"],
      });
      const result = events.at(-1) as { type: string; chart: { kind: string; title: string } };
      expect(result.type).toBe("result");
      expect(result.chart).toMatchObject({
        kind: "line",
        title: "Sessions by Date",
        subtitle: "Retail Web Store",
      });
      expect(events.some((e) => e.type === "progress")).toBe(true);
    });
  });

  describe("the integrations page", () => {
    it("shows Marketo without its secret: set or not, and the usage with the rate window", async () => {
      const status = await page.json<{ usage: { callsToday: number } }>("GET", "/console/api/marketo");
      expect(status).toMatchObject({
        active: { source: "store", clientId: fixture.marketo.clientId, secretSet: true },
        saved: { secretSet: true },
        usage: { dailyQuota: 50_000, callsPerWindow: 100, windowMs: 20_000 },
      });
      expect(status.usage.callsToday).toBeGreaterThan(0);
      expect(JSON.stringify(status)).not.toContain('clientSecret":');
    });

    it("saves Marketo only after one token request accepts it, and keeps the secret when it is left empty", async () => {
      const before = fixture.marketo.stats().identityRequests;
      const wrong = await page.call("POST", "/console/api/marketo", {
        clientId: fixture.marketo.clientId,
        clientSecret: "not-the-secret",
        restEndpoint: fixture.marketo.restEndpoint,
      });
      expect(wrong.status).toBe(422);
      expect(JSON.parse(wrong.text).error.error).toBe("authentication_failed");
      expect(fixture.marketo.stats().identityRequests).toBe(before + 1);
      const badEndpoint = await page.call("POST", "/console/api/marketo", {
        clientId: "x",
        clientSecret: "y",
        restEndpoint: "http://evil.example/rest",
      });
      expect(JSON.parse(badEndpoint.text).error).toMatchObject({
        error: "not_configured",
        field: "restEndpoint",
      });
      const kept = await page.json("POST", "/console/api/marketo", {
        clientId: fixture.marketo.clientId,
        clientSecret: "",
        restEndpoint: `${fixture.marketo.url}/rest/`,
      });
      expect(kept).toMatchObject({ saved: { restEndpoint: fixture.marketo.restEndpoint, secretSet: true } });
      expect(fixture.marketo.stats().identityRequests).toBe(before + 2);
      const test = await page.json<{ message: string; detail: string }>("POST", "/console/api/marketo/test");
      // Plain words in the headline, the token's lifetime in Details (trial s7, finding 15).
      expect(test.message).toMatch(/accepted the credentials\.$/);
      expect(test.message).not.toMatch(/token|\d+ s\b/);
      expect(test.detail).toMatch(/access token valid for \d+ s/);
    });

    it("names every missing Marketo field at once, by the label the page shows", async () => {
      const before = fixture.marketo.stats().identityRequests;
      const empty = await page.call("POST", "/console/api/marketo", { clientId: " ", restEndpoint: "" });
      expect(empty.status).toBe(400);
      expect(JSON.parse(empty.text).error).toMatchObject({
        error: "invalid_input",
        message:
          "Invalid input: Client ID is required. REST API Endpoint is required. Fill in each field named, then save again.",
        issues: [
          { field: "clientId", message: "Client ID is required." },
          { field: "restEndpoint", message: "REST API Endpoint is required." },
        ],
      });
      expect(fixture.marketo.stats().identityRequests).toBe(before);
    });

    it("sends a saved secret only with the Client ID and to the host it was saved with: a change needs it typed again", async () => {
      const before = fixture.marketo.stats().identityRequests;
      const saved = await fixture.store.read("default");
      const changes: [Record<string, string>, string][] = [
        [{ restEndpoint: "http://127.0.0.1:9/rest" }, "REST API Endpoint"],
        [{ clientId: "another-client" }, "Client ID"],
      ];
      for (const [change, label] of changes) {
        const answer = await page.call("POST", "/console/api/marketo", {
          clientId: fixture.marketo.clientId,
          restEndpoint: fixture.marketo.restEndpoint,
          ...change,
        });
        expect(answer.status, answer.text).toBe(400);
        const error = JSON.parse(answer.text).error;
        expect(error).toMatchObject({ error: "invalid_input", field: "clientSecret" });
        expect(error.message).toContain(`the ${label} changed`);
      }
      const google = await page.call("POST", "/console/api/google/client", { clientId: "another-client" });
      expect(google.status, google.text).toBe(400);
      expect(JSON.parse(google.text).error).toMatchObject({ field: "clientSecret" });
      expect(fixture.marketo.stats().identityRequests).toBe(before);
      expect(await fixture.store.read("default")).toEqual(saved);
    });

    it("removes the saved Marketo connection", async () => {
      const removed = await page.json("DELETE", "/console/api/marketo");
      expect(removed).toMatchObject({ active: null, saved: null, usage: null });
      const events = await page.run("marketo_api_call", { method: "GET", endpoint: "/rest/v1/leads.json" });
      expect(events.at(-1)).toMatchObject({ type: "error", error: { error: "not_configured" } });
      await page.json("POST", "/console/api/marketo", {
        clientId: fixture.marketo.clientId,
        clientSecret: fixture.marketo.clientSecret,
        restEndpoint: fixture.marketo.restEndpoint,
      });
    });

    it("lists the Google client and accounts, flagging the one that can only read", async () => {
      const status = await page.json<{ client: unknown; accounts: { label: string; readOnly: boolean }[] }>(
        "GET",
        "/console/api/google",
      );
      expect(status.client).toEqual({
        source: "store",
        sandbox: false,
        clientId: fixture.google.clientId,
        secretSet: true,
      });
      expect(status.accounts.map((a) => [a.label, a.readOnly])).toEqual([
        ["reader", true],
        ["sandbox", false],
      ]);
    });

    it("connects an account through the consent screen and the console's own callback, then revokes and forgets it", async () => {
      const started = await page.call("POST", "/console/api/google/connect", { label: "web" });
      const { url } = JSON.parse(started.text) as { url: string };
      // The attempt is bound to this browser by a cookie only the callback can read (RFC 6749 §10.12).
      const setCookie = String(started.headers["set-cookie"]);
      expect(setCookie).toMatch(
        /^martech_connect_\d+_[\w-]{16}=[\w-]{43}; Path=\/console\/oauth\/callback; HttpOnly; SameSite=Lax; Max-Age=600$/,
      );
      const binding = setCookie.split(";")[0] ?? "";
      const consent = new URL(url);
      expect(consent.searchParams.get("redirect_uri")).toBe(`${fixture.base}/console/oauth/callback`);
      // The consent screen redirects the browser back with the code and the state.
      const granted = await fetch(url, { redirect: "manual" });
      const back = new URL(granted.headers.get("location") ?? "");
      expect(back.pathname).toBe("/console/oauth/callback");
      // A callback carrying another session's cookie is refused (the attempt is bound to its session).
      const other = new ConsolePage(fixture, seen);
      await other.login();
      const foreign = await other.call("GET", `${back.pathname}${back.search}`, undefined, {
        cookie: `${other.cookie}; ${binding}`,
      });
      expect(foreign.status).toBe(400);
      expect(foreign.text).toContain("started in another console session");
      // A browser that did not start the connect (no binding cookie) is refused before the code is exchanged.
      const tokenRequests = fixture.google.stats().tokenRequests;
      const { url: elsewhere } = await page.json<{ url: string }>("POST", "/console/api/google/connect", {
        label: "elsewhere",
      });
      const sent = new URL((await fetch(elsewhere, { redirect: "manual" })).headers.get("location") ?? "");
      const stranger = await rawRequest(fixture.base, "GET", `${sent.pathname}${sent.search}`, {
        seen,
        headers: { host: page.host, cookie: binding },
      });
      expect(stranger.status).toBe(400);
      expect(stranger.text).toContain("not started in this browser");
      expect(fixture.google.stats().tokenRequests).toBe(tokenRequests);
      // Google's redirect is a cross-site navigation: the Strict session cookie is not sent, the Lax
      // binding cookie is, and with the state it finds the attempt.
      const again = await page.call("POST", "/console/api/google/connect", { label: "web" });
      const againBinding = String(again.headers["set-cookie"]).split(";")[0] ?? "";
      const location = new URL(
        (await fetch(JSON.parse(again.text).url, { redirect: "manual" })).headers.get("location") ?? "",
      );
      const done = await rawRequest(fixture.base, "GET", `${location.pathname}${location.search}`, {
        seen,
        headers: { host: page.host, cookie: againBinding },
      });
      expect(String(done.headers["set-cookie"])).toMatch(/^martech_connect_\d+_[\w-]{16}=; .*Max-Age=0$/);
      expect(done.status).toBe(200);
      expect(done.text).toContain("The Google account &quot;web&quot; is connected.");
      expect(done.text).toContain('http-equiv="refresh"');
      const replay = await rawRequest(fixture.base, "GET", `${location.pathname}${location.search}`, {
        seen,
        headers: { cookie: againBinding },
      });
      expect(replay.status).toBe(400);
      const status = await page.json<{ accounts: { label: string; email: string; readOnly: boolean }[] }>(
        "GET",
        "/console/api/google",
      );
      expect(status.accounts.find((a) => a.label === "web")).toMatchObject({
        email: "editor@sandbox.example",
        readOnly: false,
      });
      const revocations = fixture.google.stats().revocations;
      const removed = await page.json<{ revoked: boolean; accounts: { label: string }[] }>(
        "DELETE",
        "/console/api/google/accounts/web",
      );
      expect(removed.revoked).toBe(true);
      expect(removed.accounts.map((a) => a.label)).toEqual(["reader", "sandbox"]);
      expect(fixture.google.stats().revocations).toBe(revocations + 1);
    });
  });

  it("never sends a secret: no answer above holds a client secret or a refresh token", async () => {
    expect(seen.length).toBeGreaterThan(30);
    const canaries = await fixture.canaries();
    for (const answer of seen) {
      const text = `${JSON.stringify(answer.headers)}\n${answer.text}`;
      for (const canary of canaries) expect(text).not.toContain(canary);
    }
  });
});
