/**
 * The page of a sign-in that cannot go on (oidc-provider's renderError, src/web/oauth/provider-config.ts):
 * an unknown client_id, a redirect_uri the client did not register, a request missing a parameter, an
 * expired sign-in, too many sign-ins from one address (the 429 of src/web/oauth/embedded.ts). In the console's frame (oauth-frame.ts), in words for the person who clicked a link in
 * their MCP client: what happened, what to do next. The OAuth code and its description follow as details,
 * escaped (the description may quote the request); under the consent page's CSP (no script, the console's
 * own stylesheet).
 */
import type { ErrorPage, SignInFailure } from "../web/oauth/embedded.js";
import { escapeHtml, framed, type PageLook } from "./oauth-frame.js";

const CSP =
  "default-src 'none'; style-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

const AGAIN = "Start the sign-in again from your MCP client.";

/** What happened, per OAuth error code (RFC 6749 section 4.1.2.1, RFC 7591 section 3.2.2), and what to do. */
const WORDS: Record<string, { title: string; text: string }> = {
  invalid_client: {
    title: "This server does not know the MCP client",
    text: `The client that opened this page is not registered here (this server forgets its clients when it restarts), or the address it is known by could not be read. ${AGAIN} It registers again by itself; if this page comes back, remove this server from the client and add it again.`,
  },
  invalid_redirect_uri: {
    title: "The client's return address is refused",
    text: `The address the client asked to receive the sign-in at (its redirect URI) is not one it registered, or is not allowed here (it must be https, or http on this computer). ${AGAIN} If this comes back, the client's settings need a correct redirect URI.`,
  },
  invalid_client_metadata: {
    title: "The client's registration is refused",
    text: `The client described itself in a way this server does not accept (see the details). ${AGAIN} If this comes back, the client needs an update or other settings.`,
  },
  access_denied: {
    title: "The sign-in was declined",
    text: `Nothing was granted to the client. To give it access after all, ${AGAIN.charAt(0).toLowerCase()}${AGAIN.slice(1)}`,
  },
  temporarily_unavailable: {
    title: "The server is busy",
    text: `This server holds as many sign-ins as it may. Wait a few minutes, then ${AGAIN.charAt(0).toLowerCase()}${AGAIN.slice(1)}`,
  },
  server_error: {
    title: "The server hit an internal error",
    text: `Nothing was granted. The server's log has the details. ${AGAIN}`,
  },
};

/** A 429 from the sign-in's request allowance (src/web/oauth/request-limit.ts): its own words, whatever the code. */
const TOO_MANY = {
  title: "Too many sign-ins from this address",
  text: `This server takes only so many sign-in requests from one address in a while. Wait the time the details give, then ${AGAIN.charAt(0).toLowerCase()}${AGAIN.slice(1)}`,
};

const OTHER = {
  title: "This sign-in cannot go on",
  text: `The sign-in request was incomplete, expired, or already answered (see the details). ${AGAIN}`,
};

function errorHtml(failure: SignInFailure): string {
  const words = failure.status === 429 ? TOO_MANY : (WORDS[failure.error] ?? OTHER);
  const detail = [failure.error, failure.description].filter(Boolean).join(": ");
  // In <code>: the console's sign-in pages wrap it anywhere, so a long quoted URI cannot widen the page.
  return [
    `<h1>${escapeHtml(words.title)}</h1>`,
    `<p>${escapeHtml(words.text)}</p>`,
    `<p>Details for whoever runs the server: <code>${escapeHtml(detail)}</code></p>`,
  ].join("");
}

/** The error page with the console's stylesheets (StaticFiles.stylesheets), as the consent page has them. */
export function errorPage(stylesheets: readonly string[]): ErrorPage {
  const look: PageLook = { stylesheets };
  return (failure) => {
    const { head, body } = framed(errorHtml(failure), look);
    return {
      csp: CSP,
      html: `<!doctype html><html lang="en"><head><meta charset="utf-8">${head}<title>martech-steps: sign-in failed</title></head><body>${body}</body></html>`,
    };
  };
}
