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
/** A printed login link works for this long (a link left in a terminal's scrollback or a log should not open a session days later). */
export const DEFAULT_LOGIN_TOKEN_TTL_MS = 15 * 60_000;

export interface SessionsOptions {
  /** How long a login token works after it was minted. Default 15 minutes. */
  loginTokenTtlMs?: number;
  /** Mark the cookie Secure: the console is served to browsers over TLS (by a proxy in front of it). */
  secureCookie?: boolean;
  /**
   * Mark it Secure also on a request a TLS proxy says came over HTTPS (tlsForwarded), when the operator
   * did not choose (MARTECH_STEPS_COOKIE_SECURE unset). Default false.
   */
  secureWhenForwarded?: boolean;
}

/** What spending a login token gave: a session, or why not. */
export type LoginOutcome = ConsoleSession | "expired" | "unknown";

export const random = (): string => randomBytes(32).toString("base64url");
export const hash = (value: string): string => createHash("sha256").update(value).digest("base64url");

/**
 * Whether a request says it reached the proxy in front over TLS: `X-Forwarded-Proto: https` (the de facto
 * header, https://developer.mozilla.org/en-US/docs/Web/HTTP/Reference/Headers/X-Forwarded-Proto) or
 * `Forwarded: proto=https` (RFC 7239 section 5.4). Any client can send either, and no proxy is configured as
 * trusted, so it is believed for one thing only: to add Secure to the session cookie, which takes nothing from
 * anyone (a forged one only keeps its sender's own cookie off plain HTTP). The first hop's value counts.
 */
export function tlsForwarded(req: IncomingMessage): boolean {
  const first = (value: string | string[] | undefined) =>
    (Array.isArray(value) ? value[0] : value)?.split(",")[0]?.trim().toLowerCase();
  if (first(req.headers["x-forwarded-proto"]) === "https") return true;
  const forwarded = first(req.headers.forwarded);
  return forwarded !== undefined && /(?:^|;)\s*proto\s*=\s*"?https"?\s*(?:;|$)/.test(forwarded);
}

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
  readonly #tokens = new Map<string, { workspace: string; expiresAt: number }>();
  readonly #sessions: PerWorkspace<ConsoleSession>;
  readonly #now: () => number;
  readonly #tokenTtlMs: number;
  readonly #secure: boolean;
  readonly #secureWhenForwarded: boolean;

  constructor(now: () => number = Date.now, options: SessionsOptions = {}) {
    this.#now = now;
    this.#tokenTtlMs = options.loginTokenTtlMs ?? DEFAULT_LOGIN_TOKEN_TTL_MS;
    this.#secure = options.secureCookie ?? false;
    this.#secureWhenForwarded = options.secureWhenForwarded ?? false;
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
    // Over TLS, the __Host- prefix: the browser then keeps only a cookie this origin set (Secure, Path=/, no
    // Domain), so a sibling subdomain or a plain-HTTP page cannot plant one of the same name (cookie tossing).
    // https://datatracker.ietf.org/doc/html/draft-ietf-httpbis-rfc6265bis#name-the-__host-prefix
    return `${this.#secureFor(req) ? "__Host-" : ""}martech_console_${portOf(req)}`;
  }

  /** Whether this request's cookie is Secure: always over TLS, or when a TLS proxy says it came over TLS. */
  #secureFor(req: IncomingMessage): boolean {
    return this.#secure || (this.#secureWhenForwarded && tlsForwarded(req));
  }

  /** A new one-time login token for a workspace. */
  mintLoginToken(workspace: string): string {
    if (this.#tokens.size >= MAX_LOGIN_TOKENS)
      this.#tokens.delete(this.#tokens.keys().next().value as string);
    const token = random();
    this.#tokens.set(hash(token), { workspace, expiresAt: this.#now() + this.#tokenTtlMs });
    return token;
  }

  /** Spends a login token: the session it opens, or undefined for an unknown, used or expired token. */
  redeemLoginToken(token: string): ConsoleSession | undefined {
    const outcome = this.spendLoginToken(token);
    return typeof outcome === "string" ? undefined : outcome;
  }

  /** Spends a login token: the session it opens, "expired" past its lifetime, else "unknown" (or used). */
  spendLoginToken(token: string): LoginOutcome {
    const key = hash(token);
    const minted = this.#tokens.get(key);
    if (minted === undefined) return "unknown";
    if (this.#now() >= minted.expiresAt) {
      this.#tokens.delete(key);
      return "expired";
    }
    // Opened first: a login refused for lack of room leaves the token usable for a later try.
    const session = this.open(minted.workspace);
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

  /**
   * Set-Cookie for a session: HttpOnly (no script reads it), SameSite=Strict (no other site sends it), and
   * Secure when the console is served over TLS (the browser then never sends it over plain HTTP).
   */
  setCookie(req: IncomingMessage, session: ConsoleSession | undefined): string {
    const name = this.cookieName(req);
    const attributes = `Path=/; HttpOnly; SameSite=Strict${this.#secureFor(req) ? "; Secure" : ""}`;
    return session
      ? `${name}=${session.id}; ${attributes}; Max-Age=${SESSION_IDLE_MS / 1000}`
      : `${name}=; ${attributes}; Max-Age=0`;
  }
}
