/**
 * List paging as the Admin API does it (AIP-158): pageSize defaults to 50 and is coerced to at most 200,
 * `nextPageToken` appears only when more items remain, and a page token only works with the same other
 * parameters as the call that returned it.
 */
import { invalidArgument } from "../http.js";

const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 200;

export interface Page<T> {
  items: T[];
  nextPageToken?: string;
}

function pageSize(url: URL): number {
  const raw = url.searchParams.get("pageSize") ?? url.searchParams.get("page_size");
  if (raw === null || raw === "") return DEFAULT_PAGE_SIZE;
  if (!/^-?\d+$/.test(raw)) throw invalidArgument(`Invalid value at 'page_size' (TYPE_INT32), "${raw}"`);
  const size = Number(raw);
  if (size < 0) throw invalidArgument("page_size must not be negative.");
  if (size === 0) return DEFAULT_PAGE_SIZE;
  return Math.min(size, MAX_PAGE_SIZE);
}

/**
 * `scope` identifies the list and its filtering parameters (e.g. "properties|parent:accounts/1|false"); it is
 * sealed into the token so a token from another list or filter is refused instead of silently misapplied.
 */
export function paginate<T>(items: readonly T[], url: URL, scope: string): Page<T> {
  const size = pageSize(url);
  const token = url.searchParams.get("pageToken") ?? url.searchParams.get("page_token") ?? "";
  let offset = 0;
  if (token !== "") {
    const decoded = decodeToken(token);
    if (decoded.scope !== scope) {
      throw invalidArgument(
        "The page token does not match this request: when paging, every parameter other than pageToken and pageSize must match the call that returned the token.",
      );
    }
    offset = decoded.offset;
  }
  const page = items.slice(offset, offset + size);
  const next = offset + size;
  return next < items.length ? { items: page, nextPageToken: encodeToken(scope, next) } : { items: page };
}

function encodeToken(scope: string, offset: number): string {
  return Buffer.from(JSON.stringify({ s: scope, o: offset })).toString("base64url");
}

function decodeToken(token: string): { scope: string; offset: number } {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
    if (typeof parsed === "object" && parsed !== null && "s" in parsed && "o" in parsed) {
      const { s, o } = parsed;
      if (typeof s === "string" && typeof o === "number" && Number.isInteger(o) && o >= 0) {
        return { scope: s, offset: o };
      }
    }
  } catch {
    // Falls through to the error below: the token was not produced by this server.
  }
  throw invalidArgument("Invalid page token: pass the nextPageToken of the previous response unchanged.");
}

/** Proto3 JSON omits empty repeated fields, so an empty list is `{}` on the wire. */
export function listBody<T>(key: string, page: Page<T>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (page.items.length > 0) body[key] = page.items;
  if (page.nextPageToken) body.nextPageToken = page.nextPageToken;
  return body;
}

export function showDeleted(url: URL): boolean {
  const raw = url.searchParams.get("showDeleted") ?? url.searchParams.get("show_deleted");
  if (raw === null || raw === "" || raw === "false") return false;
  if (raw === "true") return true;
  throw invalidArgument(`Invalid value at 'show_deleted' (TYPE_BOOL), "${raw}"`);
}
