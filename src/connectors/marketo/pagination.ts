import { UpstreamError } from "../../errors.js";
import { jsonBytes } from "../../json-size.js";
import { isNoAssetsWarning } from "./envelope.js";
import { pagesByOffset } from "./real-paths.js";
import type {
  CheckedRequest,
  MarketoCallResult,
  MarketoPage,
  PaginateOptions,
  ResumePosition,
} from "./types.js";

export const DEFAULT_MAX_PAGES = 50;
export const DEFAULT_MAX_ITEMS = 10_000;
export const DEFAULT_MAX_BYTES = 200_000;
/** Asset browse calls take maxReturn up to 200 (default 20 on the service; we ask for the most). */
export const DEFAULT_MAX_RETURN = 200;

export interface WalkStep {
  /** The page, without the records a resumed read skips at its start. */
  page: MarketoPage;
  /** Where this page's first record (after the skip) can be read again. */
  at: ResumePosition;
  /** Where the next page starts, undefined at the end. */
  next: ResumePosition | undefined;
}

export type FetchPage = (req: CheckedRequest) => Promise<MarketoPage>;

/**
 * Asset browse calls (the GETs whose operation takes offset and maxReturn in Adobe's Swagger) page by
 * offset; every other call pages by nextPageToken when Marketo returns one.
 */
export function isAssetPaging(req: Pick<CheckedRequest, "method" | "path">): boolean {
  const path = req.path.value;
  return req.method === "GET" && path.startsWith("/rest/asset/") && pagesByOffset(path);
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

/**
 * A page without its first `skip` records (and their record errors, renumbered). A page re-read to
 * resume holds at least the records shown from it, unless the data changed in between: that is said,
 * since the records that moved onto earlier pages are then never read.
 */
function skipped(page: MarketoPage, skip: number): MarketoPage {
  if (skip === 0) return page;
  const shorter =
    page.result.length < skip
      ? [
          `The page this cursor re-reads now holds ${page.result.length} records, fewer than the ${skip} already shown from it: ` +
            "the data changed since, and records may have been missed. Read again from the start (no cursor) to be sure to see them all.",
        ]
      : [];
  return {
    ...page,
    warnings: [...page.warnings, ...shorter],
    result: page.result.slice(skip),
    recordErrors: page.recordErrors
      .filter((e) => e.index >= skip)
      .map((e) => ({ ...e, index: e.index - skip })),
  };
}

export interface WalkOptions {
  /** Records of the first page already read (a resumed read). */
  skip?: number;
  /**
   * Paginating: send asset browse calls offset and the most records per page (maxReturn 200). A single
   * call is sent as written (Marketo then returns 20 from offset 0).
   */
  paging?: boolean;
}

/**
 * Asset API browse calls page with offset/maxReturn, not tokens, and end when fewer than maxReturn
 * items come back or with the "No assets found" warning
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/assets).
 * A skip is folded into the offset: an offset position is exact.
 */
async function* walkOffsets(
  fetchPage: FetchPage,
  req: CheckedRequest,
  options: WalkOptions,
): AsyncGenerator<WalkStep> {
  const given = req.query?.maxReturn;
  const fallback = options.paging ? DEFAULT_MAX_RETURN : MARKETO_DEFAULT_MAX_RETURN;
  const maxReturn = numberParam(given, fallback) || fallback;
  let offset = numberParam(req.query?.offset, 0) + (options.skip ?? 0);
  const sent = (at: number) => ({
    ...req.query,
    ...(options.paging || at > 0 || req.query?.offset !== undefined ? { offset: at } : {}),
    ...(options.paging || given !== undefined ? { maxReturn } : {}),
  });
  for (;;) {
    const page = await fetchPage({ ...req, query: sent(offset) });
    const nextOffset = nextAssetOffset(page, offset, maxReturn);
    const next = nextOffset === undefined ? undefined : { offset: nextOffset };
    yield { page, at: { offset }, next };
    if (!next) return;
    offset = nextOffset as number;
  }
}

/**
 * Lead DB calls page with nextPageToken, re-sending identical parameters
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/paging-tokens).
 * Activity reads always return a token, so `moreResult:false` ends them; their pages may be empty
 * while moreResult is true, so an empty page does not end the read. A token seen before would
 * loop forever: that is reported, not followed.
 */
async function* walkTokens(
  fetchPage: FetchPage,
  req: CheckedRequest,
  options: WalkOptions,
): AsyncGenerator<WalkStep> {
  const first = req.query?.nextPageToken;
  let token = typeof first === "string" && first !== "" ? first : undefined;
  let skip = options.skip ?? 0;
  const seen = new Set<string>(token ? [token] : []);
  for (;;) {
    const page = await fetchPage(token ? { ...req, query: { ...req.query, nextPageToken: token } } : req);
    const nextToken = page.nextPageToken;
    let next: ResumePosition | undefined;
    if (nextToken && page.moreResult !== false) {
      if (seen.has(nextToken)) {
        throw new UpstreamError(
          `Marketo returned a nextPageToken it had already returned while paging ${req.path.value} (a pagination loop); paging stopped.`,
          {
            hint: "Retry later from the last token; if it repeats, narrow the request (e.g. a later sinceDatetime).",
            details: { path: req.path.value, ...(page.requestId ? { requestId: page.requestId } : {}) },
          },
        );
      }
      seen.add(nextToken);
      next = { nextPageToken: nextToken };
    }
    const at = { ...(token ? { nextPageToken: token } : {}), ...(skip > 0 ? { skip } : {}) };
    yield { page: skipped(page, skip), at, next };
    if (!next) return;
    token = nextToken;
    skip = 0;
  }
}

export function walkPages(
  fetchPage: FetchPage,
  req: CheckedRequest,
  options: WalkOptions = {},
): AsyncGenerator<WalkStep> {
  return isAssetPaging(req) ? walkOffsets(fetchPage, req, options) : walkTokens(fetchPage, req, options);
}

/** The position of the record `keep` records into a step's page. */
export function within(at: ResumePosition, keep: number): ResumePosition {
  if (at.offset !== undefined) return { offset: at.offset + keep };
  const skip = (at.skip ?? 0) + keep;
  return { ...(at.nextPageToken ? { nextPageToken: at.nextPageToken } : {}), ...(skip > 0 ? { skip } : {}) };
}

/**
 * The exact position of record `index` of a collected result (the first record not shown, when a
 * caller shows only part of it): `result.next` past the last one, undefined when nothing follows.
 */
export function positionOf(
  result: Pick<MarketoCallResult, "positions" | "next" | "result">,
  index: number,
): ResumePosition | undefined {
  if (index >= result.result.length) return result.next;
  let page = result.positions[0];
  for (const p of result.positions) if (p.index <= index) page = p;
  return page ? within(page.at, index - page.index) : undefined;
}

export interface Caps {
  maxPages: number;
  maxItems: number;
  maxBytes: number;
}

export function capsOf(options: PaginateOptions | undefined, defaults: Caps): Caps {
  return {
    maxPages: options?.maxPages ?? defaults.maxPages,
    maxItems: options?.maxItems ?? defaults.maxItems,
    maxBytes: options?.maxBytes ?? defaults.maxBytes,
  };
}

export const CALL_CAPS: Caps = {
  maxPages: DEFAULT_MAX_PAGES,
  maxItems: DEFAULT_MAX_ITEMS,
  maxBytes: DEFAULT_MAX_BYTES,
};
export const NO_CAPS: Caps = {
  maxPages: Number.POSITIVE_INFINITY,
  maxItems: Number.POSITIVE_INFINITY,
  maxBytes: Number.POSITIVE_INFINITY,
};

export type Stop = { stoppedBy: "maxPages" | "maxItems" | "maxBytes"; next: ResumePosition };

/**
 * Applies the caps to one step: the records to keep of it (a page that passes maxItems is cut there),
 * and where the read stops after it, if it does. Reading stops after the page that reaches maxBytes or
 * maxPages; every stop carries the exact position of the first record not read.
 */
export function capStep(
  step: WalkStep,
  caps: Caps,
  seen: { pages: number; items: number; bytes: number },
): { keep: number; stop: Stop | undefined } {
  const room = caps.maxItems - seen.items;
  const keep = Math.min(step.page.result.length, Math.max(0, room));
  if (keep < step.page.result.length)
    return { keep, stop: { stoppedBy: "maxItems", next: within(step.at, keep) } };
  if (!step.next) return { keep, stop: undefined };
  const pages = seen.pages + 1;
  const items = seen.items + keep;
  const bytes = seen.bytes + (Number.isFinite(caps.maxBytes) ? jsonBytes(step.page.result) : 0);
  if (pages >= caps.maxPages) return { keep, stop: { stoppedBy: "maxPages", next: step.next } };
  if (items >= caps.maxItems) return { keep, stop: { stoppedBy: "maxItems", next: step.next } };
  if (bytes >= caps.maxBytes) return { keep, stop: { stoppedBy: "maxBytes", next: step.next } };
  return { keep, stop: undefined };
}

type Collected = Omit<MarketoCallResult, "callsUsed" | "translatedFrom">;

/** The resume fields a caller can pass back as they are: only at a page boundary. */
function exactFields(
  next: ResumePosition | undefined,
): Pick<MarketoCallResult, "nextPageToken" | "nextOffset"> {
  if (!next || (next.skip ?? 0) > 0) return {};
  return {
    ...(next.nextPageToken !== undefined ? { nextPageToken: next.nextPageToken } : {}),
    ...(next.offset !== undefined ? { nextOffset: next.offset } : {}),
  };
}

/**
 * Collects pages until the end or a cap, keeping where each page starts so that any record's exact
 * position can be given (positionOf); output is capped by size because MCP clients cap a tool
 * result's size.
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
    positions: [],
    complete: false,
    extra: {},
  };
  let bytes = 0;
  for await (const step of steps) {
    const { keep, stop } = capStep(step, caps, { pages: out.pages, items: out.result.length, bytes });
    const { page } = step;
    const kept = page.result.slice(0, keep);
    const base = out.result.length;
    if (kept.length > 0) out.positions.push({ index: base, at: step.at });
    out.result.push(...kept);
    out.warnings.push(...page.warnings.filter((w) => !out.warnings.includes(w)));
    out.recordErrors.push(
      ...page.recordErrors.filter((e) => e.index < keep).map((e) => ({ ...e, index: e.index + base })),
    );
    if (page.requestId) out.requestIds.push(page.requestId);
    Object.assign(out.extra, page.extra);
    out.pages += 1;
    if (Number.isFinite(caps.maxBytes)) bytes += jsonBytes(kept);
    onPage?.({
      page: out.pages,
      items: out.result.length,
      records: kept,
      ...(step.next?.nextPageToken !== undefined ? { nextPageToken: step.next.nextPageToken } : {}),
      ...(step.next?.offset !== undefined ? { offset: step.next.offset } : {}),
    });
    if (stop) return { ...out, ...stop, complete: false, ...exactFields(stop.next) };
    if (!step.next) {
      // Activity reads end with a token that picks up later activity; keep it for the next sync.
      if (page.nextPageToken) out.extra.lastPageToken = page.nextPageToken;
      return { ...out, complete: true };
    }
  }
  return { ...out, complete: true };
}
