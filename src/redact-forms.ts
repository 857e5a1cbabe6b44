/**
 * The forms a credential can take in a service's text (src/redact.ts looks for them): the encodings it
 * can be echoed in, and the decodings a text gets before it is checked again.
 */

/** Shorter values are not treated as secrets: redacting them would mangle ordinary words. */
export const MIN_SECRET_CHARS = 8;
/** How many decoding rounds a text gets before it is checked again (e.g. JSON-escaped percent-encoding). */
const DECODE_ROUNDS = 3;

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

function decodePercent(text: string): string {
  return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.replace(/%([0-9a-f]{2})/gi, (_m, hex: string) =>
        String.fromCharCode(Number.parseInt(hex, 16)),
      );
    }
  });
}

function decodeEscapes(text: string): string {
  return text.replace(/\\(?:u([0-9a-f]{4})|x([0-9a-f]{2})|([\\/"'bfnrt]))/gi, (_m, u, x, c: string) => {
    if (u || x) return String.fromCharCode(Number.parseInt(u ?? x, 16));
    return { b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" }[c] ?? c;
  });
}

const ENTITIES: Record<string, string> = { amp: "&", quot: '"', lt: "<", gt: ">", apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|quot|lt|gt|apos);/gi, (m, name: string) => {
    const lower = name.toLowerCase();
    if (lower.startsWith("#x")) return String.fromCodePoint(Number.parseInt(lower.slice(2), 16) % 0x110000);
    if (lower.startsWith("#")) return String.fromCodePoint(Number.parseInt(lower.slice(1), 10) % 0x110000);
    return ENTITIES[lower] ?? m;
  });
}

const DECODERS: readonly [RegExp, (text: string) => string][] = [
  [/%[0-9a-f]{2}/i, decodePercent],
  [/\\(u[0-9a-f]{4}|x[0-9a-f]{2}|[\\/"'bfnrt])/i, decodeEscapes],
  [/&(#x[0-9a-f]+|#\d+|amp|quot|lt|gt|apos);/i, decodeEntities],
];

/** The text and what it becomes when its escapes are decoded, in up to DECODE_ROUNDS rounds. */
export function decodedForms(text: string): string[] {
  const forms = [text];
  let frontier = [text];
  for (let round = 0; round < DECODE_ROUNDS && frontier.length > 0; round += 1) {
    const next: string[] = [];
    for (const form of frontier) {
      for (const [probe, decode] of DECODERS) {
        if (!probe.test(form)) continue;
        const decoded = decode(form);
        if (decoded !== form && !forms.includes(decoded)) next.push(decoded);
      }
    }
    forms.push(...next);
    frontier = next;
  }
  return forms;
}
