import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { MemoryCredentialStore } from "../../src/auth/credential-store.js";
import { type HttpServerHandle, startHttpServer } from "../../src/host/http.js";
import { MemoryState } from "../../src/state/memory.js";
import { Workspace } from "../../src/workspace.js";
import {
  type ConsoleFixture,
  GOOGLE_CLIENT_CANARY,
  type RawResponse,
  rawRequest,
  startConsoleFixture,
} from "../helpers/console.js";
import { loadForm } from "../helpers/console-form.js";
import { CANARY_SECRET } from "../helpers/fixtures.js";
import { INIT, raw } from "../helpers/raw-http.js";

/**
 * Review of "Merge mcp-v2" (issue 7 §1, issue 6 §4 Host) and "Merge console" (issue 9): what a web
 * page the admin visits, another workspace's key holder, a LAN client and a careless client can do.
 * Each failing test is a defect; the passing ones guard behaviour that held up.
 */

const KEY_A = "workspace-a-key-0123456789abcdef";
const KEY_B = "workspace-b-key-0123456789abcdef";

/** A console session: its cookie and CSRF token. */
interface Login {
  cookie: string;
  csrf: string;
}

async function loginWithToken(fixture: ConsoleFixture): Promise<Login> {
  const token = new URL(fixture.console.loginUrl(fixture.base)).searchParams.get("token") ?? "";
  const answer = await rawRequest(fixture.base, "GET", `/?token=${token}`);
  const cookie = String(answer.headers["set-cookie"]).split(";")[0] ?? "";
  return { cookie, csrf: await csrfOf(fixture, cookie) };
}

async function loginWithKey(fixture: ConsoleFixture, apiKey: string): Promise<Login> {
  const answer = await rawRequest(fixture.base, "POST", "/console/api/login", {
    headers: { origin: fixture.base, "content-type": "application/json" },
    body: JSON.stringify({ apiKey }),
  });
  expect(answer.status, answer.text).toBe(200);
  const cookie = String(answer.headers["set-cookie"]).split(";")[0] ?? "";
  return { cookie, csrf: await csrfOf(fixture, cookie) };
}

async function csrfOf(fixture: ConsoleFixture, cookie: string): Promise<string> {
  const session = await rawRequest(fixture.base, "GET", "/console/api/session", { headers: { cookie } });
  return session.status === 200 ? (JSON.parse(session.text).csrfToken as string) : "";
}

function call(
  fixture: ConsoleFixture,
  login: Login,
  method: string,
  path: string,
  body?: unknown,
): Promise<RawResponse> {
  return rawRequest(fixture.base, method, path, {
    headers: {
      cookie: login.cookie,
      ...(method !== "GET" ? { origin: fixture.base, "x-csrf-token": login.csrf } : {}),
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}

/** A host that records every request body it receives (stands in for a server the attacker runs). */
async function recordingServer(): Promise<{ url: string; bodies: string[]; close(): Promise<void> }> {
  const bodies: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = `${req.method} ${req.url}\n`;
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      bodies.push(body);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ access_token: "t", token_type: "bearer", expires_in: 3599, scope: "x" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    bodies,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("review: the console's write-only secrets", () => {
  let fixture: ConsoleFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it("a save that keeps the saved Marketo secret cannot point it at another host", async () => {
    fixture = await startConsoleFixture();
    const evil = await recordingServer();
    try {
      const login = await loginWithToken(fixture);
      // The page never shows the secret; a person at the console sends the saved Client ID with an
      // empty secret (the form's "keep the saved one") and an endpoint of their choosing.
      await call(fixture, login, "POST", "/console/api/marketo", {
        clientId: fixture.marketo.clientId,
        restEndpoint: `${evil.url}/rest`,
      });
      expect(evil.bodies.join("\n")).not.toContain(CANARY_SECRET);
    } finally {
      await evil.close();
    }
  });
});

describe("review: MCP sessions per key (held up: a guard)", () => {
  let http: HttpServerHandle | undefined;
  afterEach(async () => {
    await http?.close();
    http = undefined;
  });

  it("concurrent initializes cannot open more sessions than the cap", async () => {
    const workspace = new Workspace({
      env: {},
      store: new MemoryCredentialStore(),
      state: new MemoryState(),
    });
    http = await startHttpServer({ workspace: () => workspace, maxSessions: 3 });
    const url = http.url;
    await Promise.all(Array.from({ length: 30 }, (_, i) => raw(url, { body: { ...INIT, id: i } })));
    expect(http.sessionCount()).toBeLessThanOrEqual(3);
  });
});

describe("review: one workspace cannot push another's console users out", () => {
  let fixture: ConsoleFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it("logins with workspace B's key do not end workspace A's console session", async () => {
    fixture = await startConsoleFixture({
      apiKeys: new Map([
        [KEY_A, "default"],
        [KEY_B, "other"],
      ]),
    });
    const admin = await loginWithKey(fixture, KEY_A);
    for (let i = 0; i < 1_000; i++) await loginWithKey(fixture, KEY_B);
    const still = await call(fixture, admin, "GET", "/console/api/session");
    expect(still.status).toBe(200);
  }, 60_000);

  it("connects started in workspace B do not drop workspace A's pending Google connect", async () => {
    fixture = await startConsoleFixture({
      apiKeys: new Map([
        [KEY_A, "default"],
        [KEY_B, "other"],
      ]),
    });
    await fixture.store.update("other", (current) => ({
      ...current,
      googleClient: { clientId: fixture?.google.clientId ?? "", clientSecret: GOOGLE_CLIENT_CANARY },
    }));
    const admin = await loginWithKey(fixture, KEY_A);
    const started = await call(fixture, admin, "POST", "/console/api/google/connect", {});
    expect(started.status, started.text).toBe(200);
    const state = new URL(JSON.parse(started.text).url).searchParams.get("state") ?? "";
    const other = await loginWithKey(fixture, KEY_B);
    for (let i = 0; i < 50; i++) {
      const answer = await call(fixture, other, "POST", "/console/api/google/connect", {});
      expect(answer.status, answer.text).toBe(200);
    }
    // The admin comes back from Google's consent screen: the attempt must still be known.
    const back = await rawRequest(
      fixture.base,
      "GET",
      `/console/oauth/callback?state=${state}&error=access_denied`,
    );
    expect(back.text).not.toContain("Sign-in not recognised");
  });
});

describe("review: the Google connect's state is bound to nothing the browser holds", () => {
  let fixture: ConsoleFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it("a connect started by workspace B's session is not completed by a browser that never logged in as it", async () => {
    fixture = await startConsoleFixture({
      apiKeys: new Map([
        [KEY_A, "default"],
        [KEY_B, "other"],
      ]),
    });
    await fixture.store.update("other", (current) => ({
      ...current,
      googleClient: { clientId: fixture?.google.clientId ?? "", clientSecret: GOOGLE_CLIENT_CANARY },
    }));
    // B starts a connect and sends its consent link to A's admin ("please reconnect Analytics").
    const attacker = await loginWithKey(fixture, KEY_B);
    const started = await call(fixture, attacker, "POST", "/console/api/google/connect", {
      label: "phished",
    });
    const consent = JSON.parse(started.text).url as string;
    // The admin consents; Google's redirect back is a cross-site navigation, so whatever cookie the
    // admin's browser holds (Strict) is not sent: the state alone decides where the grant goes.
    const granted = await fetch(consent, { redirect: "manual" });
    const back = new URL(granted.headers.get("location") ?? "");
    await rawRequest(fixture.base, "GET", `${back.pathname}${back.search}`);
    const labels = (await fixture.workspace("other").accounts.list()).map((account) => account.label);
    expect(labels).not.toContain("phished");
  });
});

describe("review: careless clients and pages of other sites", () => {
  let fixture: ConsoleFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it("removing an account whose label is malformed percent-encoding is a 400 naming the label, not an internal error", async () => {
    fixture = await startConsoleFixture();
    const login = await loginWithToken(fixture);
    const answer = await call(fixture, login, "DELETE", "/console/api/google/accounts/%E0%A4%A");
    expect(answer.status, answer.text).toBe(400);
    expect(JSON.parse(answer.text).error.field).toBe("label");
  });

  it("a page of another site cannot post CSP reports into the server's log", async () => {
    fixture = await startConsoleFixture();
    const before = fixture.console.cspReports().length;
    for (let i = 0; i < 3; i++) {
      await rawRequest(fixture.base, "POST", "/console/csp-report", {
        headers: {
          origin: "http://evil.example",
          "sec-fetch-site": "cross-site",
          "content-type": "application/csp-report",
        },
        body: JSON.stringify({ "csp-report": { "violated-directive": "script-src forged by evil.example" } }),
      });
    }
    expect(fixture.console.cspReports().length).toBe(before);
  });
});

describe("review: what held up (guards)", () => {
  let http: HttpServerHandle | undefined;
  afterEach(async () => {
    await http?.close();
    http = undefined;
  });

  it("hostile account labels in the enum cannot inject code into the precompiled validator module", async () => {
    const labels = [
      '"}); globalThis.pwned = 1; ({',
      "'; globalThis.pwned = 2; //",
      "\u2028globalThis.pwned = 3",
    ];
    const form = await loadForm("google_analytics_run_reports", { accounts: labels });
    expect((globalThis as { pwned?: unknown }).pwned).toBeUndefined();
    expect(form.validate({ account: labels[0], property: "1", metrics: ["sessions"] })).toEqual([]);
  });

  it("another workspace's key can neither use nor DELETE a 2025 session", async () => {
    const workspaces = new Map<string, Workspace>();
    const workspace = (name: string) => {
      const found =
        workspaces.get(name) ??
        new Workspace({ name, env: {}, store: new MemoryCredentialStore(), state: new MemoryState() });
      workspaces.set(name, found);
      return found;
    };
    http = await startHttpServer({
      workspace,
      apiKeys: new Map([
        [KEY_A, "a"],
        [KEY_B, "b"],
      ]),
    });
    const opened = await raw(http.url, { headers: { authorization: `Bearer ${KEY_A}` }, body: INIT });
    const sessionId = String(opened.headers["mcp-session-id"]);
    const asB = {
      authorization: `Bearer ${KEY_B}`,
      "mcp-session-id": sessionId,
      "mcp-protocol-version": "2025-11-25",
    };
    const used = await raw(http.url, { headers: asB, body: { jsonrpc: "2.0", id: 7, method: "tools/list" } });
    expect(used.status).toBe(404);
    expect(used.json()?.id).toBe(7);
    expect((await raw(http.url, { method: "DELETE", headers: asB })).status).toBe(404);
    expect(http.sessionCount()).toBe(1);
  });
});
