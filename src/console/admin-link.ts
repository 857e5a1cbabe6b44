/**
 * A fresh login link from a running server, without a restart: `martech-steps console-link` asks for
 * one at POST /console/admin/login-link. Only a process of this machine that can read the server's
 * admin token gets one: the token is written by `start` to a file only its user can read
 * (src/cli/console-link.ts), the request must come over loopback, carry the token as a bearer, and
 * must not come from a web page (no Origin, no Fetch Metadata): a page cannot read the file, and the
 * server's Host check already refuses a rebound name. Servers off loopback have no login links, so no
 * such route.
 */
import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";
import { checkWorkspaceName } from "../auth/store-core.js";
import { answered } from "../web/node-bridge.js";
import type { ConsoleApp, ConsoleContext, ConsoleDeps } from "./api-context.js";
import { refused } from "./api-context.js";
import { readJson, sendJson, stringField } from "./http-util.js";
import { sameSecret } from "./sessions.js";

export const ADMIN_LINK_PATH = "/console/admin/login-link";

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 (::ffff:127.0.0.1). */
export function fromLoopback(req: IncomingMessage): boolean {
  const raw = req.socket.remoteAddress ?? "";
  const address = raw.startsWith("::ffff:") ? raw.slice(7) : raw;
  if (isIP(address) === 4) return address.startsWith("127.");
  return address === "::1";
}

const bearer = (req: IncomingMessage): string | undefined =>
  /^Bearer ([A-Za-z0-9_-]{20,200})$/.exec(req.headers.authorization ?? "")?.[1];

async function mint(c: ConsoleContext, deps: ConsoleDeps, adminToken: string): Promise<Response> {
  const req = c.env.incoming;
  if (req.headers.origin !== undefined || req.headers["sec-fetch-site"] !== undefined)
    return refused(c, 403, "forbidden", "Forbidden: login links are not given to web pages.");
  if (!fromLoopback(req))
    return refused(c, 403, "forbidden", "Forbidden: login links are only given on this machine (loopback).");
  if (!sameSecret(adminToken, bearer(req)))
    return refused(c, 401, "unauthorized", "The admin token is missing or wrong.");
  const body = await readJson(req, 4 * 1024);
  // A name no workspace can have would make a link whose session fails on every call: refuse it here.
  const workspace = checkWorkspaceName(stringField(body, "workspace", false) ?? "default");
  // The link names this server as the command reached it (the Host the server's own check accepted).
  const origin = new URL(`http://${req.headers.host ?? ""}`).origin;
  sendJson(c.env.outgoing, 200, { url: deps.loginLink(origin, workspace) });
  return answered(c);
}

/** The route, on a loopback console that was given an admin token. */
export function adminLinkRoute(app: ConsoleApp, deps: ConsoleDeps): void {
  const token = deps.adminToken;
  if (!deps.loopback || !token) return;
  app.post(ADMIN_LINK_PATH, (c) => mint(c, deps, token));
}
