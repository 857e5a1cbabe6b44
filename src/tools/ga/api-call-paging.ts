/**
 * A Google response within the output cap, and an exact way on. Google's list methods page with
 * pageToken, and a page cannot be read from part-way: when the cap cuts the largest list of the
 * response, the cursor says which list and how many of its items were shown, and resuming re-sends the
 * same request once and skips them (https://google.aip.dev/158: the same request gives the same page).
 */
import type { GoogleApiCallFields } from "../../schemas/google-analytics-admin.js";
import { countIn, decodeCursor, encodeCursor, requestFingerprint } from "../cursor.js";
import { capItems, jsonSize, MAX_RESULT_BYTES, moreWarning } from "../output-cap.js";
import type { FullResult } from "../types.js";

type Body = Record<string, unknown>;

function fingerprint(fields: GoogleApiCallFields): string {
  return requestFingerprint({
    m: fields.method,
    e: fields.endpoint,
    a: fields.api,
    q: fields.query_parameters,
    b: fields.body,
  });
}

/** The list and the items of it already shown, from the input's cursor. */
export function skipOf(fields: GoogleApiCallFields): { list: string; skip: number } | undefined {
  if (fields.cursor === undefined) return undefined;
  const position = decodeCursor(fields.cursor, fingerprint(fields));
  const skip = countIn(position, "s") ?? 0;
  return typeof position.k === "string" ? { list: position.k, skip } : { list: "", skip };
}

const isBody = (value: unknown): value is Body =>
  value !== null && typeof value === "object" && !Array.isArray(value);

function largestList(body: Body): [string, unknown[]] | undefined {
  const lists = Object.entries(body).filter((entry): entry is [string, unknown[]] => Array.isArray(entry[1]));
  return lists.sort((a, b) => jsonSize(b[1]) - jsonSize(a[1]))[0];
}

/** A response as the answer shows it, and which items of its list it shows when that is not all of them. */
export interface PagedBody {
  body: unknown;
  warnings: string[];
  nextCursor?: string;
  full?: FullResult;
  /** The list shown in part: its key, the index of the first item shown, how many are shown, of how many. */
  part?: { list: string; first: number; shown: number; of: number };
}

/**
 * Google's nextPageToken starts its next page, after every item of this one: followed while some of this
 * page's items are not shown, it skips them (https://google.aip.dev/158).
 */
function tokenWarning(body: Body, list: string, notShown: number): string[] {
  if (typeof body.nextPageToken !== "string" || body.nextPageToken === "" || notShown === 0) return [];
  return [
    `nextPageToken starts Google's next page, after all of this page's ${list}: read the ${notShown.toLocaleString("en-US")} ` +
      "not shown with next_cursor first, then pass nextPageToken as query_parameters.pageToken.",
  ];
}

const RESUME =
  "cursor = next_cursor (same method, endpoint, query_parameters and body: the request is sent again once)";

/**
 * Keeps a response within `maxBytes`: the largest top-level list (or the list a cursor names, past the
 * items it says were shown) is shortened to what fits, with a cursor to the first item not shown; a
 * response that still does not fit is returned as a JSON text prefix.
 */
export function pageBody(
  fields: GoogleApiCallFields,
  body: unknown,
  options: { keepBytes?: number | undefined; maxBytes?: number } = {},
): PagedBody {
  const maxBytes = options.maxBytes ?? MAX_RESULT_BYTES;
  const from = skipOf(fields);
  let shown = body;
  const notes: string[] = [];
  const named = from && isBody(body) ? body[from.list] : undefined;
  if (from && isBody(body) && Array.isArray(named)) {
    shown = { ...body, [from.list]: named.slice(from.skip) };
  }
  // The same request gives the same page (AIP-158) unless the data changed: then say so, rather than
  // start over without a word or answer an empty list.
  if (from && (!Array.isArray(named) || named.length < from.skip)) {
    notes.push(
      `The response changed since this cursor was made (${Array.isArray(named) ? `${named.length} ${from.list}, fewer than the ${from.skip} already shown` : `no ${from.list || "list"} in it`}): ` +
        "items may have been missed or repeated. Call again without cursor to read it from the start.",
    );
  }
  const size = jsonSize(shown);
  if (size <= maxBytes) {
    // Resumed past the items already shown: this answer holds the rest of the list.
    const rest = from && Array.isArray(named) && from.skip > 0 && named.length >= from.skip;
    return {
      body: shown,
      warnings: notes,
      ...(rest
        ? { part: { list: from.list, first: from.skip, shown: named.length - from.skip, of: named.length } }
        : {}),
    };
  }
  const kb = Math.round(maxBytes / 1000);
  if (isBody(shown)) {
    const largest =
      from && Array.isArray(shown[from.list])
        ? ([from.list, shown[from.list]] as [string, unknown[]])
        : largestList(shown);
    if (largest) {
      const cut = cutList({ fields, shown, largest, from, notes, keepBytes: options.keepBytes, maxBytes });
      if (cut) return cut;
    }
  }
  const text = JSON.stringify(shown);
  return {
    body: text.slice(0, maxBytes - 2_000),
    warnings: [
      ...notes,
      `Output capped at ${kb} KB: the response (${Math.round(size / 1000)} KB) is cut off as JSON text.`,
    ],
  };
}

/** The largest list (or the one a cursor names) cut to what fits, with the cursor to the first item left out. */
function cutList(o: {
  fields: GoogleApiCallFields;
  shown: Body;
  largest: [string, unknown[]];
  from: ReturnType<typeof skipOf>;
  notes: string[];
  keepBytes: number | undefined;
  maxBytes: number;
}): PagedBody | undefined {
  const { fields, shown, largest, from, notes, keepBytes, maxBytes } = o;
  const [key, list] = largest;
  const rest = jsonSize({ ...shown, [key]: [] });
  const { items } = capItems(list, maxBytes - rest, true);
  if (rest < maxBytes) {
    const skipped = from?.list === key ? from.skip : 0;
    const nextCursor = encodeCursor(fingerprint(fields), { k: key, s: skipped + items.length });
    // The kept items stay within the setting for kept results (MARTECH_STEPS_RESULT_MAX_BYTES).
    const whole = keepBytes === undefined ? [] : capItems(list, keepBytes, true).items;
    const cut = keepBytes !== undefined && whole.length < list.length;
    const warning = moreWarning({
      unit: key,
      shown: items.length,
      read: list.length,
      capped: true,
      resume: RESUME,
      kept: keepBytes !== undefined && !cut,
    });
    const keptWords = cut
      ? ` The first ${whole.length} are in the full result linked with this answer; after them, continue with the nextCursor its pages name.`
      : "";
    return {
      body: { ...shown, [key]: items },
      warnings: [
        ...notes,
        `${warning}${keptWords}`,
        ...tokenWarning(shown as Body, key, list.length - items.length),
      ],
      nextCursor,
      part: { list: key, first: skipped, shown: items.length, of: skipped + list.length },
      ...(keepBytes !== undefined
        ? {
            full: {
              kind: "items" as const,
              items: whole,
              shown: items.length,
              ...(cut
                ? { nextCursor: encodeCursor(fingerprint(fields), { k: key, s: skipped + whole.length }) }
                : {}),
            },
          }
        : {}),
    };
  }
  return undefined;
}
