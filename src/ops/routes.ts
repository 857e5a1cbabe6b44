import type { IncomingMessage, ServerResponse } from "node:http";
import { credentialStoreReady } from "../auth/readiness.js";
import type { CredentialStore } from "../auth/store-core.js";
import { isMartechError } from "../errors.js";
import type { SharedState } from "../state/types.js";
import { DEFAULT_WORKSPACE } from "../workspace.js";

export interface OpsOptions {
  /** What readiness checks: the credential store and the shared state the server's workspaces use. */
  dependencies: () => { store: CredentialStore; state: SharedState };
  /** Whether a request may read /metrics (the server's API-key check; always true without keys). */
  mayReadMetrics: (req: IncomingMessage) => boolean;
  /** A check that does not answer within this long has failed. Default 2 s. */
  checkTimeoutMs?: number;
}

export type OpsRoutes = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;

const PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", ...headers });
  res.end(JSON.stringify(body));
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
        (error: unknown) => `failed: ${isMartechError(error) ? error.code : "error"}`,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The operations endpoints of the HTTP server: `/healthz` (the process answers), `/readyz` (the
 * credential store can be read and, with REDIS_URL, Redis answers PING; 503 naming the failed check
 * otherwise) and `/metrics` (Prometheus text). They sit behind the server's Host check like every
 * other path. Health and readiness need no API key (load balancers probe without one, and they reveal
 * only up or down); /metrics needs one when the server has keys, as /mcp does. prom-client is loaded
 * here, when the HTTP server starts, never for stdio or the CLI.
 */
export async function createOpsRoutes(options: OpsOptions): Promise<OpsRoutes> {
  const { processMetrics } = await import("./metrics.js");
  const registry = processMetrics();
  const timeoutMs = options.checkTimeoutMs ?? 2_000;
  return async (req, res, url) => {
    if (!PATHS.has(url.pathname)) return false;
    if (req.method !== "GET" && req.method !== "HEAD") {
      json(res, 405, { error: "method_not_allowed", message: "Use GET." }, { allow: "GET, HEAD" });
      return true;
    }
    if (url.pathname === "/healthz") {
      json(res, 200, { status: "alive" });
      return true;
    }
    if (url.pathname === "/readyz") {
      const { store, state } = options.dependencies();
      const [credentialStore, redis] = await Promise.all([
        // The default workspace's document: it opens the store as a request would (key, file or Redis).
        check(() => credentialStoreReady(store, DEFAULT_WORKSPACE), timeoutMs),
        state.backend === "redis" ? check(() => state.ping(), timeoutMs) : Promise.resolve("not configured"),
      ]);
      const ready = credentialStore === "ok" && (redis === "ok" || redis === "not configured");
      json(res, ready ? 200 : 503, {
        status: ready ? "ready" : "not ready",
        checks: { credential_store: credentialStore, redis },
      });
      return true;
    }
    if (!options.mayReadMetrics(req)) {
      json(
        res,
        401,
        { error: "unauthorized", message: "Send Authorization: Bearer <an API key of this server>." },
        { "www-authenticate": 'Bearer realm="martech-steps"' },
      );
      return true;
    }
    const text = await registry.metrics();
    res.writeHead(200, { "content-type": registry.contentType, "cache-control": "no-store" });
    res.end(text);
    return true;
  };
}
