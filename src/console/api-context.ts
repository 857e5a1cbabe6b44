/** The console's routes and what they share: the dependencies, the API's checked request, the answers. */

import type { ConnectionKind } from "../connections/registry.js";
import { answered, type NodeApp, type NodeContext } from "../web/node-bridge.js";
import type { Workspace } from "../workspace.js";
import type { CspReports } from "./csp-reports.js";
import { refuse, sendJson } from "./http-util.js";
import type { LoginAttempts } from "./login-limit.js";
import type { ConsoleSession, Sessions } from "./sessions.js";
import type { StaticFiles } from "./static.js";
import type { ConsoleRun } from "./steps.js";

/** What the console's handlers share (built once by createConsole). */
export interface ConsoleDeps {
  workspace: (name: string) => Workspace;
  loopback: boolean;
  apiKeys: ReadonlyMap<string, string>;
  env: NodeJS.ProcessEnv;
  sandbox: Partial<Record<ConnectionKind, boolean>>;
  sessions: Sessions;
  /** Wrong API keys per client address (the login's rate limit). */
  logins: LoginAttempts;
  /** The clock of what expires (a sign-in waiting for its service's answer). */
  now: () => number;
  files: StaticFiles;
  reports: CspReports;
  /** The secret `martech-steps console-link` presents for a new login link (loopback consoles only). */
  adminToken?: string | undefined;
  /** The page's URL with a new one-time login token for a workspace. */
  loginLink: (base: string, workspace: string) => string;
  /** The runs in progress by id (cancelled by the page, aborted when the console closes). */
  running: Map<string, ConsoleRun>;
}

/**
 * A service's part of the console, from its own module (src/console/<service>.ts): its card's API and the
 * pages it serves outside the API. Built once per console (a card may hold state, e.g. sign-ins under way).
 */
export interface ConsoleCard {
  /** Routes met before the API's checks (a sign-in's way back to the page). */
  pages?(app: ConsoleApp, deps: ConsoleDeps): void;
  /** The card's API, after the API's checks (same origin, session, CSRF token). */
  api(app: ConsoleApp, deps: ConsoleDeps): void;
}

/** What the API's checks hand to its handlers. */
export interface ApiVariables {
  session: ConsoleSession;
  workspace: Workspace;
  /** The page's origin (empty on a GET that sent none). */
  origin: string;
}

export type ConsoleApp = NodeApp<ApiVariables>;
export type ConsoleContext = NodeContext<ApiVariables>;

/** Answers 200 with a JSON body (`{ok: true}` by default). */
export function ok(c: ConsoleContext, body: unknown = { ok: true }): Response {
  sendJson(c.env.outgoing, 200, body);
  return answered(c);
}

export function refused(c: ConsoleContext, status: number, code: string, message: string): Response {
  refuse(c.env.outgoing, status, code, message);
  return answered(c);
}

/** Not the console's: the server answers it (its 404). */
export function notMine(c: ConsoleContext): Response {
  c.env.unrouted = true;
  return c.body(null, 404);
}
