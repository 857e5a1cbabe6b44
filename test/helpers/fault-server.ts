import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer as createTlsServer } from "node:tls";

/** How the local fault server treats a connection. */
export type ServerFault = "reset-on-connect" | "reset-after-request" | "body-hang" | "5xx";

/**
 * A raw TCP server that misbehaves as `fault` says (a real HTTP server could not reset a connection at
 * a chosen moment), and a TLS server whose self-signed certificate no client trusts.
 */
export interface FaultServers {
  http: string;
  https: string;
  fault: ServerFault;
  /** Requests whose bytes reached the server. */
  received: number;
  close(): Promise<void>;
}

function serve(servers: FaultServers, socket: Socket): void {
  if (servers.fault === "reset-on-connect") {
    socket.resetAndDestroy();
    return;
  }
  socket.on("error", () => undefined);
  socket.once("data", () => {
    servers.received += 1;
    if (servers.fault === "reset-after-request") socket.resetAndDestroy();
    else if (servers.fault === "body-hang") {
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"res');
    } else {
      const body = "<html>Service Unavailable</html>";
      socket.end(
        `HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/html\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
      );
    }
  });
}

/** A throwaway self-signed certificate (openssl, in a temporary folder removed at once). */
function selfSigned(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), "martech-tls-"));
  try {
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"].concat([
        "-keyout",
        join(dir, "k.pem"),
        "-out",
        join(dir, "c.pem"),
        "-days",
        "1",
        "-subj",
        "/CN=127.0.0.1",
      ]),
      { stdio: "ignore" },
    );
    return { key: readFileSync(join(dir, "k.pem"), "utf8"), cert: readFileSync(join(dir, "c.pem"), "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as { port: number }).port;
}

export async function startFaultServers(): Promise<FaultServers> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  };
  const servers: FaultServers = {
    http: "",
    https: "",
    fault: "5xx",
    received: 0,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await Promise.all([plain, tls].map((s) => new Promise((resolve) => s.close(resolve))));
    },
  };
  const plain = createServer((socket) => {
    track(socket);
    serve(servers, socket);
  });
  const tls = createTlsServer(selfSigned(), (socket) => {
    track(socket);
    socket.on("data", () => {
      servers.received += 1;
    });
  });
  tls.on("tlsClientError", () => undefined);
  servers.http = `http://127.0.0.1:${await listen(plain)}`;
  servers.https = `https://127.0.0.1:${await listen(tls)}`;
  return servers;
}
