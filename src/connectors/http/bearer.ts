import { raceAbort } from "../../deadline.js";

/** Where access tokens come from (Marketo's client-credentials manager, a Google account's refresh). */
export interface AccessTokenSource {
  getToken(): Promise<string>;
  /** Drops `token` after the service refused it, so the next getToken() fetches a new one. */
  invalidate(token: string): void;
}

/** The headers that authenticate one request, and the token in them (to invalidate when refused). */
export interface RequestAuth {
  headers: { authorization: string };
  token: string;
}

/**
 * The bearer header of a request, after google-auth-library's AuthClient.getRequestHeaders()
 * (https://cloud.google.com/nodejs/docs/reference/google-auth-library/latest/google-auth-library/authclient):
 * the connector asks for headers, never builds "Bearer" itself. Waiting for a token ends when `signal`
 * does (with `onAbort()`); the token request goes on for the other callers sharing it.
 */
export async function getRequestHeaders(
  source: AccessTokenSource,
  signal: AbortSignal,
  onAbort: () => unknown,
): Promise<RequestAuth> {
  const token = await raceAbort(source.getToken(), signal, onAbort);
  return { headers: { authorization: `Bearer ${token}` }, token };
}
