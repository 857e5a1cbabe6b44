/**
 * Patterns that a published input schema states for clients (MCP clients, the console's form) while the
 * server checks the same rule itself with a more precise message. The Marketo endpoint's pattern says
 * what the endpoint guard (src/connectors/endpoint-guard.ts, under Marketo's ENDPOINT_RULES) accepts;
 * test/connectors/endpoint-pattern.test.ts proves the two agree on a table of endpoints.
 */

/** Printable ASCII without space, # % / ; ? @ and \ (the guard refuses each of those in a segment). */
const PLAIN = "[!\"$&'()*+,\\-.0-9:<=>A-Z\\[\\]^_`a-z{|}~]";
/** A percent-encoded letter, digit, "-", "_" or "~": the only escapes the guard lets through. */
const ESCAPE = "%(?:3[0-9]|4[1-9A-Fa-f]|5[0-9Aa]|5[Ff]|6[1-9A-Fa-f]|7[0-9Aa]|7[Ee]|2[Dd])";
/** A non-empty segment that is not "." or "..". */
const SEGMENT = `(?!\\.\\.?(?:/|$))(?:${PLAIN}|${ESCAPE})+`;

/** A Marketo path: /rest/ or /bulk/, then segments (the last one may be empty: a trailing slash). */
export const MARKETO_ENDPOINT_PATTERN = `^/(?:rest|bulk)/(?:${SEGMENT}/)*(?:${SEGMENT})?$`;

/** What a form says when the pattern does not match (the server's guard then says exactly why). */
export const PATTERN_MESSAGES: Record<string, string> = {
  [MARKETO_ENDPOINT_PATTERN]:
    "use a path beginning with /rest/ or /bulk/, e.g. /rest/v1/leads.json: plain ASCII, no host, no query " +
    "string (use Query parameters), no spaces and no . or .. segments",
};
