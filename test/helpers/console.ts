import { request } from "node:http";
import { expect } from "vitest";
import { MemoryCredentialStore } from "../../src/auth/credential-store.js";
import {
  googleEndpointsFromEnv,
  SCOPE_ANALYTICS_EDIT,
  SCOPE_ANALYTICS_READONLY,
} from "../../src/auth/google/config.js";
import { serviceOf } from "../../src/auth/google/service.js";
import { type ConsoleHandle, type ConsoleOptions, createConsole } from "../../src/console/index.js";
import { type HttpServerHandle, startHttpServer } from "../../src/host/http.js";
import {
  type GoogleSandbox,
  type MarketoSandbox,
  SANDBOX_GOOGLE_USER,
  startGoogleSandbox,
  startMarketoSandbox,
} from "../../src/sandbox/index.js";
import { MemoryState } from "../../src/state/memory.js";
import { Workspace } from "../../src/workspace.js";
import { CANARY_SECRET } from "./fixtures.js";

/** Secrets planted in the configuration: no console response may ever contain one. */
export const GOOGLE_CLIENT_CANARY = "canary-google-client-secret-5d0e91";

export interface ConsoleFixture {
  /** The page's origin, e.g. http://127.0.0.1:41234 */
  base: string;
  console: ConsoleHandle;
  http: HttpServerHandle;
  marketo: MarketoSandbox;
  google: GoogleSandbox;
  store: MemoryCredentialStore;
  /** Every request the console answered: method, path, Origin and status. */
  requests: { method: string; path: string; origin: string | undefined; status: number }[];
  workspace(name?: string): Workspace;
  /** Every secret of the configuration, refresh tokens included. */
  canaries(): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * The console over both sandboxes, configured as an admin would have it: Marketo credentials and
 * the Google OAuth client saved in the workspace's store (the secrets are canaries), one account
 * with read and edit access and one that can only read.
 */
export async function startConsoleFixture(
  options: Partial<Pick<ConsoleOptions, "loopback" | "apiKeys" | "sandbox">> & {
    host?: string;
    marketoEnv?: NodeJS.ProcessEnv;
  } = {},
): Promise<ConsoleFixture> {
  const marketo = await startMarketoSandbox({ clientSecret: CANARY_SECRET });
  const google = await startGoogleSandbox({
    clientSecret: GOOGLE_CLIENT_CANARY,
    consentAs: "editor@sandbox.example",
  });
  const env: NodeJS.ProcessEnv = {
    GA4_DATA_API_URL: google.dataApiUrl,
    GA4_ADMIN_API_URL: google.adminApiUrl,
    GOOGLE_OAUTH_URL: google.oauthUrl,
    GOOGLE_OAUTH_AUTHORIZE_URL: google.authorizeUrl,
    // As `npm start` wires the built-in sandbox: through the environment, which wins over what is saved.
    ...(options.sandbox?.marketo
      ? {
          MARKETO_CLIENT_ID: marketo.clientId,
          MARKETO_CLIENT_SECRET: CANARY_SECRET,
          MARKETO_REST_ENDPOINT: marketo.restEndpoint,
        }
      : {}),
    ...options.marketoEnv,
  };
  const store = new MemoryCredentialStore();
  const addedAt = "2025-01-02T03:04:05.000Z";
  // Accounts are bound to the service that issued their tokens (src/auth/google/service.ts): the sandbox's.
  const service = serviceOf(googleEndpointsFromEnv(env));
  await store.update("default", () => ({
    // Nothing saved for a service on the sandbox: `npm start` runs a sandbox only for what is not configured.
    ...(options.sandbox?.marketo
      ? {}
      : {
          marketo: {
            clientId: marketo.clientId,
            clientSecret: CANARY_SECRET,
            restEndpoint: marketo.restEndpoint,
          },
        }),
    googleClient: { clientId: google.clientId, clientSecret: GOOGLE_CLIENT_CANARY },
    googleAccounts: {
      sandbox: {
        label: "sandbox",
        email: SANDBOX_GOOGLE_USER,
        scopes: [SCOPE_ANALYTICS_READONLY, SCOPE_ANALYTICS_EDIT],
        addedAt,
        refreshToken: google.issueRefreshToken(SANDBOX_GOOGLE_USER),
        service,
      },
      reader: {
        label: "reader",
        email: "viewer@sandbox.example",
        scopes: [SCOPE_ANALYTICS_READONLY],
        addedAt,
        refreshToken: google.issueRefreshToken("viewer@sandbox.example", [SCOPE_ANALYTICS_READONLY]),
        service,
      },
    },
  }));
  const state = new MemoryState();
  const workspaces = new Map<string, Workspace>();
  const workspace = (name = "default") => {
    let found = workspaces.get(name);
    if (!found) {
      found = new Workspace({ name, env, store, state });
      workspaces.set(name, found);
    }
    return found;
  };
  const web = createConsole({
    workspace,
    loopback: options.loopback ?? true,
    ...(options.apiKeys ? { apiKeys: options.apiKeys } : {}),
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    env,
  });
  const requests: ConsoleFixture["requests"] = [];
  const http = await startHttpServer({
    workspace,
    routes: (req, res, url) => {
      res.on("finish", () =>
        requests.push({
          method: req.method ?? "",
          path: url.pathname,
          origin: req.headers.origin,
          status: res.statusCode,
        }),
      );
      return web.routes(req, res, url);
    },
    ...(options.host ? { host: options.host } : {}),
    ...(options.apiKeys ? { apiKeys: options.apiKeys } : {}),
  });
  return {
    base: new URL("/", http.url).origin,
    console: web,
    http,
    marketo,
    google,
    store,
    requests,
    workspace,
    async canaries() {
      const secrets = await store.read("default");
      return [
        CANARY_SECRET,
        GOOGLE_CLIENT_CANARY,
        ...Object.values(secrets.googleAccounts).flatMap((account) =>
          account.refreshToken ? [account.refreshToken] : [],
        ),
      ];
    },
    async close() {
      web.close();
      await http.close();
      for (const found of workspaces.values()) await found.close();
      await marketo.close();
      await google.close();
    },
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A request with any headers (fetch forbids setting Host, Origin and Sec-Fetch-*). Every answer is kept for the canary scan. */
export function rawRequest(
  base: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string; seen?: RawResponse[] } = {},
): Promise<RawResponse> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method,
        headers: options.headers,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => {
          const answer = { status: res.statusCode ?? 0, headers: res.headers, text };
          options.seen?.push(answer);
          resolve(answer);
        });
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/** A logged-in page: its session cookie, CSRF token and origin. Every answer is kept for the canary scan. */
export class ConsolePage {
  cookie = "";
  csrf = "";
  constructor(
    readonly fixture: ConsoleFixture,
    readonly seen: RawResponse[],
  ) {}

  get host(): string {
    return new URL(this.fixture.base).host;
  }

  async login(): Promise<void> {
    const token = new URL(this.fixture.console.loginUrl(this.fixture.base)).searchParams.get("token") ?? "";
    const answer = await rawRequest(this.fixture.base, "GET", `/?token=${token}`, { seen: this.seen });
    this.cookie = String(answer.headers["set-cookie"]).split(";")[0] ?? "";
    const session = await this.call("GET", "/console/api/session");
    this.csrf = JSON.parse(session.text).csrfToken;
  }

  call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<RawResponse> {
    return rawRequest(this.fixture.base, method, path, {
      seen: this.seen,
      headers: {
        host: this.host,
        cookie: this.cookie,
        ...(method !== "GET" ? { origin: this.fixture.base, "x-csrf-token": this.csrf } : {}),
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  }

  async json<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T> {
    const answer = await this.call(method, path, body);
    expect(answer.status, answer.text).toBe(200);
    return JSON.parse(answer.text) as T;
  }

  /** Runs a step and returns its NDJSON events. */
  async run(id: string, input: unknown): Promise<Record<string, unknown>[]> {
    const answer = await this.call("POST", `/console/api/steps/${id}/run`, { input });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toMatch(/application\/x-ndjson/);
    return answer.text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
  }
}
