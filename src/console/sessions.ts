/**
 * Who may use the console, and as which workspace. A person logs in once with a one-time token
 * (printed by `npm start`, as Jupyter does) or, off loopback, with their workspace's API key; the
 * browser then holds only a random session id in an HttpOnly, SameSite=Strict cookie. Each session
 * has its own CSRF token, which the page sends back in a header on every state-changing request.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { PerWorkspace } from "./per-workspace.js";

export interface ConsoleSession {
  id: string;
  workspace: string;
  csrfToken: string;
  expiresAt: number;
}

/** A session lasts this long after its last use. */
const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
/** Sessions one workspace may hold: its least recently used one ends when a new login needs room. */
const MAX_SESSIONS_PER_WORKSPACE = 1_000;
/** Sessions all workspaces together may hold (memory): a new login is refused, nobody is logged out. */
const MAX_SESSIONS = 10_000;
/** Login tokens are minted only by the server (the link `npm start` prints), never by a request. */
const MAX_LOGIN_TOKENS = 100;

export const random = (): string => randomBytes(32).toString("base64url");
export const hash = (value: string): string => createHash("sha256").update(value).digest("base64url");

/** The port the browser addressed (cookies are not scoped by port, so their names carry it). */
export function portOf(req: IncomingMessage): string {
  return /:(\d+)$/.exec(req.headers.host ?? "")?.[1] ?? "80";
}

export function sameSecret(expected: string, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  const a = createHash("sha256").update(expected).digest();
  const b = createHash("sha256").update(presented).digest();
  return timingSafeEqual(a, b);
}

export function cookies(req: IncomingMessage): Map<string, string> {
  const jar = new Map<string, string>();
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0) jar.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return jar;
}

export class Sessions {
  /** Login tokens by their hash: a token is never kept in clear after it was handed out. */
  readonly #tokens = new Map<string, string>();
  readonly #sessions: PerWorkspace<ConsoleSession>;
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
    this.#sessions = new PerWorkspace(
      {
        perWorkspace: MAX_SESSIONS_PER_WORKSPACE,
        total: MAX_SESSIONS,
        what: "open console sessions",
        hint: "Log out of the console where it is no longer used, or try again when idle sessions have ended.",
      },
      now,
    );
  }

  /**
   * The cookie's name carries the port: cookies are not scoped by port, and two consoles (or a
   * console and another local app) on one host must not overwrite each other's session.
   */
  cookieName(req: IncomingMessage): string {
    return `martech_console_${portOf(req)}`;
  }

  /** A new one-time login token for a workspace. */
  mintLoginToken(workspace: string): string {
    if (this.#tokens.size >= MAX_LOGIN_TOKENS)
      this.#tokens.delete(this.#tokens.keys().next().value as string);
    const token = random();
    this.#tokens.set(hash(token), workspace);
    return token;
  }

  /** Spends a login token: the session it opens, or undefined for an unknown or already used token. */
  redeemLoginToken(token: string): ConsoleSession | undefined {
    const key = hash(token);
    const workspace = this.#tokens.get(key);
    if (workspace === undefined) return undefined;
    // Opened first: a login refused for lack of room leaves the token usable for a later try.
    const session = this.open(workspace);
    this.#tokens.delete(key);
    return session;
  }

  /** A new session for a workspace; RateLimitError when all workspaces together hold the limit. */
  open(workspace: string): ConsoleSession {
    const session: ConsoleSession = {
      id: random(),
      workspace,
      csrfToken: random(),
      expiresAt: this.#now() + SESSION_IDLE_MS,
    };
    this.#sessions.add(workspace, session.id, session);
    return session;
  }

  /** The live session of a request's cookie (its idle timer restarts), if any. */
  fromRequest(req: IncomingMessage): ConsoleSession | undefined {
    const id = cookies(req).get(this.cookieName(req));
    const session = id ? this.#sessions.use(id) : undefined;
    if (!session) return undefined;
    session.expiresAt = this.#now() + SESSION_IDLE_MS;
    return session;
  }

  close(id: string): void {
    this.#sessions.delete(id);
  }

  /** Set-Cookie for a session: HttpOnly (no script reads it), SameSite=Strict (no other site sends it). */
  setCookie(req: IncomingMessage, session: ConsoleSession | undefined): string {
    const name = this.cookieName(req);
    const attributes = "Path=/; HttpOnly; SameSite=Strict";
    return session
      ? `${name}=${session.id}; ${attributes}; Max-Age=${SESSION_IDLE_MS / 1000}`
      : `${name}=; ${attributes}; Max-Age=0`;
  }
}
