/**
 * Canary credentials and an independent leak detector (it shares no code with src/redact.ts, so a
 * bug there cannot hide itself here): a canary counts as leaked when any output holds it raw, in
 * either case, percent- or form-encoded (once or twice), JSON-escaped, as hex, in base64 or base64url
 * at any alignment, or as a run of 12 of its characters; also after percent- and JSON-decoding.
 */

/** A unique value per run, so nothing but this run's fakes and product can have produced it. */
export function canary(kind: string): string {
  return `CANARY${kind}${Math.random().toString(36).slice(2, 10)}Zq7`;
}

const FRAGMENT = 12;

function base64Cores(value: string): string[] {
  const out: string[] = [];
  for (let lead = 0; lead < 3; lead += 1) {
    const buf = Buffer.concat([Buffer.alloc(lead, 0x41), Buffer.from(value)]);
    const full = buf.toString("base64").replace(/=+$/, "");
    const core = full.slice(Math.ceil((lead * 8) / 6), Math.floor((buf.length * 8) / 6));
    out.push(core, core.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return out;
}

function encodings(value: string): string[] {
  const pct = encodeURIComponent(value);
  return [
    value,
    pct,
    encodeURIComponent(pct),
    new URLSearchParams({ v: value }).toString().slice(2),
    JSON.stringify(value).slice(1, -1),
    Buffer.from(value).toString("hex"),
    ...base64Cores(value),
  ].map((s) => s.toLowerCase());
}

function decodings(text: string): string[] {
  const percent = (t: string) =>
    t.replace(/%([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
  const json = (t: string) =>
    t
      .replace(/\\u([0-9a-f]{4})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
      .replace(/\\\//g, "/");
  return [text, percent(text), json(text), percent(json(text)), json(percent(text))].map((s) =>
    s.toLowerCase(),
  );
}

export interface Leak {
  canary: string;
  form: string;
  at: number;
  context: string;
}

/** Every canary found in `text` (empty when clean). */
export function findLeaks(text: string, canaries: readonly string[]): Leak[] {
  const leaks: Leak[] = [];
  const forms = decodings(text);
  for (const value of canaries) {
    for (const encoded of encodings(value)) {
      for (let start = 0; start + FRAGMENT <= encoded.length; start += 1) {
        const piece = encoded.slice(start, start + FRAGMENT);
        for (const form of forms) {
          const at = form.indexOf(piece);
          if (at >= 0) {
            leaks.push({
              canary: value,
              form: piece,
              at,
              context: form.slice(Math.max(0, at - 60), at + 60),
            });
            break;
          }
        }
        if (leaks.at(-1)?.canary === value) break;
      }
      if (leaks.at(-1)?.canary === value) break;
    }
  }
  return leaks;
}
