import { request } from "node:http";

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The JSON-RPC message of the body (plain JSON, or the first `data:` line of an SSE body). */
  json(): { id?: unknown; result?: unknown; error?: { code: number; message: string } } | undefined;
}

export const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

/**
 * One raw HTTP exchange with chosen headers (fetch does not let a caller set Host). `keepOpen` resolves
 * at the response headers and leaves the body streaming (an SSE stream held open), with `abort`.
 */
export function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown; keepOpen?: boolean } = {},
): Promise<RawResponse & { abort(): void }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: options.method ?? "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...options.headers,
        },
      },
      (res) => {
        let text = "";
        const result = {
          status: res.statusCode ?? 0,
          headers: res.headers,
          get text() {
            return text;
          },
          json() {
            const line = text.split("\n").find((l) => l.startsWith("data:"));
            const payload = res.headers["content-type"]?.includes("event-stream") ? line?.slice(5) : text;
            return payload ? JSON.parse(payload) : undefined;
          },
          abort: () => req.destroy(),
        };
        res.on("data", (chunk) => {
          text += chunk;
        });
        if (options.keepOpen) resolve(result);
        else res.on("end", () => resolve(result));
        // A response cut off mid-body (its server killed) never ends: reject, or the caller waits forever.
        const cutOff = (error?: NodeJS.ErrnoException) => {
          if (options.keepOpen || res.complete) return;
          const why = `${error?.message ?? "closed"} (${error?.code ?? "ECONNRESET"})`;
          reject(new Error(`the response was cut off before its end: ${why}`));
        };
        res.on("error", cutOff);
        res.on("close", () => cutOff());
      },
    );
    req.on("error", (error) => (options.keepOpen ? undefined : reject(error)));
    req.end(options.body === undefined ? undefined : JSON.stringify(options.body));
  });
}
