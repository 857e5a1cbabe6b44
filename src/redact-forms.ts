/**
 * The forms a credential can take in a service's text (src/redact.ts looks for them): the encodings it
 * can be echoed in, and the decodings a text gets before it is checked again.
 */

/** Shorter values are not treated as secrets: redacting them would mangle ordinary words. */
export const MIN_SECRET_CHARS = 8;
/** How many decoding rounds a text gets before it is checked again (e.g. JSON-escaped percent-encoding). */
const DECODE_ROUNDS = 3;

/**
 * A PEM encapsulation boundary (RFC 7468 section 2, https://www.rfc-editor.org/rfc/rfc7468#section-2):
 * "-----BEGIN PRIVATE KEY-----" is the same in every key, public words, never a secret. Registered with the
 * key, its fragments ("private key", "BEGIN PRIVATE") cut the product's own words out of messages: "The
 * private key of service account …" came out as "[redacted] of service account …".
 */
const PEM_BOUNDARY = /-----(?:BEGIN|END) [A-Z0-9 ]{1,64}-----/g;

/** The parts of a value that are secret: the value, less any PEM boundary it holds (see PEM_BOUNDARY). */
export function secretParts(value: string): string[] {
  if (!value.includes("-----")) return [value];
  return value
    .split(PEM_BOUNDARY)
    .map((part) => part.trim())
    .filter((part) => part.length >= MIN_SECRET_CHARS);
}

export type Kind = "plain" | "base64";

export interface Pattern {
  /** ASCII-lowercased, so hex and percent escapes of either case match. */
  folded: string;
  kind: Kind;
}

/** Lowercases A-Z only, so the result has the same length and indices as the input. */
export function fold(text: string): string {
  return text.replace(/[A-Z]+/g, (run) => run.toLowerCase());
}

/**
 * The characters of base64(…secret…) that depend on the secret alone, for each of the three byte
 * alignments the secret can have inside a larger encoded value (such as `client_id:client_secret`).
 */
function base64Cores(secret: string): string[] {
  const bytes = Buffer.from(secret, "utf8");
  const cores: string[] = [];
  for (let lead = 0; lead < 3; lead += 1) {
    const padded = Buffer.concat([Buffer.alloc(lead), bytes]);
    const encoded = padded.toString("base64").replace(/=+$/, "");
    // Characters touched by the lead bytes, and the last one (it mixes in whatever follows).
    const first = Math.ceil((lead * 8) / 6);
    const end = Math.floor((padded.length * 8) / 6);
    const core = encoded.slice(first, end);
    if (core.length >= MIN_SECRET_CHARS) {
      cores.push(core, core.replace(/\+/g, "-").replace(/\//g, "_"));
    }
  }
  return cores;
}

/** Every plain encoding of a secret a service might send back. */
function plainForms(secret: string): string[] {
  const percent = encodeURIComponent(secret);
  const json = JSON.stringify(secret).slice(1, -1);
  return [
    secret,
    percent,
    encodeURIComponent(percent),
    new URLSearchParams({ v: secret }).toString().slice(2),
    json,
    json.replace(/\//g, "\\/"),
    Buffer.from(secret, "utf8").toString("hex"),
  ];
}

export function patternsOf(secret: string): Pattern[] {
  const plain = [...new Set(plainForms(secret).map(fold))].map((folded) => ({
    folded,
    kind: "plain" as const,
  }));
  const b64 = [...new Set(base64Cores(secret).map(fold))].map((folded) => ({
    folded,
    kind: "base64" as const,
  }));
  return [...plain, ...b64];
}

/** A run of percent escapes (decoded together: UTF-8 spans several), a backslash escape, an HTML entity. */
const ESCAPE =
  /(?:%[0-9a-f]{2})+|\\(?:u[0-9a-f]{4}|x[0-9a-f]{2}|[\\/"'bfnrt])|&(?:#x[0-9a-f]+|#\d+|amp|quot|lt|gt|apos);/gi;
const HAS_ESCAPE = new RegExp(ESCAPE.source, "i");

const ENTITIES: Record<string, string> = { amp: "&", quot: '"', lt: "<", gt: ">", apos: "'" };
const BACKSLASHED: Record<string, string> = { b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

function decodePercent(run: string): string {
  try {
    return decodeURIComponent(run);
  } catch {
    return run.replace(/%([0-9a-f]{2})/gi, (_m, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
  }
}

function decodeOne(found: string): string {
  if (found.startsWith("%")) return decodePercent(found);
  if (found.startsWith("&")) {
    const name = found.slice(1, -1).toLowerCase();
    if (name.startsWith("#x")) return String.fromCodePoint(Number.parseInt(name.slice(2), 16) % 0x110000);
    if (name.startsWith("#")) return String.fromCodePoint(Number.parseInt(name.slice(1), 10) % 0x110000);
    return ENTITIES[name] ?? found;
  }
  const kind = found[1] ?? "";
  if (kind === "u" || kind === "x") return String.fromCharCode(Number.parseInt(found.slice(2), 16));
  return BACKSLASHED[kind] ?? kind;
}

/**
 * The text and what it becomes when its escapes (percent, backslash, HTML entity) are decoded, in up to
 * DECODE_ROUNDS rounds: each round decodes every escape of every kind in one pass, so an encoding
 * inside another (`\u0025` + hex) comes out a round later, and a text costs at most DECODE_ROUNDS + 1
 * copies. A text without an escape is returned alone, uncopied.
 */
export function decodedForms(text: string): string[] {
  const forms = [text];
  let form = text;
  for (let round = 0; round < DECODE_ROUNDS && HAS_ESCAPE.test(form); round += 1) {
    const decoded = form.replace(ESCAPE, decodeOne);
    if (decoded === form) break;
    forms.push(decoded);
    form = decoded;
  }
  return forms;
}
