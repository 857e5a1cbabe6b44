/**
 * The HTTP side of the sandbox: size limits, identity, authentication, instance limits, routing,
 * envelopes and statistics. One request = one of: HTTP 413/414, an identity response, or a Marketo
 * envelope (HTTP 200 even for errors, as the real service does).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { handleIdentity, type IdentityConfig } from "./access/identity.js";
import { CallLimiter, type LimitOptions } from "./access/limits.js";
import { bearerToken, TokenStore } from "./access/tokens.js";
import { chicagoDate } from "./access/usage.js";
import { isAssetPath, matchRoute } from "./routes/index.js";
import { type ApiRequest, type HandlerContext, MarketoApiError, RawReply, type World } from "./types.js";
import { makeRequestIdFactory } from "./wire/codec.js";
import {
  errorEnvelope,
  MAX_URI_BYTES,
  mediaType,
  readBody,
  sendHttpError,
  sendJson,
  successEnvelope,
} from "./wire/http-io.js";

const FORM = "application/x-www-form-urlencoded";
const MULTIPART = "multipart/form-data";

/**
 * The fields of a multipart/form-data body, a file part as its text, read by the platform's own parser
 * (undici's Response.formData). A body it cannot read has no fields: the handler then names what is missing.
 */
async function formParts(req: IncomingMessage, body: string): Promise<Map<string, string>> {
  const parts = new Map<string, string>();
  try {
    const form = await new Response(body, {
      headers: { "content-type": req.headers["content-type"] ?? "" },
    }).formData();
    for (const [name, value] of form) {
      if (!parts.has(name)) parts.set(name, typeof value === "string" ? value : await value.text());
    }
  } catch {
    parts.clear();
  }
  return parts;
}

export interface ServerConfig extends LimitOptions, IdentityConfig {
  tokenTtlSeconds: number;
  latencyMs: number;
  seed: number;
  now: () => number;
}

export interface SandboxStats {
  identityRequests: number;
  apiCalls: number;
  inFlight: number;
  maxInFlight: number;
  rejected: { "601": number; "602": number; "606": number; "607": number; "615": number };
  callsByPath: Record<string, number>;
}

function emptyStats(inFlight: number): SandboxStats {
  return {
    identityRequests: 0,
    apiCalls: 0,
    inFlight,
    maxInFlight: inFlight,
    rejected: { "601": 0, "602": 0, "606": 0, "607": 0, "615": 0 },
    callsByPath: {},
  };
}

export class SandboxServer {
  readonly server: Server;
  readonly tokens: TokenStore;
  private readonly limiter: CallLimiter;
  private readonly requestId: () => string;
  private stats = emptyStats(0);
  /** Chicago day → error code → count, for stats/errors.json. */
  private readonly errorsByDay = new Map<string, Map<string, number>>();
  origin = "";

  constructor(
    private readonly config: ServerConfig,
    readonly world: World,
  ) {
    this.tokens = new TokenStore(config.tokenTtlSeconds, config.now);
    this.limiter = new CallLimiter(config, config.now);
    this.requestId = makeRequestIdFactory(config.seed, config.now);
    this.server = createServer((req, res) => {
      this.handle(req, res).catch(() => {
        if (!res.headersSent) sendJson(res, 500, { error: "internal sandbox error" });
        else res.destroy();
      });
    });
  }

  snapshot(): SandboxStats {
    return {
      ...this.stats,
      rejected: { ...this.stats.rejected },
      callsByPath: { ...this.stats.callsByPath },
    };
  }

  resetStats(): void {
    this.stats = emptyStats(this.limiter.inFlight);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawUrl = req.url ?? "/";
    const { text: body, tooLarge } = await readBody(req);
    if (Buffer.byteLength(rawUrl) > MAX_URI_BYTES) return sendHttpError(res, 414, "Request-URI Too Long");
    if (tooLarge) return sendHttpError(res, 413, "Request Entity Too Large");
    const q = rawUrl.indexOf("?");
    // The raw path is used as is: never resolved against a base, so "//rest/..." stays an unknown path.
    const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
    const query = q === -1 ? "" : rawUrl.slice(q + 1);
    if (path === "/identity/oauth/token") {
      this.stats.identityRequests++;
      return handleIdentity(req, res, query, body, this.tokens, this.config);
    }
    await this.handleApi(req, res, path, query, body);
  }

  private async handleApi(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    query: string,
    body: string,
  ) {
    const stats = this.stats;
    stats.apiCalls++;
    stats.callsByPath[path] = (stats.callsByPath[path] ?? 0) + 1;
    const asset = isAssetPath(path);
    const requestId = this.requestId();
    const fail = (code: string, message: string) => {
      this.countError(code);
      sendJson(res, 200, errorEnvelope(asset, requestId, code, message));
    };

    const api = this.parseRequest(req, path, query, body);
    if (api.contentType === MULTIPART) api.parts = await formParts(req, body);
    const form = api.contentType === FORM ? new URLSearchParams(body) : undefined;
    // The access_token query/form parameter was removed on 2026-08-31 (ADE authentication.md);
    // the real response to it is undocumented, so it is answered like an invalid token.
    if (api.params.has("access_token") || form?.has("access_token")) {
      stats.rejected["601"]++;
      return fail("601", "Access token invalid");
    }
    const check = this.tokens.check(bearerToken(req.headers.authorization));
    if (!check.ok) {
      stats.rejected[check.code]++;
      return fail(check.code, check.message);
    }
    const refused = this.limiter.admit();
    if (refused) {
      stats.rejected[refused.code]++;
      return fail(refused.code, refused.message);
    }
    stats.inFlight = this.limiter.inFlight;
    stats.maxInFlight = Math.max(stats.maxInFlight, this.limiter.inFlight);
    try {
      if (this.config.latencyMs > 0) await sleep(this.config.latencyMs);
      const reply = this.dispatch(api, asset);
      if (reply instanceof RawReply) {
        res.writeHead(reply.status, { ...reply.headers, "Content-Length": reply.body.length });
        res.end(reply.body);
      } else sendJson(res, 200, successEnvelope(asset, requestId, reply));
    } catch (error) {
      if (error instanceof MarketoApiError) fail(error.code, error.message);
      else fail("611", "System error");
    } finally {
      this.limiter.release();
      this.stats.inFlight = this.limiter.inFlight;
    }
  }

  /**
   * Applies the method override. The long-URI workaround: a POST with `_method=GET` "in the URL, and the
   * rest of the query string in the body of the request" (ADE error-codes.md 414; leads.md "Query";
   * lead-database.md "_method=GET": `POST /rest/v1/opportunities.json?_method=GET` with an
   * x-www-form-urlencoded body) is that GET, its form fields the query; `_method=GET` in the form body
   * works the same way. A compound-key query sends `_method=GET` in the query with a JSON body
   * (lead-database.md "Compound Keys", custom-objects.md), which the GET's handler reads. A POST with
   * `_method=DELETE` in its query string is that DELETE with its JSON body (recorded as Delete Leads on
   * leads.json in GRP).
   */
  private parseRequest(req: IncomingMessage, path: string, query: string, body: string): ApiRequest {
    const contentType = mediaType(req);
    const params = new URLSearchParams(query);
    const range = typeof req.headers.range === "string" ? { range: req.headers.range } : {};
    if (req.method !== "POST")
      return { method: req.method ?? "GET", path, params, contentType, body, ...range };
    const form = contentType === FORM ? new URLSearchParams(body) : undefined;
    const override = (params.get("_method") ?? form?.get("_method"))?.toUpperCase();
    if (override === "GET" && form) {
      params.delete("_method");
      for (const [k, v] of form) if (k !== "_method") params.append(k, v);
      return { method: "GET", path, params, contentType, body: "", ...range };
    }
    if (params.has("_method") && (override === "GET" || override === "DELETE")) {
      params.delete("_method");
      return { method: override, path, params, contentType, body, ...range };
    }
    return { method: "POST", path, params, contentType, body, ...range };
  }

  private countError(code: string): void {
    const day = chicagoDate(this.config.now());
    const counts = this.errorsByDay.get(day) ?? new Map<string, number>();
    counts.set(code, (counts.get(code) ?? 0) + 1);
    this.errorsByDay.set(day, counts);
  }

  private dispatch(api: ApiRequest, asset: boolean): Record<string, unknown> | RawReply {
    const match = matchRoute(api.method, api.path);
    if (match.kind === "not-emulated") {
      // A real path (Adobe's Swagger) that the sandbox does not serve: say so, in Marketo's 610 shape.
      throw new MarketoApiError(
        "610",
        `Requested resource not found: ${match.operation} is a real Marketo endpoint that this sandbox does not emulate`,
      );
    }
    if (match.kind === "bad-parameter") {
      // 1001 "Invalid value '%s'. Required of type '%s'" (ADE error-codes.md), e.g. /rest/v1/lead/x.json.
      const parts = match.template.split("/");
      const value = api.path.split("/").find((_, i) => parts[i]?.includes("{")) ?? "";
      throw new MarketoApiError(
        "1001",
        `Invalid value '${value.replace(/\.json$/, "")}'. Required of type 'Integer'`,
      );
    }
    if (match.kind === "not-found") throw new MarketoApiError("610", "Requested resource not found");
    if (match.kind === "wrong-method")
      throw new MarketoApiError("605", `Request method '${api.method}' not supported`);
    if (api.method !== "GET" && api.body.trim() !== "") {
      // Lead DB write bodies are JSON; Asset write bodies are x-www-form-urlencoded (REAL-API.md A8.7);
      // bulk imports are multipart/form-data (Swagger `consumes`).
      const expected = match.route.consumes ?? (asset ? FORM : "application/json");
      if (api.contentType !== expected) throw new MarketoApiError("612", "Invalid Content Type");
    }
    return match.route.handler(api, this.context(), match.params);
  }

  private context(): HandlerContext {
    return {
      world: this.world,
      now: this.config.now,
      callsOn: (daysAgo) => this.limiter.callsOn(daysAgo),
      errorsOn: (daysAgo) =>
        this.errorsByDay.get(chicagoDate(this.config.now() - daysAgo * 86_400_000)) ?? new Map(),
      apiUserEmail: this.config.apiUserEmail,
      origin: this.origin,
    };
  }
}
