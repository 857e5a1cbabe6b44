/**
 * Routing on hono over the server's own node:http. A route's handlers get the Node request and response
 * (`c.env.incoming`, `c.env.outgoing`) and answer on them, as the SDK's Node adapter and the console's
 * streaming answers need (headers flushed at once, a body cancelled when the client goes away); hono
 * matches the method and path and runs the checks and handlers in order.
 *
 * Why not @hono/node-server's listener: it answers a Host header it cannot parse with a bare 400 before any
 * handler runs (ours must answer 403 naming the setting to change), replaces the global Request and
 * Response, and converts every body to a web stream, which /mcp then converts again (the SDK's
 * `toWebRequest`). hono itself needs only the method and the path, so the request it routes carries no body.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { type Context, Hono } from "hono";

export interface NodeBindings {
  incoming: IncomingMessage;
  outgoing: ServerResponse;
  /** The request's URL (the path as sent, not percent-decoded: a route decodes its own parts). */
  url: URL;
  /** Set when no route of the app answered: the caller tries its next handler. */
  unrouted?: boolean;
}

export type NodeEnv<Variables extends object = object> = { Bindings: NodeBindings; Variables: Variables };
export type NodeApp<Variables extends object = object> = Hono<NodeEnv<Variables>>;
export type NodeContext<Variables extends object = object> = Context<NodeEnv<Variables>>;

/**
 * A hono app whose routes see the raw path (hono would percent-decode it first, so `/%6Dcp` would reach
 * `/mcp` and a malformed escape in a path part could not be refused as the client's mistake).
 */
export function nodeApp<Variables extends object = object>(): NodeApp<Variables> {
  const app = new Hono<NodeEnv<Variables>>({
    getPath: (_request, options) => options?.env?.url.pathname ?? "/",
  });
  app.notFound((c) => {
    c.env.unrouted = true;
    return c.body(null, 404);
  });
  return app;
}

/** What a handler returns once it has answered on `c.env.outgoing` (hono needs a Response to finish). */
export function answered<Variables extends object>(c: NodeContext<Variables>): Response {
  return c.body(null);
}

/** The methods `new Request` refuses (CONNECT, TRACE, TRACK) are routed under a name no route registers. */
function routable(method: string | undefined): string {
  const name = method ?? "GET";
  return /^(CONNECT|TRACE|TRACK)$/i.test(name) ? "UNROUTABLE" : name;
}

/**
 * Runs a request through an app: true when one of its routes answered it, false when none matched (the
 * response is untouched). A route that returns a web Response instead of answering on Node's is sent as is.
 */
export async function dispatch<Variables extends object>(
  app: NodeApp<Variables>,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  url: URL,
): Promise<boolean> {
  const bindings: NodeBindings = { incoming, outgoing, url };
  const response = await app.fetch(new Request(url, { method: routable(incoming.method) }), bindings);
  if (bindings.unrouted) return false;
  if (!outgoing.headersSent) await send(outgoing, response);
  return true;
}

/** Writes a whole web Response on a Node response. */
export async function send(res: ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(await response.text());
}
