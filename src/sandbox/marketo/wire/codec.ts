/**
 * Wire formats Marketo uses: datetimes (Lead DB vs the odd Asset `Z+0000` suffix), request ids,
 * and base32 paging tokens.
 */

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32 without padding: the alphabet of real Marketo paging tokens. */
export function base32Encode(text: string): string {
  const bytes = Buffer.from(text, "utf8");
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** Decodes base32 (padding tolerated); undefined when the text is not base32. */
export function base32Decode(token: string): string | undefined {
  const clean = token.replace(/=+$/, "");
  if (!/^[A-Z2-7]+$/.test(clean)) return undefined;
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const ch of clean) {
    value = ((value << 5) | BASE32.indexOf(ch)) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** Lead DB datetime, e.g. "2021-11-23T22:57:08Z" (seconds precision). */
export function leadDate(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/**
 * Asset API datetime: the real service appends "+0000" after the "Z", e.g. "2015-11-18T15:25:35Z+0000"
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/programs).
 */
export function assetDate(ms: number): string {
  return `${leadDate(ms)}+0000`;
}

/** The datetime spelling inside activity paging tokens: "2008-11-06T00:00:00.000+0000". */
export function tokenDate(ms: number): string {
  return new Date(ms).toISOString().replace("Z", "+0000");
}

/**
 * Parses the ISO-8601 variants Marketo accepts ("…-08:00", "…+0000", "…Z", date only).
 * A "+" that arrived unencoded in a query string decodes to a space: that is invalid here, as it is
 * on the real service (the docs tell callers to URL-encode it).
 */
export function parseMarketoDate(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed !== text || /\s/.test(trimmed)) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}/.test(trimmed)) return undefined;
  const normalised = trimmed.replace(/Z\+0000$/, "Z").replace(/([+-]\d{2})(\d{2})$/, "$1:$2");
  const ms = Date.parse(normalised);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Request ids look like "e42b#14272d07d78": a short hex prefix and the epoch millis in hex. */
export function makeRequestIdFactory(seed: number, now: () => number): () => string {
  let counter = (seed * 2654435761) >>> 0;
  return () => {
    counter = (counter + 0x9e37) >>> 0;
    const prefix = (counter & 0xfffff).toString(16).padStart(4, "0");
    return `${prefix}#${Math.max(0, Math.floor(now())).toString(16)}`;
  };
}
