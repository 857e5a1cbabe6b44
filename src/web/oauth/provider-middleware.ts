/**
 * What the embedded authorization server adds around every answer of oidc-provider (a Koa middleware,
 * `provider.use`, which runs around its routes):
 * - `Cache-Control: no-store` on every answer that sets no cache policy of its own: the metadata and the
 *   key set change with each start (a new signing key), and nothing here is for a shared cache to keep;
 * - a Content-Security-Policy set before the route runs: `default-src 'none'` and an empty `script-src`,
 *   to which oidc-provider adds the hash of the one inline script of its `form_post` page (its
 *   `pushInlineSha`), with `form-action` naming the client's redirect origin, the page's only target;
 * - Retry-After on a 503 of a full store (memory-store.ts);
 * - RFC 7009 revocation of this server's JWT access tokens (revocation.ts), which oidc-provider refuses
 *   with `unsupported_token_type` once it has authenticated the client.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type Provider from "oidc-provider";
import type { KoaContextWithOIDC } from "oidc-provider";
import type { AccessTokenRevocation } from "./revocation.js";

type Middleware = Parameters<Provider["use"]>[0];

const BASE_CSP = "default-src 'none'; script-src; frame-ancestors 'none'; base-uri 'none'";

/** An answer read whole (the guarded fetch reads it whole anyway), to hand out as new Responses. */
interface ReadAnswer {
  status: number;
  headers: Headers;
  body: ArrayBuffer | null;
}

interface RequestNote {
  retryAfterMs?: number;
  /** URLs fetched while answering this request (a document that failed is not cached, but asked once). */
  fetched?: Map<string, Promise<ReadAnswer>>;
}

/** The request in progress's note: a full store's refusal leaves its retry time here for Retry-After. */
const notes = new AsyncLocalStorage<RequestNote>();

/** Called where a full store refuses an entry (provider-config.ts), inside the request that asked. */
export function noteRetryAfter(retryAfterMs: number | undefined): void {
  const note = notes.getStore();
  if (note && retryAfterMs !== undefined) note.retryAfterMs ??= retryAfterMs;
}

/**
 * One fetch of a URL per request: oidc-provider looks a client up twice when an authorization request
 * fails (its error handler looks again, to decide where to send the error), and a Client ID Metadata
 * Document that failed is never cached (the draft, section 5.2), so each look would fetch it again.
 * Each look gets a Response of its own (a cloned one would not end its read while its twin is unread).
 */
export async function fetchOncePerRequest(url: string, fetchIt: () => Promise<Response>): Promise<Response> {
  const note = notes.getStore();
  if (!note) return fetchIt();
  note.fetched ??= new Map();
  let answer = note.fetched.get(url);
  if (!answer) {
    answer = fetchIt().then(async (response) => ({
      status: response.status,
      headers: response.headers,
      body: response.body ? await response.arrayBuffer() : null,
    }));
    note.fetched.set(url, answer);
  }
  const { status, headers, body } = await answer;
  return new Response(body === null ? null : body.slice(0), { status, headers });
}

export function providerMiddleware(revocation: AccessTokenRevocation): Middleware {
  return async (ctx, next) => {
    ctx.set("content-security-policy", BASE_CSP);
    const note: RequestNote = {};
    try {
      await notes.run(note, next);
    } catch (error) {
      // An error after the route answered (the session saved at the end of it): a full store is a 503.
      if ((error as { status?: number }).status !== 503) throw error;
      ctx.status = 503;
      ctx.body = { error: "temporarily_unavailable", error_description: (error as Error).message };
    }
    await afterRoute(ctx as KoaContextWithOIDC, revocation, note);
  };
}

async function afterRoute(ctx: KoaContextWithOIDC, revocation: AccessTokenRevocation, note: RequestNote) {
  if (!ctx.response.get("cache-control")) ctx.set("cache-control", "no-store");
  if (ctx.status === 503 && note.retryAfterMs !== undefined)
    ctx.set("retry-after", String(Math.max(1, Math.ceil(note.retryAfterMs / 1000))));
  const oidc = "oidc" in ctx ? ctx.oidc : undefined;
  if (!oidc) return;
  const redirect = typeof oidc.params?.redirect_uri === "string" ? URL.parse(oidc.params.redirect_uri) : null;
  const csp = ctx.response.get("content-security-policy");
  if (ctx.response.is("html") && csp.includes("'sha256-") && redirect && /^https?:$/.test(redirect.protocol))
    ctx.set("content-security-policy", `${csp}; form-action ${redirect.origin}`);
  const body = ctx.body as { error?: unknown } | undefined;
  if (
    oidc.route === "revocation" &&
    ctx.status === 400 &&
    body?.error === "unsupported_token_type" &&
    oidc.client
  ) {
    await revocation.revoke(String(oidc.params?.token ?? ""), oidc.client.clientId);
    ctx.status = 200;
    ctx.body = "";
  }
}
