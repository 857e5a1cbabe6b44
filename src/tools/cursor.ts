/**
 * Resume positions handed to agents as opaque cursors: "c1." and base64url JSON of the position and a
 * fingerprint of the request it belongs to. A cursor is checked on input: it must be one this package
 * made, of this version, for the same request (a cursor of another list would skip or repeat records
 * without anyone noticing). It holds no secret: only Marketo's or Google's own paging positions and
 * counts, which the caller's own credentials are needed to use.
 */
import { createHash } from "node:crypto";
import { ValidationError } from "../errors.js";

const PREFIX = "c1.";
const MAX_CURSOR_CHARS = 4_096;

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
  return `${PREFIX}${Buffer.from(JSON.stringify({ r: fingerprint, p: position })).toString("base64url")}`;
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
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(raw.slice(PREFIX.length), "base64url").toString("utf8"));
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
