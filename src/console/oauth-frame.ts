/**
 * The console's frame for its server-rendered pages of the embedded authorization server (the consent page,
 * oauth-consent.ts; the error page, oauth-error.ts): the console's stylesheets and header, the content as a card.
 */

/** Text as HTML: every page here quotes what a request or a client sent (names, addresses, error text). */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] as string,
  );
}

/** How the pages look: the console's stylesheets and its header, with the workspace when one is logged in. */
export interface PageLook {
  stylesheets: readonly string[];
  workspace?: string | undefined;
}

/** A page in the console's frame: its header (the name, the workspace), then the content as a card. */
export function framed(body: string, look: PageLook): { head: string; body: string } {
  const links = look.stylesheets.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`).join("");
  const workspace = look.workspace
    ? `<span class="workspace">Workspace <b>${escapeHtml(look.workspace)}</b></span>`
    : "";
  return {
    head: `<meta name="viewport" content="width=device-width, initial-scale=1">${links}`,
    body: `<div class="app"><header><strong>martech-steps</strong>${workspace}</header><main class="consent"><section class="card">${body}</section></main></div>`,
  };
}
