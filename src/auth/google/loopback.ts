/**
 * The loopback redirect receiver of the installed-app flow (RFC 8252 §7.3, as gcloud does it): an
 * HTTP server on 127.0.0.1 at an ephemeral port receives Google's redirect with `code` and `state`,
 * answers a small page and closes. It listens on the IPv4 literal, not "localhost", so no other
 * interface or resolver can answer in its place (RFC 8252 §8.3).
 */
import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { AuthenticationError, CancelledError } from "../../errors.js";

export interface LoopbackOptions {
  /** The `state` sent in the authorization request; a redirect with another one is refused. */
  state: string;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Default 0: an ephemeral port, which Google accepts for Desktop clients. */
  port?: number | undefined;
}

export interface LoopbackReceiver {
  redirectUri: string;
  /** Resolves with the authorization code; rejects on refusal, state mismatch, timeout or abort. */
  code: Promise<string>;
  close(): Promise<void>;
}

const CALLBACK_PATH = "/";

function page(title: string, text: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body style="font-family:sans-serif;max-width:36em;margin:4em auto"><h1>${title}</h1><p>${text}</p></body></html>`;
}

function answer(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    connection: "close",
    // The page shows no input back, but forbid scripts and framing anyway.
    "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
  });
  res.end(html);
}

function sameState(expected: string, received: string | null): boolean {
  if (received === null) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(received);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Answers one request to the receiver; returns what the sign-in ends with (the code, or the error),
 * or undefined for a request that is not the redirect (the sign-in goes on waiting).
 */
function receiveRedirect(
  req: IncomingMessage,
  res: ServerResponse,
  state: string,
  done: boolean,
): string | Error | undefined {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  if (req.method !== "GET" || url.pathname !== CALLBACK_PATH || done) {
    answer(res, 404, page("Not found", "This address only receives the Google sign-in redirect."));
    return undefined;
  }
  const params = url.searchParams;
  const error = params.get("error");
  if (!sameState(state, params.get("state"))) {
    // A redirect without our state may be forged (CSRF, RFC 6749 §10.12): never exchange its code.
    answer(
      res,
      400,
      page("Sign-in refused", "This response does not belong to the sign-in that was started."),
    );
    return new AuthenticationError(
      "The Google sign-in response did not match this connect attempt (state mismatch).",
      {
        hint: "Run the connect command again and finish the sign-in in the browser it opens.",
      },
    );
  }
  if (error) {
    const reason = /^[a-z_]{1,64}$/.test(error) ? error : "unknown_error";
    answer(res, 400, page("Sign-in not completed", "Google did not grant access. You can close this tab."));
    return new AuthenticationError(`Google sign-in did not complete (${reason}).`, {
      hint: "Run the connect command again and allow the requested Google Analytics access.",
      details: { oauthError: reason },
    });
  }
  const received = params.get("code");
  if (!received) {
    answer(res, 400, page("Sign-in not completed", "The redirect carried no authorization code."));
    return new AuthenticationError("Google's redirect carried no authorization code.", {
      hint: "Run the connect command again.",
    });
  }
  answer(res, 200, page("Account connected", "Google Analytics access was granted. You can close this tab."));
  return received;
}

export async function startLoopback(options: LoopbackOptions): Promise<LoopbackReceiver> {
  // Loaded here: a server that never signs anyone in (stdio serve) starts without node:http. Before the
  // abort check: an abort while it loads would otherwise come before the listener below and be missed.
  const { createServer } = await import("node:http");
  if (options.signal?.aborted) throw new CancelledError("The Google sign-in was cancelled.");
  let settle: { resolve: (code: string) => void; reject: (error: Error) => void } | undefined;
  const code = new Promise<string>((resolve, reject) => {
    settle = { resolve, reject };
  });
  let done = false;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const outcome = receiveRedirect(req, res, options.state, done);
    if (outcome !== undefined) finish(outcome);
  });

  const close = (): Promise<void> =>
    new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });

  const timer = setTimeout(() => {
    finish(
      new CancelledError(
        `The Google sign-in was not completed within ${Math.round(options.timeoutMs / 1000)} s.`,
        { hint: "Run the connect command again and finish the sign-in in the browser." },
      ),
    );
  }, options.timeoutMs);
  const onAbort = (): void => finish(new CancelledError("The Google sign-in was cancelled."));
  options.signal?.addEventListener("abort", onAbort, { once: true });

  function finish(outcome: string | Error): void {
    if (done) return;
    done = true;
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
    // Let the answer page flush before the server goes away.
    setImmediate(() => void close());
    if (typeof outcome === "string") settle?.resolve(outcome);
    else settle?.reject(outcome);
  }

  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 0, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (cause) {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
    throw new AuthenticationError("Could not listen on 127.0.0.1 for the Google sign-in redirect.", {
      hint: "Choose another port (or 0 for any free port) and try again.",
      cause,
    });
  }
  const { port } = server.address() as AddressInfo;
  return {
    redirectUri: `http://127.0.0.1:${port}${CALLBACK_PATH}`,
    code,
    close: async () => {
      finish(new CancelledError("The Google sign-in was cancelled."));
      await close();
    },
  };
}
