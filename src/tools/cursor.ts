/**
 * Resume positions handed to agents as opaque cursors: "c3.", base64url JSON of the position and a
 * fingerprint of the request it belongs to, "." and an HMAC-SHA256 of both (128 bits) under this
 * deployment's cursor key. A cursor is checked on input: it must be one this deployment issued, unchanged
 * (a forged position would skip or repeat records, or read past what a previous answer offered), of this
 * version, for the same request (a cursor of another list would skip or repeat records without anyone
 * noticing). It holds no secret: only Marketo's or Google's own paging positions and counts, which the
 * caller's own credentials are needed to use.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { cursorKey } from "../auth/cursor-key.js";
import { ValidationError } from "../errors.js";

/** c1 had no signature; c2 is the version earlier tests name as "another". */
export const CURSOR_PREFIX = "c3.";
const PREFIX = CURSOR_PREFIX;
const MAX_CURSOR_CHARS = 4_096;
/** 128 bits of HMAC: 22 characters, enough that a forgery is never accepted. */
const MAC_BYTES = 16;

function mac(body: string): Buffer {
  return createHmac("sha256", cursorKey()).update(PREFIX).update(body).digest().subarray(0, MAC_BYTES);
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => [k, canonical(v)]),
  );
}

/** A short, stable digest of what identifies a request (its key order does not matter). */
export function requestFingerprint(request: unknown): string {
  return createHash("sha256")
    .update(JSON.stringify(canonical(request)))
    .digest("base64url")
    .slice(0, 16);
}

export function encodeCursor(fingerprint: string, position: Record<string, unknown>): string {
  const body = Buffer.from(JSON.stringify({ r: fingerprint, p: position })).toString("base64url");
  return `${PREFIX}${body}.${mac(body).toString("base64url")}`;
}

/**
 * Whether `signature` is this deployment's for `body`, as the very text it issued (compared in constant
 * time). Its bytes are not compared: Node's base64 decoder skips characters outside the alphabet, takes
 * "+/" for "-_", and ignores the 4 spare bits of the 22nd character, so many texts decode to one MAC, and
 * a changed cursor would be read as the one issued.
 */
function signedHere(body: string, signature: string): boolean {
  const given = Buffer.from(signature, "utf8");
  const expected = Buffer.from(mac(body).toString("base64url"), "utf8");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const SAME_REQUEST = "the same method, endpoint and parameters as the call that returned it";

/**
 * The position in a cursor, after checking that it is one of ours and belongs to this request.
 * `field` names the input field in errors.
 */
export function decodeCursor(raw: string, fingerprint: string, field = "cursor"): Record<string, unknown> {
  const refuse = (why: string): never => {
    throw new ValidationError(field, why, {
      hint: `Pass next_cursor exactly as a previous answer gave it, with ${SAME_REQUEST}; or leave cursor out to start at the beginning.`,
    });
  };
  if (raw.length > MAX_CURSOR_CHARS) refuse("it is longer than any cursor this tool returns.");
  if (!raw.startsWith(PREFIX)) {
    refuse(
      /^c\d+\./.test(raw)
        ? "it comes from another version of this tool."
        : "it is not a cursor this tool returned.",
    );
  }
  const [encoded = "", signature = "", ...rest] = raw.slice(PREFIX.length).split(".");
  // The signature is checked before anything in the cursor is read.
  if (rest.length > 0 || !signedHere(encoded, signature)) {
    refuse(
      "it was not issued by this deployment, or it was changed since: start again without cursor (a cursor works only where it was issued, unchanged).",
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(encoded, "base64url").toString("utf8"));
  } catch {
    refuse("it is not a cursor this tool returned (it does not decode).");
  }
  const { r, p } = (body ?? {}) as { r?: unknown; p?: unknown };
  if (typeof r !== "string" || p === null || typeof p !== "object" || Array.isArray(p)) {
    return refuse("it is not a cursor this tool returned.");
  }
  if (r !== fingerprint) refuse(`it belongs to another request: give ${SAME_REQUEST}.`);
  return p as Record<string, unknown>;
}

/** A field of a decoded position that must be a whole number of at least 0 (absent is allowed). */
export function countIn(
  position: Record<string, unknown>,
  key: string,
  field = "cursor",
): number | undefined {
  const value = position[key];
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new ValidationError(field, "it is not a cursor this tool returned (a position is not a count).", {
      hint: "Pass next_cursor exactly as a previous answer gave it.",
    });
  }
  return value;
}
