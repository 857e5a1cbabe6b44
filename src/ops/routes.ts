import type { IncomingMessage, ServerResponse } from "node:http";
import { type AnyMartechError, isMartechError } from "../errors.js";
import { answered, dispatch, type NodeContext, nodeApp } from "../web/node-bridge.js";

/**
 * What readiness checks, as the server wires it: reading the credential store as a request would (key,
 * file or Redis) and, with REDIS_URL, a PING of the shared state (absent without Redis). Passed in, so
 * that this module knows neither the workspace nor the store (it sits beside the adapters, not above them).
 */
export interface ReadinessChecks {
  credentialStore: () => Promise<unknown>;
  redis?: () => Promise<unknown>;
}

export interface OpsOptions {
  /** What readiness checks: the credential store and the shared state the server's workspaces use. */
  dependencies: () => ReadinessChecks;
  /** Whether a request may read /metrics (the server's API-key check; always true without keys). */
  mayReadMetrics: (req: IncomingMessage) => boolean;
  /** A check that does not answer within this long has failed. Default 2 s. */
  checkTimeoutMs?: number;
  /**
   * Whether the server has mounted every route (its OAuth layer included). Until then /readyz is 503,
   * `"routes": "starting"`: a load balancer must not send clients to a server that would refuse them, or
   * worse, serve /mcp before its credential check is in place. Absent: always mounted.
   */
  mounted?: () => boolean;
}

export type OpsRoutes = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;

function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", ...headers });
  res.end(JSON.stringify(body));
}

/**
 * An error's kind, or the words a check put in `details.readiness` (a Redis Cluster's: "2 of 3 masters
 * answer, cluster_state fail"), which name no address, key or secret.
 */
function readinessWords(error: AnyMartechError): string {
  const words = (error.details as { readiness?: unknown }).readiness;
  return typeof words === "string" ? words : error.code;
}

/** "ok", or why a check failed as a fixed word (an error kind): never an error message, a URL or a key. */
async function check(run: () => Promise<unknown>, timeoutMs: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`failed: no answer within ${timeoutMs} ms`), timeoutMs);
  });
  try {
    return await Promise.race([
      run().then(
        () => "ok",
        (error: unknown) => `failed: ${isMartechError(error) ? readinessWords(error) : "error"}`,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The operations endpoints of the HTTP server: `/healthz` (the process answers), `/readyz` (every route
 * is mounted, the credential store can be read and, with REDIS_URL, Redis answers PING; 503 naming the
 * failed check otherwise) and `/metrics` (Prometheus text). They sit behind the server's Host check like every
 * other path. Health and readiness need no API key (load balancers probe without one, and they reveal
 * only up or down); /metrics needs one when the server has keys, as /mcp does. prom-client is loaded
 * here, when the HTTP server starts, never for stdio or the CLI.
 */
export async function createOpsRoutes(options: OpsOptions): Promise<OpsRoutes> {
  const { processMetrics } = await import("./metrics.js");
  const registry = processMetrics();
  const timeoutMs = options.checkTimeoutMs ?? 2_000;
  const app = nodeApp();
  app.get("/healthz", (c) => {
    json(c.env.outgoing, 200, { status: "alive" });
    return answered(c);
  });
  app.get("/readyz", async (c) => {
    const mounted = options.mounted?.() ?? true;
    const { status, body } = await readiness(options.dependencies(), timeoutMs, mounted);
    json(c.env.outgoing, status, body);
    return answered(c);
  });
  app.get("/metrics", async (c) => {
    if (!options.mayReadMetrics(c.env.incoming)) return unauthorized(c);
    const text = await registry.metrics();
    c.env.outgoing.writeHead(200, { "content-type": registry.contentType, "cache-control": "no-store" });
    c.env.outgoing.end(text);
    return answered(c);
  });
  // After the GET routes (HEAD is answered as GET): every other method on these paths.
  for (const path of ["/healthz", "/readyz", "/metrics"])
    app.all(path, (c) => {
      json(c.env.outgoing, 405, { error: "method_not_allowed", message: "Use GET." }, { allow: "GET, HEAD" });
      return answered(c);
    });
  return (req, res, url) => dispatch(app, req, res, url);
}

/** 200 "ready" when every route is mounted and every check answered, else 503 naming the failed one. */
async function readiness(checks: ReadinessChecks, timeoutMs: number, mounted: boolean) {
  const [credentialStore, redis] = await Promise.all([
    check(checks.credentialStore, timeoutMs),
    checks.redis ? check(checks.redis, timeoutMs) : Promise.resolve("not configured"),
  ]);
  const routes = mounted ? "ok" : "starting";
  const ready = mounted && credentialStore === "ok" && (redis === "ok" || redis === "not configured");
  return {
    status: ready ? 200 : 503,
    body: {
      status: ready ? "ready" : "not ready",
      checks: { routes, credential_store: credentialStore, redis },
    },
  };
}

function unauthorized(c: NodeContext): Response {
  json(
    c.env.outgoing,
    401,
    { error: "unauthorized", message: "Send Authorization: Bearer <an API key of this server>." },
    { "www-authenticate": 'Bearer realm="martech-steps"' },
  );
  return answered(c);
}
