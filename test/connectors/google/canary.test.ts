import { inspect } from "node:util";
import nock from "nock";
import { describe, expect, it } from "vitest";
import { GoogleAccounts } from "../../../src/auth/google/accounts.js";
import { GoogleAnalyticsConnector } from "../../../src/connectors/google/connector.js";
import { MemoryState } from "../../../src/state/memory.js";
import { ENDPOINTS, GA_SCOPE_STRING, MemoryCredentialStore, OAUTH } from "../../helpers/google-auth.js";
import { ADMIN, DATA, offline, status } from "../../helpers/google-connector.js";

const REFRESH = "1//CANARY-refresh-token-7d1c0e";
const SECRET = "CANARY-client-secret-9f2a4b";
const ACCESS = "ya29.CANARY-access-token-3e8";
const WS = "canary";

offline();

/** Every way an error can be shown: message, JSON (MCP results, logs), String(), util.inspect with causes. */
function renderings(value: unknown): string[] {
  const out = [inspect(value, { depth: 8, showHidden: false }), String(value)];
  try {
    out.push(JSON.stringify(value) ?? "");
  } catch {
    // circular: inspect already covers it
  }
  if (value instanceof Error) out.push(value.message, value.stack ?? "");
  return out;
}

function expectClean(value: unknown): void {
  for (const text of renderings(value)) {
    expect(text).not.toContain(REFRESH);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(ACCESS);
  }
}

describe("canary secrets never leak", () => {
  it("through failing and succeeding account and connector flows", async () => {
    const store = new MemoryCredentialStore();
    await store.update(WS, () => ({
      googleClient: { clientId: "canary-client", clientSecret: SECRET },
      googleAccounts: {},
    }));
    const accounts = new GoogleAccounts({ store, workspace: WS, endpoints: ENDPOINTS, env: {} });
    const outputs: unknown[] = [];
    const capture = async (run: () => Promise<unknown>) => {
      try {
        outputs.push(await run());
      } catch (error) {
        outputs.push(error);
      }
    };
    const echo = (_uri: string, body: unknown) => JSON.stringify(body);

    // Import: refused (server echoes what it got), then accepted.
    nock(OAUTH)
      .post("/token")
      .reply(400, (uri, body) => ({
        error: "invalid_grant",
        error_description: `refused ${echo(uri, body)}`,
      }));
    await capture(() => accounts.importAccount({ label: "main", refreshToken: REFRESH }));
    nock(OAUTH)
      .post("/token")
      .reply(401, (uri, body) => ({
        error: "invalid_client",
        error_description: `bad client ${echo(uri, body)}`,
      }));
    await capture(() => accounts.importAccount({ label: "main", refreshToken: REFRESH }));
    nock(OAUTH).post("/token").reply(200, { access_token: ACCESS, expires_in: 3599, scope: GA_SCOPE_STRING });
    await capture(() => accounts.importAccount({ label: "main", refreshToken: REFRESH }));
    await capture(() => accounts.list());

    const tokens = await accounts.tokenSource("main");
    const connector = new GoogleAnalyticsConnector({
      tokens,
      endpoints: ENDPOINTS,
      state: new MemoryState(),
      sleep: async () => undefined,
      maxRetries: 1,
    });
    // Connector failures, including a server that echoes the Authorization header.
    nock(DATA)
      .post("/v1beta/properties/1:runReport")
      .reply(function () {
        return [403, status(403, "PERMISSION_DENIED", `denied for ${this.req.headers.authorization}`)];
      });
    await capture(() => connector.runReport("1", {}));
    nock(ADMIN)
      .post("/v1beta/properties")
      .reply(503, status(503, "UNAVAILABLE", "later"));
    await capture(() =>
      connector.call({ method: "POST", path: "v1beta/properties", body: { displayName: "x" } }),
    );
    nock(ADMIN)
      .get("/v1beta/accounts")
      .times(2)
      .replyWithError({ code: "ECONNRESET", message: "socket hang up" });
    await capture(() => connector.call({ method: "GET", path: "v1beta/accounts" }));
    nock(DATA).post("/v1beta/properties/1:runReport").reply(200, { rowCount: 1 });
    await capture(() => connector.runReport("1", {}));
    await capture(() => connector.call({ method: "GET", path: `https://evil.example.com/${REFRESH}` }));

    // 401 → refresh → invalid_grant (echoed), then removal with a failing revoke.
    nock(DATA)
      .post("/v1beta/properties/1:runReport")
      .reply(401, status(401, "UNAUTHENTICATED", "expired"));
    nock(OAUTH)
      .post("/token")
      .reply(400, (uri, body) => ({ error: "invalid_grant", error_description: echo(uri, body) }));
    await capture(() => connector.runReport("1", {}));
    nock(OAUTH)
      .post("/revoke")
      .reply(500, (uri, body) => ({ error: "server_error", error_description: echo(uri, body) }));
    await capture(() => accounts.remove("main"));

    expect(outputs).toHaveLength(11);
    const errors = outputs.filter((o) => o instanceof Error);
    expect(errors.length).toBe(7);
    for (const output of outputs) expectClean(output);
    expect(nock.pendingMocks()).toEqual([]);
  });
});
