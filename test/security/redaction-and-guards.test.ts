import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryCredentialStore } from "../../src/auth/credential-store.js";
import { isMartechError, type MartechError } from "../../src/errors.js";
import { Redactor } from "../../src/redact.js";
import { MemoryState } from "../../src/state/memory.js";
import { runToolStep } from "../../src/tools/run.js";
import { Workspace } from "../../src/workspace.js";
import { canary, findLeaks } from "../helpers/fake-services/canary.js";
import { fakeEnv, startFakeGoogle, startFakeMarketo } from "../helpers/fake-services/fakes.js";
import { SLACK_MS, when } from "../helpers/fake-services/faults.js";
import { type Harness, startHarness } from "../helpers/fake-services/harness.js";
import type { Handler, Seen } from "../helpers/fake-services/server.js";
import { marketoFixture } from "../helpers/fixtures.js";

/**
 * Review of the trust work of issue 6 (§1 redaction, §4 deadlines and the endpoint guard, §5 suites),
 * tried as an attacker and as a hostile or broken upstream. Each test is one defect: it fails on the
 * merged code and passes once the defect is fixed.
 */

const bearer = (s: Seen) => /^Bearer (.+)$/.exec(s.headers.authorization ?? "")?.[1] ?? "";

interface Ending {
  ms: number;
  result?: unknown;
  error?: MartechError;
}

async function ending(run: () => Promise<unknown>): Promise<Ending> {
  const started = performance.now();
  try {
    const result = await run();
    return { ms: performance.now() - started, result };
  } catch (error) {
    if (!isMartechError(error)) throw error;
    return { ms: performance.now() - started, error };
  }
}

describe("review: redaction cost (a call must end within its deadline)", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => harness.close());

  it("an error message echoing the token inside one long word ends within the deadline", async () => {
    // Every window hit grows to the whole word around it (extend() in src/redact.ts), once per hit:
    // O(hits x word length). 5 KB takes seconds, 10 KB ~24 s, 64 KB minutes, all synchronous, so
    // neither the deadline nor any other request of the server runs meanwhile.
    const fork = await harness.fork();
    fork.use({
      marketo: [
        when(
          (s) => s.path.startsWith("/rest/"),
          (s) => ({
            json: {
              requestId: "e#1",
              success: false,
              errors: [{ code: "1003", message: `x${bearer(s)}`.repeat(120) }],
            },
          }),
        ),
      ],
    });
    const env = { ...fork.env, MARTECH_STEPS_DEADLINE_MS: "1000" };
    const workspace = new Workspace({ env, store: new MemoryCredentialStore(), state: new MemoryState() });
    const e = await ending(async () =>
      runToolStep(
        "marketo_api_call",
        {
          method: "GET",
          endpoint: "/rest/v1/leads.json",
          query_parameters: { filterType: "id", filterValues: "1" },
        },
        await workspace.toolContext({}),
      ),
    );
    await workspace.close();
    expect(e.error?.code).toBeDefined();
    // The fault guarded against takes seconds to minutes; the slack is wider here than elsewhere because the
    // redaction it times is synchronous work that a loaded two-core runner slows (2.0 s in the clean-clone run on
    // 1021bde, while every Node's suite ran in parallel), not a deadline that fired late.
    expect(e.ms).toBeLessThan(1000 + 3 * SLACK_MS);
  }, 120_000);

  it("a clean 7.5 MB GA4 report body (Google's \\u003d escapes, no credential in it) is checked in a few JSON.parse times", () => {
    // decodedForms() makes up to 40 copies of the body (3 rounds x 3 decoders) and #find() slices a
    // 12-character string at every position of each: ~3.5 s of event loop for 50,000 rows of
    // pagePath/pageTitle, ~9 s for 100,000 (runReport allows 250,000), on every successful report.
    const redactor = new Redactor({ feeds: null }).add(
      "123456789012-abcdefghijklmnopqrstuvwxyz012345",
      "GOCSPX-abcdefghijklmnopqrstuvwxyz12",
      "1//0gAbCdEfGhIjKlMnOpQrStUvWxYz0123456789-abcdefghijklmnopqrstuvwxyz",
      "ya29.a0AfH6SMBx1234567890abcdefghijklmnopqrstuvwxyzABCDEFG",
    );
    const rows = Array.from({ length: 50_000 }, (_, i) => ({
      dimensionValues: [{ value: `/search?q=caf%C3%A9+${i}&page=2` }, { value: `Café & Bar ${i}` }],
      metricValues: [{ value: String(i) }],
    }));
    const body = JSON.stringify({
      dimensionHeaders: [{ name: "pagePath" }, { name: "pageTitle" }],
      metricHeaders: [{ name: "sessions", type: "TYPE_INTEGER" }],
      rows,
      rowCount: rows.length,
      kind: "analyticsData#runReport",
    })
      .replace(/=/g, "\\u003d")
      .replace(/&/g, "\\u0026");
    let started = performance.now();
    JSON.parse(body);
    const parseMs = performance.now() - started;
    started = performance.now();
    expect(redactor.json(body)).toMatchObject({ rowCount: 50_000 });
    const redactMs = performance.now() - started;
    expect(redactMs).toBeLessThan(10 * parseMs + 300);
  }, 60_000);
});

describe("review: query parameters that change how the connector's request is read", () => {
  it("_method in query_parameters cannot turn a long GET into another method", async () => {
    // A GET over 8 KB is sent as POST with the query as a form body plus `_method=GET`
    // (src/connectors/marketo/url.ts). The caller's `_method=DELETE` comes first in that body; the
    // sandbox, like a servlet's getParameter(), reads the first one and runs a POST (612 here), while
    // the connector still treats the call as a GET: replayed after a 5xx or a lost connection, and
    // reported with writeMayHaveHappened: false. Expected: refused as input, nothing sent.
    const f = await marketoFixture();
    const ids = Array.from({ length: 2_000 }, (_, i) => i + 1).join(",");
    const e = await ending(async () =>
      runToolStep(
        "marketo_api_call",
        {
          method: "GET",
          endpoint: "/rest/v1/lists/1001/leads.json",
          query_parameters: { _method: "DELETE", id: ids },
        },
        await f.workspace.toolContext({}),
      ),
    );
    const sent = f.sandbox.stats().apiCalls;
    await f.workspace.close();
    await f.close();
    expect({ code: e.error?.code, sent }).toEqual({ code: "invalid_input", sent: 0 });
    expect(e.error?.message).toMatch(/_method/);
  });

  it("access_token in query_parameters is refused before sending, not blamed on the credentials", async () => {
    // Marketo is retiring access_token in the query (REAL-API A2); the sandbox answers it 601. The
    // connector then discards the shared valid token, asks for a new one, replays, and reports "Marketo
    // rejected a freshly issued access token ... check that the LaunchPoint custom service and its API-only
    // user are active": any caller can force token churn and a misleading credentials error.
    const f = await marketoFixture();
    const context = await f.workspace.toolContext({});
    await runToolStep("marketo_api_call", { method: "GET", endpoint: "/rest/v1/lists.json" }, context);
    f.sandbox.resetStats();
    const e = await ending(async () =>
      runToolStep(
        "marketo_api_call",
        {
          method: "GET",
          endpoint: "/rest/v1/leads.json",
          query_parameters: { access_token: "0123456789abcdef", filterType: "id", filterValues: "1" },
        },
        context,
      ),
    );
    const { apiCalls, identityRequests } = f.sandbox.stats();
    await f.workspace.close();
    await f.close();
    expect({ code: e.error?.code, apiCalls, identityRequests }).toEqual({
      code: "invalid_input",
      apiCalls: 0,
      identityRequests: 0,
    });
  });
});

describe("review: upstream text that skips the redactor, or that the redactor breaks", () => {
  const CLIENT_ID = "123456789012-abcdefghijklmnopqrstuvwxyz012345.apps.googleusercontent.com";

  async function googleWorkspace(token: (seen: Seen) => Record<string, unknown> | undefined) {
    const creds = {
      marketo: { clientId: canary("mid"), clientSecret: canary("msec"), tokenPrefix: canary("mtok") },
      google: {
        clientId: CLIENT_ID,
        clientSecret: canary("gsec"),
        refreshToken: `1//${canary("gref")}`,
        tokenPrefix: `ya29.${canary("gtok")}`,
      },
    };
    const marketo = await startFakeMarketo(creds.marketo);
    const google = await startFakeGoogle(creds.google);
    const tokenHook: Handler = (seen) => {
      if (seen.path !== "/oauth/token") return undefined;
      const extra = token(seen);
      if (!extra) return undefined;
      const access = `${creds.google.tokenPrefix}.${google.issued.length}`;
      google.issued.push(access);
      return { json: { access_token: access, expires_in: 3599, token_type: "Bearer", ...extra } };
    };
    google.server.script = [tokenHook];
    const workspace = new Workspace({
      env: fakeEnv(marketo, google, creds),
      store: new MemoryCredentialStore(),
      state: new MemoryState(),
    });
    return {
      creds,
      google,
      workspace,
      close: async () => {
        await workspace.close();
        await marketo.close();
        await google.close();
      },
    };
  }

  it("Google's SERVICE_DISABLED activation link keeps its project number (the public prefix of the client id)", async () => {
    // A Google OAuth client id is <project number>-<random>.apps.googleusercontent.com. clientIdCore()
    // registers it, and its first 12-character window is exactly the 12-digit project number, which
    // Google's real SERVICE_DISABLED answer names twice. The hint then reads
    // "...overview?project=[redacted]": the one link that fixes the error no longer works.
    const number = CLIENT_ID.slice(0, 12);
    const activationUrl = `https://console.developers.google.com/apis/api/analyticsdata.googleapis.com/overview?project=${number}`;
    const g = await googleWorkspace(() => undefined);
    await g.workspace.importAccount({ label: "main", refreshToken: g.creds.google.refreshToken });
    g.google.server.script = [
      when(
        (s) => s.path.startsWith("/data/"),
        () => ({
          status: 403,
          json: {
            error: {
              code: 403,
              message: `Google Analytics Data API has not been used in project ${number} before or it is disabled. Enable it by visiting ${activationUrl} then retry.`,
              status: "PERMISSION_DENIED",
              details: [
                {
                  "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                  reason: "SERVICE_DISABLED",
                  domain: "googleapis.com",
                  metadata: {
                    service: "analyticsdata.googleapis.com",
                    consumer: `projects/${number}`,
                    activationUrl,
                  },
                },
              ],
            },
          },
        }),
      ),
    ];
    const e = await ending(async () =>
      runToolStep(
        "google_analytics_api_call",
        {
          method: "POST",
          endpoint: "v1beta/properties/123:runReport",
          body: {
            metrics: [{ name: "sessions" }],
            dateRanges: [{ startDate: "7daysAgo", endDate: "yesterday" }],
          },
        },
        await g.workspace.toolContext({}),
      ),
    );
    await g.close();
    expect(e.error?.code).toBe("permission_denied");
    expect(e.error?.message).toContain(activationUrl);
  });

  it("the email claim and scope the token endpoint returns are redacted before they become the account's summary", async () => {
    // emailFromIdToken() and the `scope` string go straight into the stored record and the summary that
    // `accounts import` / `accounts connect` print ("Imported "main" (<email>)"), list and show in the
    // console: upstream text that never passes a redactor.
    const g = await googleWorkspace((seen) => {
      const sent = new URLSearchParams(seen.body);
      const claims = { email: `${sent.get("refresh_token")}@example.com` };
      const idToken = ["e30", Buffer.from(JSON.stringify(claims)).toString("base64url"), "sig"].join(".");
      return {
        id_token: idToken,
        scope: `https://www.googleapis.com/auth/analytics.readonly ${sent.get("client_secret")}`,
      };
    });
    const summary = await g.workspace.importAccount({
      label: "main",
      refreshToken: g.creds.google.refreshToken,
    });
    await g.close();
    const leaks = findLeaks(JSON.stringify(summary), [
      g.creds.google.refreshToken,
      g.creds.google.clientSecret,
    ]);
    expect(leaks.map((l) => l.context)).toEqual([]);
  });
});

describe("review: deadlines", () => {
  it("a MARTECH_STEPS_DEADLINE_MS above 2^31-1 ms does not make every call fail at once", async () => {
    // setTimeout and AbortSignal.timeout clamp a delay above 2,147,483,647 ms to 1 ms, so a large
    // value meant as "no practical deadline" ends every call immediately with deadline_exceeded.
    const f = await marketoFixture({}, { MARTECH_STEPS_DEADLINE_MS: String(2 ** 31) });
    const e = await ending(async () =>
      runToolStep(
        "marketo_api_call",
        { method: "GET", endpoint: "/rest/v1/lists.json" },
        await f.workspace.toolContext({}),
      ),
    );
    await f.workspace.close();
    await f.close();
    expect(e.error?.message ?? "ok").toBe("ok");
  });
});
