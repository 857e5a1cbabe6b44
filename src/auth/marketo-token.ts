import { AuthenticationError, NetworkError, UpstreamError } from "../errors.js";
import { Redactor } from "../redact.js";
import type { SharedState } from "../state/types.js";
import { telemetry } from "../telemetry.js";
import { SharedToken } from "./shared-token.js";
import { type FetchedToken, TokenManager } from "./token-manager.js";

export interface MarketoTokenOptions {
  /** The instance origin, e.g. https://123-abc-456.mktorest.com (no /rest). */
  origin: URL;
  clientId: string;
  clientSecret: string;
  fetch?: typeof fetch;
  /** Per token request. Default 30,000 ms. */
  timeoutMs?: number;
  /** Learns the client id and secret and every token issued (the connector shares it). Default: a new one. */
  redactor?: Redactor;
  /** Default 60,000 ms (see TokenManager). */
  refreshAheadMs?: number;
  now?: () => number;
  /** Shares the token with every process on this state (Redis for replicas): one token request for all. */
  shared?: SharedState;
}

const CREDENTIALS_HINT =
  "Check the Client ID and Client Secret of the LaunchPoint custom service (Marketo Admin > Integration > " +
  "LaunchPoint > View Details) and that its API-only user is still active.";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Upstream text for a message: redacted first, then shortened (a cut-off echo would escape redaction). */
function shown(redactor: Redactor, value: unknown): string {
  return typeof value === "string" ? redactor.text(value).slice(0, 200) : "";
}

/**
 * One client-credentials token request. The credentials travel in a POST form body, never in the
 * URL: Marketo documents them as query parameters
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/authentication) but the
 * identity endpoint accepts the same fields as a form body, and a URL ends up in logs and errors.
 */
export async function requestMarketoToken(options: MarketoTokenOptions): Promise<FetchedToken> {
  const fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const redactor = (options.redactor ?? new Redactor()).add(options.clientId, options.clientSecret);
  const url = new URL("/identity/oauth/token", options.origin);
  const body = new URLSearchParams({
    grant_type: "client_credentials",
    client_id: options.clientId,
    client_secret: options.clientSecret,
  });
  const timeoutMs = options.timeoutMs ?? 30_000;
  const timeout = AbortSignal.timeout(timeoutMs);
  let response: Response;
  let text: string;
  try {
    response = await fetchImpl(url, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
      body: body.toString(),
      redirect: "manual",
      signal: timeout,
    });
    text = await response.text();
  } catch (error) {
    throw new NetworkError(
      timeout.aborted
        ? `The Marketo identity service at ${url.host} did not answer within ${Math.round(timeoutMs / 100) / 10} s.`
        : `Could not reach the Marketo identity service at ${url.host}.`,
      {
        hint: "Check the REST endpoint host and this server's network access to it, then retry.",
        cause: error,
        retryable: true,
      },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  // The token is registered before any text of the answer is shown: a broken endpoint may echo it.
  if (isRecord(json) && typeof json.access_token === "string") redactor.add(json.access_token);
  const oauthError = isRecord(json) ? shown(redactor, json.error) : "";
  if (response.status === 401 || oauthError === "invalid_client" || oauthError === "unauthorized") {
    const description = isRecord(json) ? shown(redactor, json.error_description) : "";
    throw new AuthenticationError(
      `Marketo refused the client credentials (${oauthError || `HTTP ${response.status}`}${description ? `: ${description}` : ""}).`,
      { hint: CREDENTIALS_HINT, details: { status: response.status } },
    );
  }
  if (response.status !== 200 || !isRecord(json) || typeof json.access_token !== "string") {
    const redirect = response.status >= 300 && response.status < 400;
    throw new UpstreamError(
      redirect
        ? `The Marketo identity service answered with a redirect (HTTP ${response.status}), which is not followed.`
        : `The Marketo identity service answered HTTP ${response.status} without an access token.`,
      {
        hint: redirect
          ? "Use the instance's own REST endpoint host (https://<munchkin-id>.mktorest.com)."
          : "Retry shortly; if it persists, check the REST endpoint and Marketo's status page.",
        status: response.status,
        retryable: response.status >= 500,
      },
    );
  }
  const expiresIn = typeof json.expires_in === "number" ? json.expires_in : Number(json.expires_in ?? 0);
  telemetry.tokenFetched("marketo");
  return { accessToken: json.access_token, expiresIn: Number.isFinite(expiresIn) ? expiresIn : 0 };
}

/** A TokenManager (single flight, refresh ahead, failures never cached) over Marketo's identity endpoint. */
export function createMarketoTokenManager(options: MarketoTokenOptions): TokenManager {
  const request = () => requestMarketoToken(options);
  const shared = options.shared
    ? new SharedToken({
        state: options.shared,
        scope: `marketo:${options.origin.host.toLowerCase()}`,
        clientId: options.clientId,
        clientSecret: options.clientSecret,
        fetchToken: request,
        lockMs: (options.timeoutMs ?? 30_000) + 5_000,
        ...(options.now ? { now: options.now } : {}),
      })
    : undefined;
  return new TokenManager({
    fetchToken: shared ? () => shared.fetch() : request,
    ...(shared ? { onInvalidate: (token: string) => shared.forget(token) } : {}),
    ...(options.refreshAheadMs !== undefined ? { refreshAheadMs: options.refreshAheadMs } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
}
