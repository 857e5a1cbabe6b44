/**
 * The Marketo API Call step's cursors: where an answer stopped, exactly, as an opaque string. A token
 * page read part-way resumes by reading that page again and skipping what was shown (Marketo pages
 * cannot start part-way, https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/paging-tokens);
 * an asset browse call resumes at an offset; an export file at the byte where a record starts.
 */
import type { FilePosition } from "../../connectors/marketo/bulk-file.js";
import type { ResumePosition } from "../../connectors/marketo/types.js";
import { ValidationError } from "../../errors.js";
import type { MarketoApiCallInput } from "../../schemas/marketo.js";
import { countIn, decodeCursor, encodeCursor, requestFingerprint } from "../cursor.js";

export type MarketoPosition = { page: ResumePosition } | { file: FilePosition };

/**
 * The longest header line a file cursor may name: an export's header lists its fields (a few KB for
 * hundreds of fields); a forged length would have the header re-read as a download of the whole file.
 */
const MAX_HEADER_BYTES = 1024 * 1024;
/** A Marketo paging token is a short printable string; a forged one with spaces or control characters is not. */
const TOKEN = /^[^\s\p{Cc}]{1,1024}$/u;

/** Marketo's own position parameters: a cursor sets them, so they are not part of what identifies the request. */
const POSITION_KEYS = ["nextPageToken", "offset"];

/**
 * Inputs the step rewrote before sending (activity type names as ids) and the caller's input each stands for:
 * a cursor belongs to the request as the caller wrote it, so that calling again as written, with the cursor,
 * is the same request (it was refused as "another request", trial s15 preparation).
 */
const written = new WeakMap<MarketoApiCallInput, MarketoApiCallInput>();

/** `rewritten`, whose cursors are the caller's `original` request's. */
export function asWritten(
  rewritten: MarketoApiCallInput,
  original: MarketoApiCallInput,
): MarketoApiCallInput {
  written.set(rewritten, written.get(original) ?? original);
  return rewritten;
}

function fingerprint(given: MarketoApiCallInput): string {
  const input = written.get(given) ?? given;
  const query = Object.fromEntries(
    Object.entries(input.query_parameters ?? {}).filter(([key]) => !POSITION_KEYS.includes(key)),
  );
  return requestFingerprint({ m: input.method, e: input.endpoint, q: query, b: input.body });
}

export function cursorOf(input: MarketoApiCallInput, position: MarketoPosition): string {
  if ("file" in position) {
    const { byte, row, header } = position.file;
    return encodeCursor(fingerprint(input), { f: [byte, row, header] });
  }
  const { nextPageToken, offset, skip } = position.page;
  return encodeCursor(fingerprint(input), {
    ...(nextPageToken !== undefined ? { t: nextPageToken } : {}),
    ...(offset !== undefined ? { o: offset } : {}),
    ...(skip ? { s: skip } : {}),
  });
}

/** The position of the input's cursor (undefined without one), checked against the request. */
export function positionOf(input: MarketoApiCallInput): MarketoPosition | undefined {
  if (input.cursor === undefined) return undefined;
  const given = POSITION_KEYS.filter((key) => input.query_parameters?.[key] !== undefined);
  if (given.length > 0) {
    throw new ValidationError(
      `query_parameters.${given[0]}`,
      "a cursor already holds the position to continue from.",
      { hint: `Remove ${given.join(" and ")} from query_parameters when you pass cursor.` },
    );
  }
  const p = decodeCursor(input.cursor, fingerprint(input));
  if (p.f !== undefined) {
    const f: unknown[] = Array.isArray(p.f) && p.f.length === 3 ? p.f : [];
    const [byte, row, header] = [0, 1, 2].map((i) => countIn({ v: f[i] }, "v"));
    if (byte === undefined || row === undefined || !header || header > byte || header > MAX_HEADER_BYTES) {
      throw new ValidationError("cursor", "it is not a cursor this tool returned.", {
        hint: "Pass next_cursor exactly as a previous answer gave it, or leave cursor out to start at the beginning.",
      });
    }
    return { file: { byte, row, header } };
  }
  if (p.t !== undefined && (typeof p.t !== "string" || !TOKEN.test(p.t))) {
    throw new ValidationError(
      "cursor",
      "it is not a cursor this tool returned (its paging token is not one).",
      {
        hint: "Pass next_cursor exactly as a previous answer gave it, or leave cursor out to start at the beginning.",
      },
    );
  }
  const offset = countIn(p, "o");
  const skip = countIn(p, "s");
  return {
    page: {
      ...(typeof p.t === "string" ? { nextPageToken: p.t } : {}),
      ...(offset !== undefined ? { offset } : {}),
      ...(skip ? { skip } : {}),
    },
  };
}
