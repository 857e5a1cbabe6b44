import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** One request as it arrived on the wire: the raw target (never normalised) and the Host header. */
export interface Seen {
  method: string;
  /** The request target exactly as sent, e.g. "/rest/v1/leads.json?x=1". */
  target: string;
  /** The path part of the target, still encoded. */
  path: string;
  host: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * How to answer: a status with a JSON or text body, or a fault:
 * - reset: the connection is destroyed before any answer;
 * - reset-body: headers and half a body, then the connection is destroyed;
 * - hang: nothing is ever answered (until the server closes);
 * - hang-body: headers and half a body, then nothing more.
 */
export type Reply =
  | { status?: number; headers?: Record<string, string>; json?: unknown; text?: string }
  | { fault: "reset" | "reset-body" | "hang" | "hang-body" };

/** Returns the reply, or undefined to fall through to the next handler. */
export type Handler = (seen: Seen) => Reply | undefined;

/** A loopback HTTP server (port 0) that records every request and answers through its handlers. */
export class FakeServer {
  readonly seen: Seen[] = [];
  /** Tried first, in order; set by each test. */
  script: Handler[] = [];
  readonly #fallback: Handler;
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  #port = 0;

  private constructor(fallback: Handler) {
    this.#fallback = fallback;
    this.#server = createServer((req, res) => {
      this.#handle(req, res).catch(() => res.destroy());
    });
    this.#server.on("connection", (socket) => {
      this.#sockets.add(socket);
      socket.on("close", () => this.#sockets.delete(socket));
    });
  }

  static async start(fallback: Handler): Promise<FakeServer> {
    const fake = new FakeServer(fallback);
    await new Promise<void>((resolve) => fake.#server.listen(0, "127.0.0.1", resolve));
    fake.#port = (fake.#server.address() as AddressInfo).port;
    return fake;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  get host(): string {
    return `127.0.0.1:${this.#port}`;
  }

  /** Requests whose path starts with `prefix`. */
  to(prefix: string): Seen[] {
    return this.seen.filter((s) => s.path.startsWith(prefix));
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const target = req.url ?? "/";
    const seen: Seen = {
      method: req.method ?? "GET",
      target,
      path: target.split("?")[0] ?? target,
      host: req.headers.host ?? "",
      headers: Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]),
      ),
      body: Buffer.concat(chunks).toString("utf8"),
    };
    this.seen.push(seen);
    let reply: Reply | undefined;
    for (const handler of [...this.script, this.#fallback]) {
      reply = handler(seen);
      if (reply) break;
    }
    send(res, reply ?? { status: 404, json: { error: "no handler" } });
  }
}

function send(res: ServerResponse, reply: Reply): void {
  if ("fault" in reply) {
    if (reply.fault === "reset") {
      res.socket?.destroy();
      return;
    }
    if (reply.fault === "hang") return;
    res.writeHead(200, { "content-type": "application/json", "content-length": "200" });
    res.write('{"requestId":"half","success":true,"result":[');
    if (reply.fault === "reset-body") setTimeout(() => res.socket?.destroy(), 5);
    return;
  }
  const text = reply.json !== undefined ? JSON.stringify(reply.json) : (reply.text ?? "");
  res.writeHead(reply.status ?? 200, {
    "content-type": reply.json !== undefined ? "application/json;charset=UTF-8" : "text/plain",
    ...reply.headers,
  });
  res.end(text);
}

/**
 * Everything a request carried, echoed back the ways a broken service or proxy might: raw, percent-
 * encoded, form-encoded, base64 and JSON-escaped.
 */
export function echo(seen: Seen): string {
  const raw = `${seen.method} ${seen.target} authorization=${seen.headers.authorization ?? ""} body=${seen.body}`;
  return [
    raw,
    encodeURIComponent(raw),
    encodeURIComponent(raw).toLowerCase(),
    new URLSearchParams({ echo: raw }).toString(),
    Buffer.from(raw).toString("base64"),
    Buffer.from(raw).toString("base64url"),
    JSON.stringify(raw).replace(/\//g, "\\/"),
  ].join(" | ");
}
