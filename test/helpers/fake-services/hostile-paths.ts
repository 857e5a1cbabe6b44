import fc from "fast-check";

/**
 * What breaks URL handling, as pieces of generated endpoints: dot and slash look-alikes (U+FF0E, U+2024,
 * U+2025, U+FE52, U+FF0F...), overlong UTF-8 and %u escapes, double encoding, control characters, lone
 * surrogates, schemes, hosts, ; ? # @, and the names of the token endpoints.
 */
export const PIECES = [
  "..",
  ".",
  "%2e",
  "%2E",
  "%2e%2e",
  "%252e",
  "%252e%252e",
  "%c0%ae",
  "%c0%2e",
  "%e0%80%ae",
  "%u002e",
  "%u002E%u002E",
  "\uff0e",
  "\u2024",
  "\u2025",
  "\ufe52",
  "\u3002",
  "\uff0f",
  "\u2215",
  "\u2044",
  "\\",
  "%5c",
  "%5C",
  "%2f",
  "%2F",
  "%252f",
  "@",
  ":",
  ";",
  "?",
  "#",
  "%23",
  "%3f",
  "%40",
  "%3a",
  "//",
  "identity",
  "oauth",
  "token",
  "evil.com",
  "127.0.0.1",
  "http:",
  "https:",
  " ",
  "\t",
  "\r",
  "\n",
  "%00",
  "%0a",
  "%0d",
  "\u0000",
  "\ud800",
  "\udc00",
  "rest",
  "bulk",
  "v1",
  "asset",
  "v1beta",
  "properties",
  "123:runReport",
  "leads.json",
  "%41",
  "%7e",
  "%7E",
  "~",
  "-",
  "_",
  "..;",
  ".;",
  "..%2f",
  "..%5c",
  "%ff",
  "%",
  "%%",
  "%2",
  "\u0130",
  "\u200b",
  "\ufeff",
  "\u2028",
  "a",
  "b1",
  "x.json",
  "data",
  "admin",
  "accounts",
  "=",
  "&",
  "+",
  "*",
  "'",
];
const SEPARATORS = ["", "\\", "%2f", "//", "/./", "/../", "%5c"];
export const MARKETO_PREFIXES = [
  "/rest/",
  "/bulk/",
  "/rest/v1/",
  "/rest/asset/v1/",
  "/",
  "",
  "//",
  "/rest",
  "rest/",
  "/identity/",
  "/REST/",
  "https://evil.com/",
  "\\\\",
  "/%2e%2e/",
  "/rest/..",
  "http:",
  "/rest/%2e%2e/",
];
export const GOOGLE_PREFIXES = [
  "v1beta/",
  "/v1beta/",
  "v1beta/properties/123/",
  "/",
  "",
  "//",
  "v1beta",
  "oauth/",
  "/oauth/",
  "v1/",
  "https://evil.com/",
  "v1beta/..",
  "/v1beta/%2e%2e/",
  "..",
  "v1beta\\",
  "data/",
  "admin/",
];

/** Segments a real path has: most generated paths mix these with one or two pieces of PIECES. */
const PLAIN = [
  "v1",
  "leads.json",
  "lists",
  "1001",
  "properties",
  "123",
  "a_b",
  "x-y",
  "%41b",
  "%7e1",
  "items.json",
];

/**
 * Endpoints from four sources: a real-looking path with one piece of PIECES in it, an allowed or hostile
 * prefix followed by many pieces, any UTF-16 string, and fast-check's URL paths. The first three
 * prefixes of each list are allowed ones.
 */
export function endpoints(prefixes: readonly string[]): fc.Arbitrary<string> {
  const piece = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...PLAIN) }, fc.constantFrom(...PIECES));
  const built = fc
    .tuple(
      fc.constantFrom(...prefixes),
      fc.array(fc.tuple(piece, fc.constantFrom(...SEPARATORS)), { maxLength: 7 }),
    )
    .map(([prefix, parts]) => prefix + parts.map(([p, sep]) => p + sep).join(""));
  // A real-looking path under an allowed prefix with a single piece of PIECES in it: many reach the server.
  const nearlyValid = fc
    .tuple(
      fc.constantFrom(...prefixes.slice(0, 3)),
      fc.array(fc.constantFrom(...PLAIN), { maxLength: 3 }),
      fc.constantFrom(...PIECES),
      fc.array(fc.constantFrom(...PLAIN), { maxLength: 3 }),
    )
    .map(([prefix, before, odd, after]) => prefix + [...before, odd, ...after].join("/"));
  return fc.oneof(
    { weight: 2, arbitrary: nearlyValid },
    { weight: 4, arbitrary: built },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...prefixes), fc.string({ unit: "binary", maxLength: 30 }))
        .map(([p, s]) => p + s),
    },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...prefixes), fc.webPath()).map(([p, s]) => p + s) },
  );
}

/** The path as a lenient gateway might see it: escapes decoded (%XX, %uXXXX, overlong), NFKC, \\ as /, dots resolved. */
export function lenient(path: string): string {
  let text = path;
  for (let round = 0; round < 3; round += 1) {
    text = text
      .replace(/%u([0-9a-f]{4})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
      .replace(/%c0%ae|%e0%80%ae/gi, ".")
      .replace(/%([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
  }
  text = text.normalize("NFKC").replace(/\\/g, "/");
  return new URL(text.startsWith("/") ? text : `/${text}`, "http://gateway.invalid").pathname;
}
