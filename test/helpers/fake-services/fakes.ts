import { randomUUID } from "node:crypto";
import { echo, FakeServer, type Handler, type Reply, type Seen } from "./server.js";

export type { Reply, Seen } from "./server.js";

/** The credentials of one fake; tokens are issued with a unique prefix, and every one is recorded. */
export interface FakeCredentials {
  clientId: string;
  clientSecret: string;
  /** Google only: the refresh token the fake accepts. */
  refreshToken?: string;
  /** Prefix of the access tokens the fake issues. */
  tokenPrefix: string;
}

export interface Fake {
  server: FakeServer;
  /** Every access token issued so far. */
  issued: string[];
  close(): Promise<void>;
}

function form(body: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(body));
}

const bearer = (seen: Seen) => /^Bearer (.+)$/.exec(seen.headers.authorization ?? "")?.[1];

/** An envelope that fails with `code` and a message echoing the request. */
export function marketoFailure(code: string, seen: Seen): Reply {
  return {
    json: { requestId: "e1#echo", success: false, errors: [{ code, message: `refused: ${echo(seen)}` }] },
  };
}

/**
 * A fake Marketo instance: POST /identity/oauth/token takes the client credentials in a form body (as
 * the connector sends them) and issues `<prefix>-<uuid>:int`; API calls need a token it issued and
 * get a success envelope with one record. Tests add handlers in front through `server.script`.
 */
export async function startFakeMarketo(credentials: FakeCredentials): Promise<Fake> {
  const issued: string[] = [];
  const fallback: Handler = (seen) => {
    if (seen.path === "/identity/oauth/token") {
      const sent = form(seen.body);
      if (sent.client_id !== credentials.clientId || sent.client_secret !== credentials.clientSecret) {
        return {
          status: 401,
          json: { error: "invalid_client", error_description: "Bad client credentials" },
        };
      }
      const token = `${credentials.tokenPrefix}-${randomUUID()}:int`;
      issued.push(token);
      return { json: { access_token: token, token_type: "bearer", expires_in: 3599, scope: "api@x.com" } };
    }
    const token = bearer(seen);
    if (!token || !issued.includes(token)) {
      return {
        json: {
          requestId: "e1#601",
          success: false,
          errors: [{ code: "601", message: "Access token invalid" }],
        },
      };
    }
    return {
      json: { requestId: `r#${issued.length}`, success: true, result: [{ id: 1, email: "a@example.com" }] },
    };
  };
  const server = await FakeServer.start(fallback);
  return { server, issued, close: () => server.close() };
}

/** A google.rpc.Status error whose message echoes the request. */
export function googleFailure(status: number, name: string, seen: Seen): Reply {
  return { status, json: { error: { code: status, message: `refused: ${echo(seen)}`, status: name } } };
}

/**
 * A fake Google: OAuth under /oauth (/token for refresh grants, /revoke), the Data API under /data and
 * the Admin API under /admin. API calls need an access token it issued.
 */
export async function startFakeGoogle(credentials: FakeCredentials): Promise<Fake> {
  const issued: string[] = [];
  const fallback: Handler = (seen) => {
    if (seen.path === "/oauth/token") {
      const sent = form(seen.body);
      if (sent.client_secret !== credentials.clientSecret) {
        return { status: 401, json: { error: "invalid_client", error_description: "Unauthorized" } };
      }
      if (sent.refresh_token !== credentials.refreshToken) {
        return { status: 400, json: { error: "invalid_grant", error_description: "Bad Request" } };
      }
      const token = `${credentials.tokenPrefix}.${randomUUID()}`;
      issued.push(token);
      return {
        json: {
          access_token: token,
          expires_in: 3599,
          token_type: "Bearer",
          scope:
            "https://www.googleapis.com/auth/analytics.readonly https://www.googleapis.com/auth/analytics.edit",
        },
      };
    }
    if (seen.path === "/oauth/revoke") return { json: {} };
    const token = bearer(seen);
    if (!token || !issued.includes(token)) {
      return {
        status: 401,
        json: { error: { code: 401, message: "Invalid Credentials", status: "UNAUTHENTICATED" } },
      };
    }
    if (seen.path.endsWith(":runReport")) {
      return {
        json: {
          dimensionHeaders: [{ name: "country" }],
          metricHeaders: [{ name: "sessions", type: "TYPE_INTEGER" }],
          rows: [{ dimensionValues: [{ value: "France" }], metricValues: [{ value: "12" }] }],
          rowCount: 1,
        },
      };
    }
    return { json: { accountSummaries: [], kind: "fake" } };
  };
  const server = await FakeServer.start(fallback);
  return { server, issued, close: () => server.close() };
}

/** The environment that points the product at both fakes. */
export function fakeEnv(
  marketo: Fake,
  google: Fake,
  creds: { marketo: FakeCredentials; google: FakeCredentials },
) {
  return {
    MARKETO_CLIENT_ID: creds.marketo.clientId,
    MARKETO_CLIENT_SECRET: creds.marketo.clientSecret,
    MARKETO_REST_ENDPOINT: `${marketo.server.origin}/rest`,
    GA4_DATA_API_URL: `${google.server.origin}/data`,
    GA4_ADMIN_API_URL: `${google.server.origin}/admin`,
    GOOGLE_OAUTH_URL: `${google.server.origin}/oauth`,
    GOOGLE_OAUTH_AUTHORIZE_URL: `${google.server.origin}/oauth/authorize`,
    GOOGLE_OAUTH_CLIENT_ID: creds.google.clientId,
    GOOGLE_OAUTH_CLIENT_SECRET: creds.google.clientSecret,
  };
}
