/**
 * Patterns that a published input schema states for clients (MCP clients, the console's form) while the
 * server checks the same rule itself with a more precise message: the schema that publishes one registers
 * its message here (`publishedPattern`), so the form words a mismatch without this module naming the
 * service. A path's segments follow what the endpoint guard (src/connectors/endpoint-guard.ts) accepts;
 * test/connectors/endpoint-pattern.test.ts proves a published path pattern and the guard agree on a table of
 * endpoints.
 */

/** Printable ASCII without space, # % / ; ? @ and \ (the guard refuses each of those in a segment). */
const PLAIN = "[!\"$&'()*+,\\-.0-9:<=>A-Z\\[\\]^_`a-z{|}~]";
/** A percent-encoded letter, digit, "-", "_" or "~": the only escapes the guard lets through. */
const ESCAPE = "%(?:3[0-9]|4[1-9A-Fa-f]|5[0-9Aa]|5[Ff]|6[1-9A-Fa-f]|7[0-9Aa]|7[Ee]|2[Dd])";
/** A non-empty segment that is not "." or "..". */
const SEGMENT = `(?!\\.\\.?(?:/|$))(?:${PLAIN}|${ESCAPE})+`;

/**
 * A path under one of the given first segments (e.g. ["rest", "bulk"]): "/", one of them, "/", then
 * segments the guard accepts (the last one may be empty: a trailing slash).
 */
export function guardedPathPattern(roots: readonly string[]): string {
  return `^/(?:${roots.join("|")})/(?:${SEGMENT}/)*(?:${SEGMENT})?$`;
}

/**
 * What a form says when a published pattern does not match (the server's guard then says exactly why),
 * by pattern; filled by the schemas that publish them.
 */
export const PATTERN_MESSAGES: Record<string, string> = {};

/** A pattern a schema publishes, with what the form says when a value does not match it. */
export function publishedPattern(pattern: string, message: string): string {
  PATTERN_MESSAGES[pattern] = message;
  return pattern;
}
