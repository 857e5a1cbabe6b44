import { EndpointNotAllowedError } from "../errors.js";

/**
 * Checks a caller-supplied endpoint before it is joined to a connector's base URL, so that it can
 * never change the host, scheme, port or API of the request.
 *
 * The raw string is validated first because Node's WHATWG URL parser rewrites dangerous input
 * silently: `//evil.com`, `\\evil.com`, `/\evil.com` and `http:evil.com` become other hosts,
 * `%2e%2e` becomes `..`, and CR/LF/TAB are stripped (https://url.spec.whatwg.org/#concept-basic-url-parser).
 * Then the URL is built and its origin and path prefix are asserted again.
 */
export interface EndpointRules {
  /** Input field name for error messages, e.g. "endpoint". */
  field: string;
  /** Allowed path prefixes, each with a leading and trailing slash: ["/rest/", "/bulk/"]. */
  allowedPrefixes: readonly string[];
  /** Human description of what is accepted, e.g. "a path beginning with /rest/". */
  accepted: string;
}

// Control characters (C0, DEL, C1) and characters a URL parser treats as separators or host markers.
// biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const ENCODED_DANGER = /%(2e|2f|5c|00|0a|0d|09|40|3a|25)/i;

export function checkEndpoint(raw: unknown, rules: EndpointRules): string {
  const refuse = (why: string): never => {
    throw new EndpointNotAllowedError(rules.field, `${why}. Accepted: ${rules.accepted}.`, {
      details: { accepted: rules.accepted },
    });
  };
  if (typeof raw !== "string" || raw.length === 0) return refuse("it must be a non-empty string");
  if (raw.length > 2048) return refuse("it is longer than 2048 characters");
  if (CONTROL.test(raw)) return refuse("it contains a control character");
  if (/\s/.test(raw)) return refuse("it contains white space");
  if (raw.includes("\\")) return refuse("it contains a backslash");
  if (raw.startsWith("//")) return refuse("it starts with // (a protocol-relative URL names another host)");
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw)) return refuse("it is an absolute URL; give only the path");
  if (raw.includes("@")) return refuse("it contains @");
  // Servlet containers strip ";params" from a segment before resolving dots, so "/rest/..;/x" can
  // climb out of the API there; no Marketo or GA4 path uses ";".
  if (raw.includes(";")) return refuse("it contains ;");
  if (raw.includes("#")) return refuse("it contains a fragment (#)");
  if (ENCODED_DANGER.test(raw)) return refuse("it contains a percent-encoded dot, slash, colon, @ or %");
  if (raw.includes("?")) return refuse("it contains a query string; pass query parameters separately");
  if (!raw.startsWith("/")) return refuse("it must start with /");
  const segments = raw.split("/");
  if (segments.some((s) => s === "." || s === "..")) return refuse("it contains a . or .. segment");
  if (segments.slice(1, -1).some((s) => s === "")) return refuse("it contains an empty segment (//)");
  if (segments[1]?.includes(":")) return refuse("its first segment contains a colon");
  if (!rules.allowedPrefixes.some((p) => raw.startsWith(p)))
    return refuse("it is outside the allowed API paths");
  return raw;
}

/**
 * Joins a checked path to a base URL and asserts that the result stays on the base's origin and
 * under an allowed prefix. `base` is an origin plus optional path (no trailing slash needed).
 */
export function joinEndpoint(base: URL, checkedPath: string, rules: EndpointRules): URL {
  const basePath = base.pathname.replace(/\/+$/, "");
  const url = new URL(base.origin);
  url.pathname = `${basePath}${checkedPath}`;
  const relative = url.pathname.slice(basePath.length);
  if (url.origin !== base.origin || !rules.allowedPrefixes.some((p) => relative.startsWith(p))) {
    throw new EndpointNotAllowedError(
      rules.field,
      `it resolves outside the API. Accepted: ${rules.accepted}.`,
    );
  }
  return url;
}
