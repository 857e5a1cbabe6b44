/**
 * The console's routes on hono: the page and its assets, then the API behind its checks, in the order a
 * request meets them: same origin (a change must come from the page), the session (its cookie), the CSRF
 * token (on changes); then one handler per route, grouped by resource in routes.ts.
 */
import type { Next } from "hono";
import { workspaceOfApiKey } from "../auth/api-keys.js";
import { CONNECTION_KINDS } from "../connections/registry.js";
import { ValidationError } from "../errors.js";
import { answered, nodeApp } from "../web/node-bridge.js";
import { adminLinkRoute } from "./admin-link.js";
import {
  type ApiVariables,
  type ConsoleApp,
  type ConsoleContext,
  type ConsoleDeps,
  notMine,
  ok,
  refused,
} from "./api-context.js";
import { crossOrigin, readJson, sameOrigin, sendError, stringField } from "./http-util.js";
import { consoleCards, resultRoutes, stepRoutes } from "./routes.js";
import { sameSecret } from "./sessions.js";

const changes = (c: ConsoleContext) => c.env.incoming.method !== "GET" && c.env.incoming.method !== "HEAD";

export function consoleApp(deps: ConsoleDeps): ConsoleApp {
  const cards = consoleCards(deps);
  const app = nodeApp<ApiVariables>();
  app.onError((error, c) => {
    if (!c.env.outgoing.headersSent) sendError(c.env.outgoing, error);
    else c.env.outgoing.end();
    return answered(c);
  });
  pageRoutes(app, deps);
  for (const card of cards) card.pages?.(app, deps);
  adminLinkRoute(app, deps);
  // "/console/api/*" also matches "/console/api", which is not the console's.
  app.all("/console/api", notMine);
  app.use("/console/api/*", sameOriginOnly);
  app.get("/console/api/session", (c) => sessionInfo(c, deps));
  app.post("/console/api/login", (c) => login(c, deps));
  app.use("/console/api/*", (c, next) => sessionOnly(c, next, deps), csrfOnly);
  app.post("/console/api/logout", (c) => logout(c, deps));
  stepRoutes(app, deps);
  resultRoutes(app);
  for (const card of cards) card.api(app, deps);
  app.all("/console/api/*", (c) => refused(c, 404, "not_found", "No such console API."));
  return app;
}

/** The page, its assets and the CSP reports it sends. */
function pageRoutes(app: ConsoleApp, deps: ConsoleDeps): void {
  app.get("/", (c) => page(c, deps));
  app.get("/console/assets/*", (c) => {
    const name = c.env.url.pathname.slice("/console/assets/".length);
    return deps.files.asset(c.env.outgoing, name) ? answered(c) : notMine(c);
  });
  app.post("/console/csp-report", async (c) => {
    await deps.reports.receive(c.env.incoming, c.env.outgoing);
    return answered(c);
  });
}

/** The page at / (the login token, when present, is spent and dropped from the address bar). */
function page(c: ConsoleContext, deps: ConsoleDeps): Response {
  const { incoming: req, outgoing: res } = c.env;
  const token = c.env.url.searchParams.get("token");
  // A HEAD (a link preview's, answered by the GET route) shows the page, never spends the login link.
  if (token === null || req.method !== "GET") {
    deps.files.page(res);
    return answered(c);
  }
  const outcome = deps.loopback ? deps.sessions.spendLoginToken(token) : "unknown";
  const session = typeof outcome === "string" ? undefined : outcome;
  if (session) res.setHeader("set-cookie", deps.sessions.setCookie(req, session));
  res.writeHead(303, {
    location: session ? "/" : `/#/login-link-${outcome === "expired" ? "expired" : "used"}`,
    "cache-control": "no-store",
    "referrer-policy": "no-referrer",
  });
  res.end();
  return answered(c);
}

/** Responses are not readable cross-origin anyway (no CORS); refusing early also stops side effects. */
async function sameOriginOnly(c: ConsoleContext, next: Next): Promise<Response | undefined> {
  if (crossOrigin(c.env.incoming))
    return refused(c, 403, "cross_origin", "Forbidden: this request did not come from the console's page.");
  const origin = sameOrigin(c.env.incoming);
  if (changes(c) && !origin)
    return refused(c, 403, "cross_origin", "Forbidden: a change must come from the console's page (Origin).");
  c.set("origin", origin ?? "");
  await next();
  return undefined;
}

async function sessionOnly(c: ConsoleContext, next: Next, deps: ConsoleDeps): Promise<Response | undefined> {
  const session = deps.sessions.fromRequest(c.env.incoming);
  if (!session) return refused(c, 401, "login_required", "Log in to use the console.");
  c.set("session", session);
  c.set("workspace", deps.workspace(session.workspace));
  await next();
  return undefined;
}

async function csrfOnly(c: ConsoleContext, next: Next): Promise<Response | undefined> {
  const presented = c.env.incoming.headers["x-csrf-token"];
  const token = Array.isArray(presented) ? presented[0] : presented;
  if (changes(c) && !sameSecret(c.var.session.csrfToken, token))
    return refused(c, 403, "csrf", "Forbidden: the request has no valid CSRF token. Reload the page.");
  await next();
  return undefined;
}

/** GET /console/api/session: who is logged in, and the CSRF token the page sends back. */
function sessionInfo(c: ConsoleContext, deps: ConsoleDeps): Response {
  const session = deps.sessions.fromRequest(c.env.incoming);
  if (!session) return refused(c, 401, "login_required", "Log in to use the console.");
  return ok(c, {
    workspace: session.workspace,
    csrfToken: session.csrfToken,
    sandbox: Object.fromEntries(CONNECTION_KINDS.map((kind) => [kind, Boolean(deps.sandbox[kind])])),
  });
}

/** POST /console/api/login {apiKey}: a session for the key's workspace (there is no session, so no CSRF token yet). */
async function login(c: ConsoleContext, deps: ConsoleDeps): Promise<Response> {
  if (deps.apiKeys.size === 0)
    return refused(c, 404, "not_found", "This server has no API keys: log in with the printed link.");
  const address = c.env.incoming.socket.remoteAddress ?? "";
  deps.logins.check(address);
  const apiKey = stringField(await readJson(c.env.incoming, 16 * 1024), "apiKey", true) as string;
  // Again once the body is in: logins sent at once with their bodies held back all passed the first check
  // while none had failed yet. From here to the count nothing awaits, so no other login judges in between.
  deps.logins.check(address);
  const workspace = workspaceOfApiKey(deps.apiKeys, apiKey);
  if (!workspace) {
    deps.logins.failed(address);
    throw new ValidationError("apiKey", "this API key is not one of the server's keys.");
  }
  const session = deps.sessions.open(workspace);
  c.env.outgoing.setHeader("set-cookie", deps.sessions.setCookie(c.env.incoming, session));
  return ok(c, { workspace });
}

/** POST /console/api/logout: the session ends and its cookie is cleared. */
function logout(c: ConsoleContext, deps: ConsoleDeps): Response {
  deps.sessions.close(c.var.session.id);
  c.env.outgoing.setHeader("set-cookie", deps.sessions.setCookie(c.env.incoming, undefined));
  return ok(c);
}
