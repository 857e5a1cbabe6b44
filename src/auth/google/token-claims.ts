/**
 * What a token response says about the account: the granted scopes and the id_token's email. Both are
 * upstream text that becomes the stored account and the summary `accounts import` / `accounts connect`
 * print, so each is checked for its shape and against what was sent (a broken or hostile token endpoint
 * could echo the refresh token or the client secret into them); anything else is dropped.
 */
import type { Redactor } from "../../redact.js";

/**
 * A scope Google grants: an https URL (https://www.googleapis.com/auth/analytics.readonly) or a word
 * (openid, email, profile). RFC 6749 §3.3 allows more, but nothing else is a Google scope.
 */
const SCOPE = /^(?:https:\/\/[a-z0-9.-]+(?:\/[A-Za-z0-9._~-]+)*|[a-z][a-z0-9._-]{0,63})$/;

/** An address as Google reports it: a local part of printable characters, a dotted host name. */
const EMAIL =
  /^[^\s@"<>()[\]\\,;:]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** The space-separated `scope` of a token response (RFC 6749 §5.1), keeping only well-formed scopes. */
export function scopesOf(scope: string | undefined, redactor: Redactor): string[] | undefined {
  if (scope === undefined) return undefined;
  return scope.split(" ").filter((s) => SCOPE.test(s) && !redactor.leaks(s));
}

/**
 * The email claim of an id_token. The signature is not checked: the token came straight from
 * Google's token endpoint over TLS, which OpenID Connect Core §3.1.3.7 (6) accepts in place of
 * signature validation, and the email is only a display name for the account.
 */
export function emailOf(idToken: string | undefined, redactor: Redactor): string | undefined {
  const payload = idToken?.split(".")[1];
  if (!payload) return undefined;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
  if (claims === null || typeof claims !== "object") return undefined;
  const email = (claims as Record<string, unknown>).email;
  if (typeof email !== "string" || email.length > 254 || !EMAIL.test(email)) return undefined;
  return redactor.leaks(email) ? undefined : email;
}
