/**
 * The integrations page's Google card: the OAuth client (its secret write-only), the connected
 * accounts, and "Connect a Google account", the authorization code flow with PKCE whose redirect
 * comes back to the console's own origin (/console/oauth/callback).
 *
 * The callback cannot rely on the session cookie: it arrives as a navigation from Google's site, on
 * which a SameSite=Strict cookie is not sent. So the connect request binds an unguessable one-time
 * `state` to the session that asked for it; the callback finds the attempt by that state alone (and
 * refuses it when it does carry a cookie of another session), and Google's code is exchanged with
 * the PKCE verifier that never left the server.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { googleClientFrom, SCOPE_ANALYTICS, SCOPE_ANALYTICS_EDIT } from "../auth/google/config.js";
import { isMartechError } from "../errors.js";
import { log } from "../log.js";
import { CONNECTIONS } from "../manifest.js";
import type { Workspace } from "../workspace.js";
import { secretOrSaved, secure, stringField } from "./http-util.js";
import type { ConsoleSession, Sessions } from "./sessions.js";

export const CALLBACK_PATH = "/console/oauth/callback";
/** How long a started connect may wait for Google's redirect. */
const CONNECT_TTL_MS = 10 * 60 * 1000;
const MAX_PENDING = 50;

interface PendingConnect {
  sessionId: string;
  workspace: Workspace;
  finish(code: string): Promise<{ label: string }>;
  expiresAt: number;
}

/** What the page may know about the Google connection: never a secret or a token. */
export async function googleStatus(workspace: Workspace, env: NodeJS.ProcessEnv, sandbox: boolean) {
  const secrets = await workspace.store.read(workspace.name);
  const fromEnv = Boolean(env.GOOGLE_OAUTH_CLIENT_ID && env.GOOGLE_OAUTH_CLIENT_SECRET);
  const client = fromEnv ? googleClientFrom(env, secrets) : undefined;
  const saved = secrets.googleClient;
  const accounts = await workspace.accounts.list();
  return {
    fields: CONNECTIONS.google.fields,
    client: client
      ? { source: "environment", sandbox, clientId: client.clientId, secretSet: true }
      : saved
        ? {
            source: "store",
            sandbox: false,
            clientId: saved.clientId,
            secretSet: Boolean(saved.clientSecret),
          }
        : null,
    accounts: accounts.map((account) => ({
      ...account,
      // Reports need analytics.readonly only; creating key events and properties needs edit.
      readOnly: !account.scopes.includes(SCOPE_ANALYTICS_EDIT) && !account.scopes.includes(SCOPE_ANALYTICS),
    })),
  };
}

/** Saves the workspace's OAuth client; an empty secret keeps the saved one for the same Client ID. */
export async function saveGoogleClient(workspace: Workspace, body: Record<string, unknown>): Promise<void> {
  const clientId = stringField(body, "clientId", true) as string;
  const saved = (await workspace.store.read(workspace.name)).googleClient;
  const clientSecret = secretOrSaved(
    body,
    saved && {
      clientSecret: saved.clientSecret,
      bindings: [{ field: "clientId", label: "Client ID", sent: clientId, saved: saved.clientId }],
    },
    "client secret of this OAuth client",
    "Copy it from the Google Cloud console > APIs & Services > Credentials > (your Desktop app client).",
  );
  await workspace.store.update(workspace.name, (current) => ({
    ...current,
    googleClient: { clientId, clientSecret },
  }));
}

export async function removeGoogleClient(workspace: Workspace): Promise<void> {
  await workspace.store.update(workspace.name, (current) => ({ ...current, googleClient: undefined }));
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

export class GoogleConnects {
  readonly #pending = new Map<string, PendingConnect>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Starts a connect for a session: the consent URL the page sends the browser to. */
  async begin(session: ConsoleSession, workspace: Workspace, origin: string, label: string | undefined) {
    for (const [state, entry] of this.#pending)
      if (entry.expiresAt <= this.#now()) this.#pending.delete(state);
    if (this.#pending.size >= MAX_PENDING) this.#pending.delete(this.#pending.keys().next().value as string);
    const state = randomBytes(24).toString("base64url");
    const { url, finish } = await workspace.accounts.beginRedirectConnect({
      redirectUri: `${origin}${CALLBACK_PATH}`,
      state,
      ...(label ? { label } : {}),
    });
    this.#pending.set(state, {
      sessionId: session.id,
      workspace,
      finish,
      expiresAt: this.#now() + CONNECT_TTL_MS,
    });
    return { url };
  }

  /** GET /console/oauth/callback?state&code (or &error): exchanges the code, stores the account, goes back. */
  async callback(req: IncomingMessage, res: ServerResponse, url: URL, sessions: Sessions): Promise<void> {
    const state = url.searchParams.get("state") ?? "";
    const entry = this.#pending.get(state);
    const back = "/#/integrations";
    if (!entry || entry.expiresAt <= this.#now()) {
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
      answer(
        res,
        200,
        "Account connected",
        `The Google account "${account.label}" is connected.`,
        `${back}?connected=${encodeURIComponent(account.label)}`,
      );
    } catch (failure) {
      // A MartechError's message never holds a secret; anything else is only logged.
      if (!isMartechError(failure)) log.error({ err: failure }, "a Google connect from the console failed");
      const text = isMartechError(failure) ? failure.message : "The sign-in could not be completed.";
      answer(res, 400, "Account not connected", text, back);
    }
  }
}
