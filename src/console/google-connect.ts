/**
 * "Connect a Google account" from the console: the authorization code flow with PKCE whose redirect
 * comes back to the console's own origin (/console/oauth/callback).
 *
 * The callback cannot rely on the session cookie: it arrives as a navigation from Google's site, on
 * which a SameSite=Strict cookie is not sent. An unguessable one-time `state` alone is not enough
 * either: whoever starts a connect can send its consent link to someone else, whose grant would
 * then land in the starter's workspace. So the state is bound to the browser that started it
 * (RFC 6749 §10.12, https://datatracker.ietf.org/doc/html/rfc6749#section-10.12): the connect
 * request sets a short-lived HttpOnly, SameSite=Lax cookie (Lax is sent on the top-level redirect
 * back from Google; Strict would not be), readable only by the callback's path, holding a random
 * nonce whose hash is kept with the state. A callback without that cookie is refused before the
 * code is exchanged, and Google's code is exchanged with the PKCE verifier that never left the server.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AccountSummary } from "../auth/google/accounts.js";
import { connectedWords } from "../connections/google/configure.js";
import { isMartechError } from "../errors.js";
import { log } from "../log.js";
import type { Workspace } from "../workspace.js";
import { secure } from "./http-util.js";
import { PerWorkspace } from "./per-workspace.js";
import { type ConsoleSession, cookies, hash, portOf, random, type Sessions, sameSecret } from "./sessions.js";

export const CALLBACK_PATH = "/console/oauth/callback";
/** How long a started connect may wait for Google's redirect. */
const CONNECT_TTL_MS = 10 * 60 * 1000;
/** Connects one workspace may have waiting: a new one makes room by dropping its own oldest. */
const MAX_PENDING_PER_WORKSPACE = 50;
/** Connects all workspaces together may have waiting (memory): a new one is refused, none dropped. */
const MAX_PENDING = 1_000;

interface PendingConnect {
  sessionId: string;
  workspace: Workspace;
  /** The hash of the nonce in the starting browser's binding cookie. */
  bindingHash: string;
  finish(code: string): Promise<AccountSummary>;
  expiresAt: number;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

/** The callback's answer: a short page that sends the browser back to the console by a same-site navigation. */
function answer(res: ServerResponse, status: number, title: string, text: string, back: string): void {
  secure(res, "page");
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
  const refresh = status === 200 ? `<meta http-equiv="refresh" content="0; url=${escapeHtml(back)}">` : "";
  res.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8">${refresh}<title>${escapeHtml(title)}</title></head>` +
      `<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>` +
      `<p><a href="${escapeHtml(back)}">Back to the console</a></p></body></html>`,
  );
}

/**
 * The binding cookie of one connect. Its name carries the port (cookies are not scoped by port) and
 * a digest of the state, so two connects started in one browser do not overwrite each other's.
 */
function bindingCookieName(req: IncomingMessage, state: string): string {
  return `martech_connect_${portOf(req)}_${hash(state).slice(0, 16)}`;
}

function bindingCookie(name: string, value: string, maxAgeSeconds: number): string {
  return `${name}=${value}; Path=${CALLBACK_PATH}; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}`;
}

export class GoogleConnects {
  readonly #pending: PerWorkspace<PendingConnect>;
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
    this.#pending = new PerWorkspace(
      {
        perWorkspace: MAX_PENDING_PER_WORKSPACE,
        total: MAX_PENDING,
        what: "Google connects waiting for Google's answer",
        hint: "Try again in a few minutes, when unfinished connects have expired.",
      },
      now,
    );
  }

  /**
   * Starts a connect for a session: answers with the consent URL the page sends the browser to, and
   * sets the cookie that binds the attempt to this browser.
   */
  async begin(
    req: IncomingMessage,
    res: ServerResponse,
    session: ConsoleSession,
    workspace: Workspace,
    origin: string,
    label: string | undefined,
  ): Promise<{ url: string }> {
    const state = random();
    const nonce = random();
    const { url, finish } = await workspace.accounts.beginRedirectConnect({
      redirectUri: `${origin}${CALLBACK_PATH}`,
      state,
      ...(label ? { label } : {}),
    });
    this.#pending.add(workspace.name, state, {
      sessionId: session.id,
      workspace,
      bindingHash: hash(nonce),
      finish,
      expiresAt: this.#now() + CONNECT_TTL_MS,
    });
    res.setHeader("set-cookie", bindingCookie(bindingCookieName(req, state), nonce, CONNECT_TTL_MS / 1000));
    return { url };
  }

  /** GET /console/oauth/callback?state&code (or &error): exchanges the code, stores the account, goes back. */
  async callback(req: IncomingMessage, res: ServerResponse, url: URL, sessions: Sessions): Promise<void> {
    const state = url.searchParams.get("state") ?? "";
    const entry = this.#pending.use(state);
    const back = "/#/integrations";
    if (!entry) {
      answer(
        res,
        400,
        "Sign-in not recognised",
        "This sign-in is unknown or expired. Start it again from the console.",
        back,
      );
      return;
    }
    this.#pending.delete(state);
    const cookieName = bindingCookieName(req, state);
    const nonce = cookies(req).get(cookieName);
    res.setHeader("set-cookie", bindingCookie(cookieName, "", 0));
    if (nonce === undefined || !sameSecret(entry.bindingHash, hash(nonce))) {
      answer(
        res,
        400,
        "Sign-in refused",
        "This sign-in was not started in this browser, so nothing was stored. Start it again from the console here.",
        back,
      );
      return;
    }
    const session = sessions.fromRequest(req);
    if (session && session.id !== entry.sessionId) {
      answer(res, 400, "Sign-in refused", "This sign-in was started in another console session.", back);
      return;
    }
    const error = url.searchParams.get("error");
    const code = url.searchParams.get("code");
    if (error || !code) {
      const reason = error && /^[a-z_]{1,64}$/.test(error) ? error : "no authorization code";
      answer(
        res,
        400,
        "Account not connected",
        `Google did not grant access (${reason}). Nothing was stored.`,
        back,
      );
      return;
    }
    try {
      const account = await entry.finish(code);
      entry.workspace.accountsChanged();
      // The page words its notice from these, as the callback page does (connectedWords).
      const replaced = account.replaced
        ? `&replaced=${encodeURIComponent(account.email ?? account.label)}${
            account.renamedFrom ? `&was=${encodeURIComponent(account.renamedFrom)}` : ""
          }${account.labelRefused ? `&refused=${encodeURIComponent(account.labelRefused)}` : ""}`
        : "";
      answer(
        res,
        200,
        "Account connected",
        account.replaced
          ? connectedWords(account, "Connected")
          : `The Google account "${account.label}" is connected.`,
        `${back}?connected=${encodeURIComponent(account.label)}${replaced}`,
      );
    } catch (failure) {
      // A MartechError's message never holds a secret; anything else is only logged.
      if (!isMartechError(failure)) log.error({ err: failure }, "a Google connect from the console failed");
      const text = isMartechError(failure) ? failure.message : "The sign-in could not be completed.";
      answer(res, 400, "Account not connected", text, back);
    }
  }
}
