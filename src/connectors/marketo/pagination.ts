import { UpstreamError } from "../../errors.js";
import { jsonBytes } from "../../json-size.js";
import { isNoAssetsWarning } from "./envelope.js";
import type { MarketoCallResult, MarketoPage, MarketoRequest, PaginateOptions } from "./types.js";

export const DEFAULT_MAX_PAGES = 50;
export const DEFAULT_MAX_ITEMS = 10_000;
export const DEFAULT_MAX_BYTES = 200_000;
/** Asset browse calls take maxReturn up to 200 (default 20 on the service; we ask for the most). */
export const DEFAULT_MAX_RETURN = 200;

/** Where a page starts: a paging token (Lead DB) or an offset (Asset API). */
export interface Cursor {
  token?: string;
  offset?: number;
}

export interface WalkStep {
  page: MarketoPage;
  /** The position this page was fetched from (to re-fetch it when a cap drops it). */
  cursor: Cursor;
  /** The position of the next page, undefined at the end. */
  next: Cursor | undefined;
}

export type FetchPage = (req: MarketoRequest) => Promise<MarketoPage>;

export function isAssetPaging(req: MarketoRequest): boolean {
  return req.method === "GET" && req.path.startsWith("/rest/asset/");
}

function numberParam(value: unknown, fallback: number): number {
  const n = typeof value === "number" ? value : typeof value === "string" ? Number(value) : Number.NaN;
  return Number.isInteger(n) && n >= 0 ? n : fallback;
}

/** Marketo's own maxReturn when a browse call sends none (REAL-API A5). */
const MARKETO_DEFAULT_MAX_RETURN = 20;

/** Where the next asset page starts, or undefined when this page was the last. */
export function nextAssetOffset(page: MarketoPage, offset: number, maxReturn: number): number | undefined {
  const done = isNoAssetsWarning(page) || page.result.length < maxReturn;
  return done ? undefined : offset + page.result.length;
}

/** The next asset page after one unpaginated browse call, as Marketo paged it. */
export function nextAssetOffsetOf(req: MarketoRequest, page: MarketoPage): number | undefined {
  const maxReturn =
    numberParam(req.query?.maxReturn, MARKETO_DEFAULT_MAX_RETURN) || MARKETO_DEFAULT_MAX_RETURN;
  return nextAssetOffset(page, numberParam(req.query?.offset, 0), maxReturn);
}

/**
 * Asset API browse calls page with offset/maxReturn, not tokens, and end when fewer than maxReturn
 * items come back or with the "No assets found" warning
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/assets).
 */
async function* walkOffsets(fetchPage: FetchPage, req: MarketoRequest): AsyncGenerator<WalkStep> {
  const maxReturn = numberParam(req.query?.maxReturn, DEFAULT_MAX_RETURN) || DEFAULT_MAX_RETURN;
  let offset = numberParam(req.query?.offset, 0);
  for (;;) {
    const page = await fetchPage({ ...req, query: { ...req.query, offset, maxReturn } });
    const nextOffset = nextAssetOffset(page, offset, maxReturn);
    const next = nextOffset === undefined ? undefined : { offset: nextOffset };
    yield { page, cursor: { offset }, next };
    if (!next) return;
    offset = next.offset;
  }
}

/**
 * Lead DB calls page with nextPageToken, re-sending identical parameters
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/paging-tokens).
 * Activity reads always return a token, so `moreResult:false` ends them; their pages may be empty
 * while moreResult is true, so an empty page does not end the read. A token seen before would
 * loop forever: that is reported, not followed.
 */
async function* walkTokens(fetchPage: FetchPage, req: MarketoRequest): AsyncGenerator<WalkStep> {
  const first = req.query?.nextPageToken;
  let token = typeof first === "string" && first !== "" ? first : undefined;
  const seen = new Set<string>(token ? [token] : []);
  for (;;) {
    const page = await fetchPage(token ? { ...req, query: { ...req.query, nextPageToken: token } } : req);
    const nextToken = page.nextPageToken;
    let next: Cursor | undefined;
    if (nextToken && page.moreResult !== false) {
      if (seen.has(nextToken)) {
        throw new UpstreamError(
          `Marketo returned a nextPageToken it had already returned while paging ${req.path} (a pagination loop); paging stopped.`,
          {
            hint: "Retry later from the last token; if it repeats, narrow the request (e.g. a later sinceDatetime).",
            details: { path: req.path, ...(page.requestId ? { requestId: page.requestId } : {}) },
          },
        );
      }
      seen.add(nextToken);
      next = { token: nextToken };
    }
    yield { page, cursor: token ? { token } : {}, next };
    if (!next) return;
    token = next.token;
  }
}

export function walkPages(fetchPage: FetchPage, req: MarketoRequest): AsyncGenerator<WalkStep> {
  return isAssetPaging(req) ? walkOffsets(fetchPage, req) : walkTokens(fetchPage, req);
}

export interface Caps {
  maxPages: number;
  maxItems: number;
  maxBytes: number;
}

export function capsOf(options: PaginateOptions | undefined): Caps {
  return {
    maxPages: options?.maxPages ?? DEFAULT_MAX_PAGES,
    maxItems: options?.maxItems ?? DEFAULT_MAX_ITEMS,
    maxBytes: options?.maxBytes ?? DEFAULT_MAX_BYTES,
  };
}

type Collected = Omit<MarketoCallResult, "callsUsed" | "translatedFrom">;

function resumeFields(cursor: Cursor | undefined): Pick<MarketoCallResult, "nextPageToken" | "nextOffset"> {
  if (!cursor) return {};
  return {
    ...(cursor.token !== undefined ? { nextPageToken: cursor.token } : {}),
    ...(cursor.offset !== undefined ? { nextOffset: cursor.offset } : {}),
  };
}

/**
 * Collects pages until the end or a cap. A page that would exceed maxItems or maxBytes is left out
 * and its own position is returned for resuming (the first page is always kept, so progress is
 * always possible); output is capped by size because MCP clients cap a tool result's size.
 */
export async function collectPages(
  steps: AsyncIterable<WalkStep>,
  caps: Caps,
  onPage: PaginateOptions["onPage"],
): Promise<Collected> {
  const out: Collected = {
    result: [],
    warnings: [],
    recordErrors: [],
    requestIds: [],
    pages: 0,
    complete: false,
    extra: {},
  };
  let bytes = 0;
  const stop = (by: "maxPages" | "maxItems" | "maxBytes", resume: Cursor | undefined): Collected => {
    const where = resume?.token !== undefined ? "nextPageToken" : "nextOffset";
    out.warnings.push(
      `Stopped after ${out.result.length} items by ${by}; more remain: pass ${where} back to continue.`,
    );
    return { ...out, stoppedBy: by, complete: false, ...resumeFields(resume) };
  };
  for await (const step of steps) {
    const { page } = step;
    const pageBytes = jsonBytes(page.result);
    if (out.pages > 0 && out.result.length + page.result.length > caps.maxItems)
      return stop("maxItems", step.cursor);
    if (out.pages > 0 && bytes + pageBytes > caps.maxBytes) return stop("maxBytes", step.cursor);
    const base = out.result.length;
    out.result.push(...page.result);
    out.warnings.push(...page.warnings.filter((w) => !out.warnings.includes(w)));
    out.recordErrors.push(...page.recordErrors.map((e) => ({ ...e, index: e.index + base })));
    if (page.requestId) out.requestIds.push(page.requestId);
    Object.assign(out.extra, page.extra);
    out.pages += 1;
    bytes += pageBytes;
    onPage?.({
      page: out.pages,
      items: out.result.length,
      ...(step.next?.token !== undefined ? { nextPageToken: step.next.token } : {}),
      ...(step.next?.offset !== undefined ? { offset: step.next.offset } : {}),
    });
    if (!step.next) {
      // Activity reads end with a token that picks up later activity; keep it for the next sync.
      if (page.nextPageToken) out.extra.lastPageToken = page.nextPageToken;
      return { ...out, complete: true };
    }
    if (out.pages >= caps.maxPages) return stop("maxPages", step.next);
    if (out.result.length >= caps.maxItems) return stop("maxItems", step.next);
    if (bytes >= caps.maxBytes) return stop("maxBytes", step.next);
  }
  return { ...out, complete: true };
}
