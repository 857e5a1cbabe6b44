/**
 * The browser console, the fourth adapter: the tool-step bar and the integrations page, served by
 * the MCP HTTP server beside /mcp through one seam (`routes`). Like the other adapters it is thin:
 * runs go through runToolStep, credentials through the workspace's store.
 *
 * Security (DESIGN.md): a one-time login token (or, off loopback, the workspace's API key) opens a
 * session held in an HttpOnly SameSite=Strict cookie; every state-changing request must come from
 * the page's own origin and carry the session's CSRF token; the Host header was already checked by
 * the server; no response ever carries a secret; the page runs under a strict CSP.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { workspaceOfApiKey } from "../auth/api-keys.js";
import { ValidationError } from "../errors.js";
import type { Workspace } from "../workspace.js";
import { CspReports } from "./csp-reports.js";
import { googleStatus, removeGoogleClient, saveGoogleClient } from "./google.js";
import { CALLBACK_PATH, GoogleConnects } from "./google-connect.js";
import {
  crossOrigin,
  pathParams,
  readJson,
  refuse,
  sameOrigin,
  sendError,
  sendJson,
  stringField,
} from "./http-util.js";
import { marketoStatus, removeMarketo, saveMarketo, testMarketo } from "./marketo.js";
import { type ConsoleSession, Sessions, sameSecret } from "./sessions.js";
import { defaultWebRoot, StaticFiles } from "./static.js";
import { runStep, searchSteps, sendFormModule } from "./steps.js";

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
  sandbox?: { marketo?: boolean; google?: boolean };
  /** The built page (default dist/console-web). */
  webRoot?: string;
  now?: () => number;
}

export interface ConsoleHandle {
  /** Answers a request whose path is not /mcp (after the server's Host check); false when it is not the console's. */
  routes(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean>;
  /** The page's URL with a new one-time login token for a workspace (loopback only; else the plain URL). */
  loginUrl(baseUrl: string, workspace?: string): string;
  /** CSP violation reports the page sent (tests assert there are none). */
  cspReports(): readonly Record<string, unknown>[];
  /** Aborts the runs in progress. */
  close(): void;
}

type Handler = (ctx: {
  req: IncomingMessage;
  res: ServerResponse;
  session: ConsoleSession;
  workspace: Workspace;
  /** The path's parts named by the route's `params`, percent-decoded. */
  params: Record<string, string>;
  origin: string;
}) => Promise<void>;

interface Route {
  method: string;
  path: RegExp;
  /** The names of the path's capture groups, in order (each one is a field a typed error can name). */
  params?: readonly string[];
  handler: Handler;
}

export function createConsole(options: ConsoleOptions): ConsoleHandle {
  const now = options.now ?? Date.now;
  const sessions = new Sessions(now);
  const connects = new GoogleConnects(now);
  const files = new StaticFiles(options.webRoot ?? defaultWebRoot());
  const reports = new CspReports(now);
  const running = new Set<AbortController>();
  const apiKeys = options.apiKeys ?? new Map<string, string>();
  const env = options.env ?? process.env;
  const sandbox = options.sandbox ?? {};
  const ok = (res: ServerResponse, body: unknown = { ok: true }) => sendJson(res, 200, body);

  const routes: Route[] = [
    {
      method: "GET",
      path: /^\/console\/api\/steps\/([a-z0-9_]+)\/form\.js$/,
      params: ["step"],
      handler: async ({ res, workspace, params }) => sendFormModule(res, workspace, params.step as string),
    },
    {
      method: "POST",
      path: /^\/console\/api\/steps\/([a-z0-9_]+)\/run$/,
      params: ["step"],
      handler: async ({ req, res, workspace, params }) =>
        runStep(req, res, workspace, params.step as string, running),
    },
    {
      method: "GET",
      path: /^\/console\/api\/marketo$/,
      handler: async ({ res, workspace }) =>
        ok(res, await marketoStatus(workspace, Boolean(sandbox.marketo))),
    },
    {
      method: "POST",
      path: /^\/console\/api\/marketo$/,
      handler: async ({ req, res, workspace }) => {
        await saveMarketo(workspace, await readJson(req));
        ok(res, await marketoStatus(workspace, Boolean(sandbox.marketo)));
      },
    },
    {
      method: "POST",
      path: /^\/console\/api\/marketo\/test$/,
      handler: async ({ res, workspace }) => ok(res, await testMarketo(workspace)),
    },
    {
      method: "DELETE",
      path: /^\/console\/api\/marketo$/,
      handler: async ({ res, workspace }) => {
        await removeMarketo(workspace);
        ok(res, await marketoStatus(workspace, Boolean(sandbox.marketo)));
      },
    },
    {
      method: "GET",
      path: /^\/console\/api\/google$/,
      handler: async ({ res, workspace }) =>
        ok(res, await googleStatus(workspace, env, Boolean(sandbox.google))),
    },
    {
      method: "POST",
      path: /^\/console\/api\/google\/client$/,
      handler: async ({ req, res, workspace }) => {
        await saveGoogleClient(workspace, await readJson(req));
        ok(res, await googleStatus(workspace, env, Boolean(sandbox.google)));
      },
    },
    {
      method: "DELETE",
      path: /^\/console\/api\/google\/client$/,
      handler: async ({ res, workspace }) => {
        await removeGoogleClient(workspace);
        ok(res, await googleStatus(workspace, env, Boolean(sandbox.google)));
      },
    },
    {
      method: "POST",
      path: /^\/console\/api\/google\/connect$/,
      handler: async ({ req, res, session, workspace, origin }) => {
        const label = stringField(await readJson(req), "label", false);
        ok(res, await connects.begin(req, res, session, workspace, origin, label));
      },
    },
    {
      method: "DELETE",
      path: /^\/console\/api\/google\/accounts\/([^/]+)$/,
      params: ["label"],
      handler: async ({ res, workspace, params }) => {
        const outcome = await workspace.removeAccount(params.label as string);
        ok(res, { ...outcome, ...(await googleStatus(workspace, env, Boolean(sandbox.google))) });
      },
    },
    {
      method: "POST",
      path: /^\/console\/api\/logout$/,
      handler: async ({ req, res, session }) => {
        sessions.close(session.id);
        res.setHeader("set-cookie", sessions.setCookie(req, undefined));
        ok(res);
      },
    },
  ];

  /** The page at / (the login token, when present, is spent and dropped from the address bar). */
  function page(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const token = url.searchParams.get("token");
    if (token === null) {
      files.page(res);
      return;
    }
    const session = options.loopback ? sessions.redeemLoginToken(token) : undefined;
    if (session) res.setHeader("set-cookie", sessions.setCookie(req, session));
    res.writeHead(303, {
      location: session ? "/" : "/#/login-link-used",
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
    });
    res.end();
  }

  /** GET /console/api/session: who is logged in, and the CSRF token the page sends back. */
  function sessionInfo(res: ServerResponse, session: ConsoleSession | undefined): void {
    if (!session) {
      refuse(res, 401, "login_required", "Log in to use the console.");
      return;
    }
    ok(res, {
      workspace: session.workspace,
      csrfToken: session.csrfToken,
      sandbox: { marketo: Boolean(sandbox.marketo), google: Boolean(sandbox.google) },
    });
  }

  /** POST /console/api/login {apiKey}: a session for the key's workspace (there is no session, so no CSRF token yet). */
  async function login(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const apiKey = stringField(await readJson(req, 16 * 1024), "apiKey", true) as string;
    const workspace = workspaceOfApiKey(apiKeys, apiKey);
    if (!workspace) throw new ValidationError("apiKey", "this API key is not one of the server's keys.");
    const session = sessions.open(workspace);
    res.setHeader("set-cookie", sessions.setCookie(req, session));
    ok(res, { workspace });
  }

  async function api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? "GET";
    const changes = method !== "GET" && method !== "HEAD";
    // Responses are not readable cross-origin anyway (no CORS); refusing early also stops side effects.
    if (crossOrigin(req))
      return refuse(
        res,
        403,
        "cross_origin",
        "Forbidden: this request did not come from the console's page.",
      );
    const origin = sameOrigin(req);
    if (changes && !origin)
      return refuse(
        res,
        403,
        "cross_origin",
        "Forbidden: a change must come from the console's page (Origin).",
      );
    const session = sessions.fromRequest(req);
    if (url.pathname === "/console/api/session" && method === "GET") return sessionInfo(res, session);
    if (url.pathname === "/console/api/login" && method === "POST") {
      if (apiKeys.size === 0)
        return refuse(res, 404, "not_found", "This server has no API keys: log in with the printed link.");
      return login(req, res);
    }
    if (!session) return refuse(res, 401, "login_required", "Log in to use the console.");
    if (changes && !sameSecret(session.csrfToken, headerOf(req, "x-csrf-token"))) {
      return refuse(res, 403, "csrf", "Forbidden: the request has no valid CSRF token. Reload the page.");
    }
    if (url.pathname === "/console/api/steps" && method === "GET")
      return searchSteps(res, url.searchParams.get("q") ?? "");
    for (const route of routes) {
      const match = route.path.exec(url.pathname);
      if (!match || route.method !== method) continue;
      return route.handler({
        req,
        res,
        session,
        workspace: options.workspace(session.workspace),
        params: pathParams(route.params ?? [], match),
        origin: origin ?? "",
      });
    }
    refuse(res, 404, "not_found", "No such console API.");
  }

  return {
    async routes(req, res, url) {
      const path = url.pathname;
      try {
        if (path === "/" && (req.method === "GET" || req.method === "HEAD")) page(req, res, url);
        else if (path.startsWith("/console/assets/") && req.method === "GET") {
          if (!files.asset(res, path.slice("/console/assets/".length))) return false;
        } else if (path === "/console/csp-report" && req.method === "POST") await reports.receive(req, res);
        else if (path === CALLBACK_PATH && req.method === "GET")
          await connects.callback(req, res, url, sessions);
        else if (path.startsWith("/console/api/")) await api(req, res, url);
        else return false;
      } catch (error) {
        if (!res.headersSent) sendError(res, error);
        else res.end();
      }
      return true;
    },
    loginUrl(baseUrl, workspace = "default") {
      const base = new URL("/", baseUrl);
      if (!options.loopback) return base.toString();
      base.searchParams.set("token", sessions.mintLoginToken(workspace));
      return base.toString();
    },
    cspReports: () => reports.list(),
    close() {
      for (const controller of running) controller.abort();
    },
  };
}

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
