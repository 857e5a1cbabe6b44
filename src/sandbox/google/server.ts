/**
 * One node:http server for the three Google hosts the product talks to, each mounted under a path prefix
 * (/oauth, /admin, /data), so a single loopback port stands in for all of them.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { RpcError, readBody, sendJson, sendRpcError } from "./http.js";
import type { SubHandler } from "./types.js";

export interface MountedServer {
  server: Server;
  /** Origin, e.g. http://127.0.0.1:53123 */
  url: string;
  close(): Promise<void>;
}

function findMount(
  mounts: ReadonlyMap<string, SubHandler>,
  pathname: string,
): [SubHandler, string] | undefined {
  for (const [prefix, handler] of mounts) {
    if (pathname === prefix) return [handler, "/"];
    if (pathname.startsWith(`${prefix}/`)) return [handler, pathname.slice(prefix.length)];
  }
  return undefined;
}

async function dispatch(
  mounts: ReadonlyMap<string, SubHandler>,
  origin: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? "/", origin);
  const body = await readBody(req);
  const mount = findMount(mounts, url.pathname);
  if (!mount) {
    sendRpcError(
      res,
      new RpcError(
        404,
        "NOT_FOUND",
        `No sandbox API at ${url.pathname}: use the /oauth, /admin or /data prefix of this server.`,
      ),
    );
    return;
  }
  await mount[0](req, res, mount[1], url, body);
}

export async function startServer(
  mounts: ReadonlyMap<string, SubHandler>,
  host: string,
  port: number,
): Promise<MountedServer> {
  let origin = "";
  const server = createServer((req, res) => {
    dispatch(mounts, origin, req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error instanceof RpcError) {
        sendRpcError(res, error);
        return;
      }
      // A sandbox bug must surface as Google's own INTERNAL shape, not kill the process.
      sendJson(res, 500, {
        error: { code: 500, message: "Internal error encountered.", status: "INTERNAL" },
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostPart = address.family === "IPv6" ? `[${address.address}]` : address.address;
  origin = `http://${hostPart}:${address.port}`;
  return {
    server,
    url: origin,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive sockets of fetch clients would otherwise hold close() open for seconds.
        server.closeAllConnections();
      }),
  };
}
