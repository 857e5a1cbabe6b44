/**
 * The consent screen of the embedded authorization server (src/web/oauth/embedded.ts): a server-rendered
 * page at /oauth/interaction/<id> where the person logged in to the console approves or declines an MCP
 * client. It names the client, where the client receives the code, the workspace and the scopes. The
 * approval is a change, so it takes the console's checks: the session's cookie, a same-origin POST (Origin)
 * and the session's CSRF token (here a form field, since the page runs no script under its CSP).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { servicesPhrase } from "../connections/registry.js";
import type { ConsentPage, Interactions, PendingConsent } from "../web/oauth/embedded.js";
import { READ_SCOPE, WRITE_SCOPE } from "../web/oauth/scopes.js";
import { crossOrigin, sameOrigin, secure } from "./http-util.js";
import { errorPage } from "./oauth-error.js";
import { escapeHtml, framed, type PageLook } from "./oauth-frame.js";
import { type ConsoleSession, type Sessions, sameSecret } from "./sessions.js";

const SCOPE_WORDS: Record<string, string> = {
  [READ_SCOPE]: "run the steps that only read (reports, GET calls)",
  [WRITE_SCOPE]: `run every step, including those that change ${servicesPhrase("or")}`,
};

const MAX_FORM_BYTES = 4 * 1024;

/**
 * The page's CSP: the console's rules (no script, nothing from elsewhere; its own stylesheet) with
 * form-action naming the client's redirect too: browsers apply form-action to the redirects that follow the
 * POST, and the flow ends at the client's redirect URI.
 */
function csp(redirectUri: string): string {
  let target = "";
  try {
    const url = new URL(redirectUri);
    target = /^https?:$/.test(url.protocol) ? url.origin : url.protocol;
  } catch {
    target = "";
  }
  return `default-src 'none'; style-src 'self'; form-action 'self' ${target}; frame-ancestors 'none'; base-uri 'none'`.replace(
    /[^\x20-\x7e]/g,
    "",
  );
}

function sendPage(
  res: ServerResponse,
  status: number,
  content: string,
  look: PageLook,
  redirectUri = "",
  extraHead = "",
): void {
  const { head, body } = framed(content, look);
  secure(res, "page");
  // A form POST from a page under no-referrer carries `Origin: null` (Fetch, "serialize a request origin":
  // https://fetch.spec.whatwg.org/#serializing-a-request-origin), which the Origin check must refuse: a real
  // browser could never approve. same-origin sends the page's own origin to itself, and nothing elsewhere.
  res.setHeader("referrer-policy", "same-origin");
  res.setHeader("content-security-policy", csp(redirectUri));
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
  res.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8">${head}${extraHead}<title>martech-steps: sign in an MCP client</title></head><body>${body}</body></html>`,
  );
}

/**
 * A hosted MCP client (a web page of another site) starts the flow with a navigation; it and the
 * redirects after it arrive cross-site (Sec-Fetch-Site: cross-site, https://www.w3.org/TR/fetch-metadata/),
 * so the console's SameSite=Strict cookie is not sent and the page cannot tell who is logged in. The page
 * opens itself again from its own origin (a same-origin navigation, which carries that cookie); it shows
 * nothing of the request, and changes nothing.
 */
const REOPEN_HEAD = '<meta http-equiv="refresh" content="0">';
const REOPEN =
  '<h1>Continuing the sign-in</h1><p>If this page does not go on by itself, <a href="">continue</a>.</p>';

/**
 * Where the code goes, in the words a person can check (the MCP authorization specification: the server
 * "MUST clearly display the redirect URI hostname during authorization" and "SHOULD display additional
 * warnings for localhost-only redirect URIs",
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization/security-considerations#localhost-redirect-uri-risks):
 * the parsed host first and large, the raw URI after it.
 */
function destinationHtml(pending: PendingConsent): string {
  const host = escapeHtml(pending.redirectHost);
  const where = pending.redirectLoopback
    ? `<p>That is a program on the computer this browser runs on (<code>${host}</code>). Allow only if you have just started this sign-in from an MCP client on this computer: any program here could have asked.</p>`
    : `<p>That is the server <strong>${host}</strong>. Allow only if you trust it with this workspace.</p>`;
  const who = pending.clientIdHost
    ? `<p>The client is described by a document that <strong>${escapeHtml(pending.clientIdHost)}</strong> publishes (client id <code>${escapeHtml(pending.clientId)}</code>).</p>`
    : `<p>The client registered itself with this server: its name is its own claim (client id <code>${escapeHtml(pending.clientId)}</code>).</p>`;
  return `<h2>Its access goes to ${host}</h2>${where}${who}`;
}

function consentHtml(pending: PendingConsent, session: ConsoleSession): string {
  const scopes = pending.scopes
    .map((scope) => `<li><code>${escapeHtml(scope)}</code>: ${escapeHtml(SCOPE_WORDS[scope] ?? scope)}</li>`)
    .join("");
  return [
    `<h1>Allow ${escapeHtml(pending.clientName)} to use martech-steps?</h1>`,
    `<p>The MCP client <strong>${escapeHtml(pending.clientName)}</strong> asks to use workspace`,
    ` <strong>${escapeHtml(session.workspace)}</strong>.</p>`,
    destinationHtml(pending),
    `<p>Its full redirect address: <code>${escapeHtml(pending.redirectUri)}</code>. It may:</p><ul>${scopes}</ul>`,
    `<form method="post"><input type="hidden" name="csrf" value="${escapeHtml(session.csrfToken)}">`,
    `<button type="submit" name="decision" value="approve">Allow</button> `,
    `<button type="submit" name="decision" value="deny">Decline</button></form>`,
  ].join("");
}

const LOGIN_FIRST =
  "<h1>Log in to the console first</h1><p>An MCP client asks to sign in to this martech-steps server. " +
  'Log in to the <a href="/">console</a> (with the login link the server printed, or your workspace\'s API key), ' +
  "then reload this page.</p>";

const EXPIRED =
  "<h1>This sign-in request is over</h1><p>It expired, was already answered, or the server restarted. " +
  "Start the sign-in again from your MCP client.</p>";

async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

/** The consent page over the console's sessions, with the console's stylesheets (StaticFiles.stylesheets). */
export function consentPage(sessions: Sessions, stylesheets: readonly string[] = []): ConsentPage {
  const page: ConsentPage = async (req, res, interactions) => {
    const look: PageLook = { stylesheets };
    const method = req.method ?? "GET";
    if (method !== "GET" && method !== "POST") {
      res.writeHead(405, { allow: "GET, POST" }).end();
      return;
    }
    if (crossOrigin(req)) {
      if (method === "GET" && req.headers["sec-fetch-mode"] === "navigate")
        return sendPage(res, 200, REOPEN, look, "", REOPEN_HEAD);
      return sendPage(res, 403, "<h1>Forbidden</h1><p>This page answers its own origin only.</p>", look);
    }
    const session = sessions.fromRequest(req);
    if (!session) return sendPage(res, 401, LOGIN_FIRST, look);
    const mine = { ...look, workspace: session.workspace };
    const pending = await interactions.pending(req, res);
    if (!pending) return sendPage(res, 400, EXPIRED, mine);
    if (method === "GET") return sendPage(res, 200, consentHtml(pending, session), mine, pending.redirectUri);
    return decide(req, res, session, interactions, mine);
  };
  page.errorPage = errorPage(stylesheets);
  return page;
}

/** A POST of the form: from the page's origin, with the session's CSRF token; then approve or decline. */
async function decide(
  req: IncomingMessage,
  res: ServerResponse,
  session: ConsoleSession,
  interactions: Interactions,
  look: PageLook,
): Promise<void> {
  const form = await readForm(req);
  if (!sameOrigin(req) || !form || !sameSecret(session.csrfToken, form.get("csrf") ?? undefined))
    return sendPage(
      res,
      403,
      "<h1>Forbidden</h1><p>The approval did not come from this page (no valid CSRF token). Reload the page and answer again.</p>",
      look,
    );
  if (form.get("decision") !== "approve") return interactions.deny(req, res);
  const refused = await interactions.approve(req, res, session.workspace);
  if (!refused) return;
  // The server's store is full of live sign-ins (it never drops one to make room): nothing was approved.
  const wait = refused.retryAfterSeconds;
  if (wait !== undefined) res.setHeader("retry-after", String(Math.max(wait, 1)));
  sendPage(
    res,
    503,
    `<h1>Not approved: the server is full</h1><p>This server holds as many sign-ins as it may${wait !== undefined ? `; try again in ${Math.max(wait, 1)} s` : ""}. Nothing was approved; reload this page to answer again.</p>`,
    look,
  );
}
