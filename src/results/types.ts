/**
 * Whole results kept for a while so that an agent can read, in pages, what a capped answer could not
 * show (MCP offers them as resource links). Each result belongs to the workspace that produced it and
 * is found only through that workspace; it expires after a TTL, and each workspace keeps a bounded
 * number of them (the oldest go first). Two backends: memory (one process) and Redis (replicas).
 */

/** What is known of a kept result without reading its pages. */
export interface ResultMeta {
  id: string;
  /** The tool step that produced it. */
  tool: string;
  /** records (Marketo), rows (GA reports) or items (a GA list). */
  kind: string;
  /** Column order of the table. */
  columns: string[];
  /** The CSV's columns where some are spread from objects or name/value lists (pages.ts csvColumns); else columns. */
  csvColumns?: string[];
  items: number;
  /** Items per page, in order: page n holds items sum(pageItems[0..n-1]) onwards. */
  pageItems: number[];
  /** Serialized size of all pages. */
  bytes: number;
  createdAt: number;
  expiresAt: number;
  /** Where reading continues after the last item, when the whole read stopped at a cap. */
  nextCursor?: string;
  /** An export's file: kept for the files' lifetime and count (ResultStoreLimits), linked whole. */
  file?: boolean;
  /** The items are those the call kept (where, limit) of this many read. */
  of?: number;
  /** The items are the first of this many results, cut at the most a kept result holds. */
  before?: number;
  /** What stopped the read before its end where no cursor continues it (FullResult.stopped). */
  stopped?: string;
}

export interface NewResult {
  meta: Omit<ResultMeta, "id" | "createdAt" | "expiresAt" | "bytes" | "items" | "pageItems">;
  /** Each page as JSON text (an array of items). */
  pages: { json: string; items: number }[];
}

export interface ResultStoreLimits {
  /** How long a result is kept. */
  ttlMs: number;
  /** Results kept per workspace; the oldest is dropped first. */
  perWorkspace: number;
  /**
   * Export files (`meta.file`), kept apart from other results so that a person has time to download them:
   * how long (default: ttlMs) and how many per workspace (default: perWorkspace), the oldest dropped first.
   */
  fileTtlMs?: number;
  filesPerWorkspace?: number;
}

/** How long a result is kept and how many of its kind a workspace keeps. */
export function lifetimeOf(
  limits: ResultStoreLimits,
  file: boolean | undefined,
): { ttlMs: number; count: number } {
  return file
    ? { ttlMs: limits.fileTtlMs ?? limits.ttlMs, count: limits.filesPerWorkspace ?? limits.perWorkspace }
    : { ttlMs: limits.ttlMs, count: limits.perWorkspace };
}

export interface ResultStore {
  /** Keeps a result for the workspace and returns what is known of it. */
  put(workspace: string, result: NewResult): Promise<ResultMeta>;
  /** The result's description, or undefined when it is unknown to this workspace or has expired. */
  meta(workspace: string, id: string): Promise<ResultMeta | undefined>;
  /** Page `index` (from 0) as JSON text, or undefined. */
  page(workspace: string, id: string, index: number): Promise<string | undefined>;
  close(): Promise<void>;
}
