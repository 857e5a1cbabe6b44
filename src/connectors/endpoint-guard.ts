import { EndpointNotAllowedError } from "../errors.js";

/**
 * Checks a caller-supplied endpoint before it is joined to a connector's base URL, so that it can
 * never change the host, scheme, port or API of the request.
 *
 * The raw string is validated first because Node's WHATWG URL parser rewrites dangerous input
 * silently: `//evil.com`, `\\evil.com`, `/\evil.com` and `http:evil.com` become other hosts,
 * `%2e%2e` becomes `..`, and CR/LF/TAB are stripped (https://url.spec.whatwg.org/#concept-basic-url-parser).
 * Then the URL is built and its origin and path prefix are asserted again. Only plain ASCII is
 * accepted, and percent-escapes only of letters, digits, "-", "_" and "~".
 */
export interface EndpointRules {
  /** Input field name for error messages, e.g. "endpoint". */
  field: string;
  /** Allowed path prefixes, each with a leading and trailing slash: ["/rest/", "/bulk/"]. */
  allowedPrefixes: readonly string[];
  /** Human description of what is accepted, e.g. "a path beginning with /rest/". */
  accepted: string;
  /** The input field that takes query parameters, named when an endpoint carries "?...". Default "query_parameters". */
  queryField?: string;
}

const MINT = Symbol("CheckedPath");

/**
 * A path the endpoint guard accepted under one set of rules: the only kind of path a connector joins to
 * its base URL. It is an object, not a branded string, so that it cannot be forged: a cast makes a
 * string look like one to the type checker, never to `CheckedPath.is`, and an object built by hand
 * lacks the private field. A connector checks a caller's raw string once per call, and a path that is
 * already a CheckedPath (a tool step checked it first) is not checked again.
 */
export class CheckedPath {
  readonly value: string;
  readonly #rules: EndpointRules;

  constructor(mint: symbol, value: string, rules: EndpointRules) {
    if (mint !== MINT) throw new TypeError("a CheckedPath is made only by the endpoint guard");
    this.value = value;
    this.#rules = rules;
  }

  /** Whether `candidate` is a path the guard accepted under these very rules. */
  static is(candidate: unknown, rules: EndpointRules): candidate is CheckedPath {
    return candidate instanceof CheckedPath && #rules in candidate && candidate.#rules === rules;
  }

  toString(): string {
    return this.value;
  }

  toJSON(): string {
    return this.value;
  }
}

// Control characters (C0, DEL, C1) and characters a URL parser treats as separators or host markers.
// biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** The only characters that may be percent-encoded: unreserved ones (RFC 3986 §2.3) except ".". */
const SAFE_ENCODED = /^[A-Za-z0-9_~-]$/;

/** The query string of an endpoint as the query_parameters object it should have been. */
function queryObject(query: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(query.split("#")[0])) {
    const seen = out[key];
    out[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return out;
}

function codePoint(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * Endpoints already accepted, per rules object, by exact string: agents call the same few endpoints
 * again and again. Only acceptances are kept: a refused endpoint is checked, and refused with why,
 * every time. Short strings only, and a bounded number (emptied when full), so the memory held stays small.
 */
const ACCEPTED = new WeakMap<EndpointRules, Map<string, CheckedPath>>();
/** Joined URLs (as text), per rules, by base and checked path. */
const JOINED = new WeakMap<EndpointRules, Map<string, string>>();
const MAX_KEPT = 500;
const MAX_KEPT_LENGTH = 1_024;

function keptFor<T>(caches: WeakMap<EndpointRules, Map<string, T>>, rules: EndpointRules): Map<string, T> {
  let kept = caches.get(rules);
  if (!kept) {
    kept = new Map();
    caches.set(rules, kept);
  }
  return kept;
}

function keep<T>(kept: Map<string, T>, key: string, value: T): void {
  if (key.length > MAX_KEPT_LENGTH) return;
  if (kept.size >= MAX_KEPT) kept.clear();
  kept.set(key, value);
}

/** Checks a caller-supplied endpoint: the checked path, or an EndpointNotAllowedError saying why not. */
export function checkPath(raw: unknown, rules: EndpointRules): CheckedPath {
  const accepted = keptFor(ACCEPTED, rules);
  const known = typeof raw === "string" ? accepted.get(raw) : undefined;
  if (known) return known;
  const checked = new CheckedPath(MINT, checkEndpointOnce(raw, rules), rules);
  keep(accepted, checked.value, checked);
  return checked;
}

/** checkPath's answer as text (for callers that only validate). */
export function checkEndpoint(raw: unknown, rules: EndpointRules): string {
  return checkPath(raw, rules).value;
}

function checkEndpointOnce(raw: unknown, rules: EndpointRules): string {
  const refuse = (why: string, details: Record<string, unknown> = {}): never => {
    throw new EndpointNotAllowedError(rules.field, `${why}. Accepted: ${rules.accepted}.`, {
      details: { accepted: rules.accepted, ...details },
    });
  };
  if (typeof raw !== "string" || raw.length === 0) return refuse("it must be a non-empty string");
  if (raw.length > 2048) return refuse("it is longer than 2048 characters");
  const query = raw.indexOf("?");
  if (query >= 0) {
    // The path is checked first: a query string is only worth a suggestion on a path we would accept.
    const path = checkRawPath(raw.slice(0, query), rules, refuse);
    const parameters = queryObject(raw.slice(query + 1));
    const field = rules.queryField ?? "query_parameters";
    return refuse(
      `it carries a query string; give the endpoint as ${path} and move the query into ${field}: ${JSON.stringify(parameters)}`,
      { suggestion: { [rules.field]: path, [field]: parameters } },
    );
  }
  return checkRawPath(raw, rules, refuse);
}

function checkRawPath(raw: string, rules: EndpointRules, refuse: (why: string) => never): string {
  if (raw.length === 0) return refuse("it must be a non-empty path");
  if (CONTROL.test(raw)) return refuse("it contains a control character");
  if (/\s/.test(raw)) return refuse("it contains white space");
  // Look-alikes of "." and "/" (U+FF0E, U+2024, U+2025, U+FE52, U+FF0F...) are turned into the real
  // ones by lenient gateways and servers that normalise Unicode, so only plain ASCII is accepted.
  const foreign = /[\u0080-\u{10ffff}]/u.exec(raw)?.[0];
  if (foreign !== undefined)
    return refuse(`it contains the non-ASCII character ${codePoint(foreign)}; give the path in plain ASCII`);
  if (raw.includes("\\")) return refuse("it contains a backslash");
  if (raw.startsWith("//")) return refuse("it starts with // (a protocol-relative URL names another host)");
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw)) return refuse("it is an absolute URL; give only the path");
  if (raw.includes("@")) return refuse("it contains @");
  // Servlet containers strip ";params" from a segment before resolving dots, so "/rest/..;/x" can
  // climb out of the API there; no Marketo or GA4 path uses ";".
  if (raw.includes(";")) return refuse("it contains ;");
  if (raw.includes("#")) return refuse("it contains a fragment (#)");
  // A server may decode any escape into path syntax (%2e%2e, %2f), an overlong UTF-8 form (%c0%ae) or
  // a non-standard one (%u002e): only escapes of letters, digits, "-", "_" and "~" are harmless.
  for (const match of raw.matchAll(/%(.{0,2})/gs)) {
    const hex = match[1] ?? "";
    if (!/^[0-9a-f]{2}$/i.test(hex))
      return refuse(`it contains a % not followed by two hex digits (%${hex}…)`);
    if (!SAFE_ENCODED.test(String.fromCharCode(Number.parseInt(hex, 16))))
      return refuse(
        `it contains %${hex}, which is not a percent-encoded letter, digit, - _ or ~ (a percent-encoded dot, slash, colon, @ or % is refused too)`,
      );
  }
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
export function joinEndpoint(base: URL, checked: CheckedPath, rules: EndpointRules): URL {
  if (!CheckedPath.is(checked, rules)) {
    throw new EndpointNotAllowedError(
      rules.field,
      `it was not checked by the endpoint guard. Accepted: ${rules.accepted}.`,
    );
  }
  const checkedPath = checked.value;
  // The same base and path always join to the same URL: a joined one is kept (as text; each caller gets
  // its own URL object, which it may change) under the same bounds as the accepted endpoints.
  const key = `${base.href} ${checkedPath}`;
  const joined = keptFor(JOINED, rules);
  const href = joined.get(key);
  if (href !== undefined) return new URL(href);
  const url = joinOnce(base, checkedPath, rules);
  keep(joined, key, url.href);
  return url;
}

function joinOnce(base: URL, checkedPath: string, rules: EndpointRules): URL {
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
