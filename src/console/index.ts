/**
 * The browser console, the fourth adapter: the tool-step bar and the integrations page, served by
 * the MCP HTTP server beside /mcp through one seam (`routes`). Like the other adapters it is thin:
 * runs go through runToolStep, credentials through the workspace's store.
 *
 * Security (docs/security.md): a one-time login token (or, off loopback, the workspace's API key) opens a
 * session held in an HttpOnly SameSite=Strict cookie; every state-changing request must come from
 * the page's own origin and carry the session's CSRF token; the Host header was already checked by
 * the server; no response ever carries a secret; the page runs under a strict CSP.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ConnectionKind } from "../connections/registry.js";
import { cookieSecureSetting, positiveSetting } from "../settings.js";
import { dispatch } from "../web/node-bridge.js";
import type { ConsentPage } from "../web/oauth/embedded.js";
import type { Workspace } from "../workspace.js";
import { consoleApp } from "./app.js";
import { CspReports } from "./csp-reports.js";
import { LoginAttempts } from "./login-limit.js";
import { consentPage } from "./oauth-consent.js";
import { Sessions } from "./sessions.js";
import { defaultWebRoot, StaticFiles } from "./static.js";
import type { ConsoleRun } from "./steps.js";

export interface ConsoleOptions {
  /** The workspace of a session (one instance per name, kept by the caller, as for the MCP server). */
  workspace: (name: string) => Workspace;
  /** True when the server listens on loopback: login with the printed one-time token. */
  loopback: boolean;
  /** API key → workspace (MARTECH_STEPS_API_KEYS): the login off loopback (and on it, when set). */
  apiKeys?: ReadonlyMap<string, string>;
  /** The environment the workspaces were built with (it may hold the Google OAuth client). */
  env?: NodeJS.ProcessEnv;
  /** Which services run on the built-in sandbox, to say so on the page. */
  sandbox?: Partial<Record<ConnectionKind, boolean>>;
  /** How long a printed login link works (default MARTECH_STEPS_LOGIN_TOKEN_TTL_MS of `env`, else 15 minutes). */
  loginTokenTtlMs?: number;
  /**
   * The session cookie is Secure: served over TLS. Default: MARTECH_STEPS_COOKIE_SECURE of `env` when set,
   * else whether MARTECH_STEPS_OAUTH_AUDIENCE is an https URL (settings.ts cookieSecureSetting). Unless given
   * here or in the setting, a request a TLS proxy marks as HTTPS (X-Forwarded-Proto) gets a Secure cookie too.
   */
  secureCookie?: boolean;
  /** The built page (default dist/console-web). */
  webRoot?: string;
  now?: () => number;
  /**
   * The admin token of `martech-steps console-link` (written by `start` to a file only its user reads):
   * with it, a process of this machine gets a new login link from the running server.
   */
  adminToken?: string;
}

export interface ConsoleHandle {
  /** Answers a request whose path is not /mcp (after the server's Host check); false when it is not the console's. */
  routes(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean>;
  /** The page's URL with a new one-time login token for a workspace (loopback only; else the plain URL). */
  loginUrl(baseUrl: string, workspace?: string): string;
  /** The embedded authorization server's consent page, over the console's sessions (MARTECH_STEPS_OAUTH=embedded). */
  consent: ConsentPage;
  /** CSP violation reports the page sent (tests assert there are none). */
  cspReports(): readonly Record<string, unknown>[];
  /** Whether the session cookie is Secure. */
  secureCookie: boolean;
  /** Aborts the runs in progress. */
  close(): void;
}

/** The console: its routes (app.ts, routes.ts) over the sessions, Google sign-ins, files and CSP reports it keeps. */
export function createConsole(options: ConsoleOptions): ConsoleHandle {
  const now = options.now ?? Date.now;
  const env = options.env ?? process.env;
  const setting = cookieSecureSetting(env);
  const secureCookie = options.secureCookie ?? setting.secure;
  const sessions = new Sessions(now, {
    loginTokenTtlMs: options.loginTokenTtlMs ?? positiveSetting(env, "MARTECH_STEPS_LOGIN_TOKEN_TTL_MS"),
    secureCookie,
    // Unless the operator chose: a request a TLS proxy marks as HTTPS gets a Secure cookie (sessions.ts tlsForwarded).
    secureWhenForwarded: options.secureCookie === undefined && !setting.chosen,
  });
  const reports = new CspReports(now);
  const running = new Map<string, ConsoleRun>();
  const loginLink = (baseUrl: string, workspace: string) => {
    const base = new URL("/", baseUrl);
    if (!options.loopback) return base.toString();
    base.searchParams.set("token", sessions.mintLoginToken(workspace));
    return base.toString();
  };
  const files = new StaticFiles(options.webRoot ?? defaultWebRoot());
  const app = consoleApp({
    workspace: options.workspace,
    loopback: options.loopback,
    apiKeys: options.apiKeys ?? new Map<string, string>(),
    env,
    logins: new LoginAttempts(now),
    sandbox: options.sandbox ?? {},
    sessions,
    now,
    files,
    reports,
    running,
    adminToken: options.adminToken,
    loginLink,
  });
  return {
    routes: (req, res, url) => dispatch(app, req, res, url),
    loginUrl: (baseUrl, workspace = "default") => loginLink(baseUrl, workspace),
    consent: consentPage(sessions, files.stylesheets()),
    cspReports: () => reports.list(),
    secureCookie,
    close() {
      for (const run of running.values()) run.controller.abort();
    },
  };
}
