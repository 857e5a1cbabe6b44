import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The name the test's HTTPS server answers to (resolved to 127.0.0.1 by the test's own lookup, never DNS). */
export const DOCUMENT_HOST = "cimd.test";

/**
 * A local HTTPS server standing for the host of a Client ID Metadata Document, with a self-signed
 * certificate made for the test (openssl, in a temporary folder removed at once) naming DOCUMENT_HOST and
 * 127.0.0.1. Each path answers as the test routes it; every request and connection is counted.
 */
export interface DocumentServer {
  /** https://cimd.test:<port> */
  origin: string;
  port: number;
  /** The certificate (PEM), the only one the authorization server's test allowance trusts. */
  ca: string;
  /** Paths requested, in order. */
  requests: string[];
  /** TLS connections accepted. */
  connections: number;
  route(path: string, answer: (req: IncomingMessage, res: ServerResponse) => void): void;
  /** A JSON document at `path`, with these headers. */
  document(path: string, body: unknown, headers?: Record<string, string>): void;
  close(): Promise<void>;
}

function certificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), "martech-cimd-"));
  try {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-days",
        "1",
      ].concat([
        "-keyout",
        join(dir, "k.pem"),
        "-out",
        join(dir, "c.pem"),
        "-subj",
        `/CN=${DOCUMENT_HOST}`,
        "-addext",
        `subjectAltName=DNS:${DOCUMENT_HOST},IP:127.0.0.1`,
      ]),
      { stdio: "ignore" },
    );
    return { key: readFileSync(join(dir, "k.pem"), "utf8"), cert: readFileSync(join(dir, "c.pem"), "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startDocumentServer(): Promise<DocumentServer> {
  const tls = certificate();
  const routes = new Map<string, (req: IncomingMessage, res: ServerResponse) => void>();
  const sockets = new Set<Socket>();
  const server: Server = createServer(tls, (req, res) => {
    const path = new URL(req.url ?? "/", "https://x").pathname;
    documents.requests.push(path);
    const answer = routes.get(path);
    if (answer) answer(req, res);
    else res.writeHead(404).end();
  });
  server.on("secureConnection", (socket) => {
    documents.connections += 1;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.on("tlsClientError", () => undefined);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const documents: DocumentServer = {
    origin: `https://${DOCUMENT_HOST}:${port}`,
    port,
    ca: tls.cert,
    requests: [],
    connections: 0,
    route: (path, answer) => routes.set(path, answer),
    document(path, body, headers = {}) {
      routes.set(path, (_req, res) => {
        res.writeHead(200, { "content-type": "application/json", ...headers });
        res.end(typeof body === "string" ? body : JSON.stringify(body));
      });
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return documents;
}

/** A lookup for the authorization server's guarded fetch: DOCUMENT_HOST is 127.0.0.1, nothing else resolves. */
export async function documentLookup(hostname: string): Promise<{ address: string; family: number }[]> {
  if (hostname === DOCUMENT_HOST) return [{ address: "127.0.0.1", family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
}

/** A Client ID Metadata Document for `clientId` as an MCP client publishes it; `extra` adds or replaces. */
export function clientDocument(
  clientId: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    client_id: clientId,
    client_name: "Test Agent <b>",
    redirect_uris: ["http://127.0.0.1:9/callback"],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    ...extra,
  };
}
