/**
 * Whole results of capped answers, offered as MCP resources: the answer carries `resource_link` blocks
 * (JSON, and CSV for tables) to a result kept in the workspace's store, which `resources/read` serves
 * in pages of the same size as an answer. A result is found only through the workspace that produced
 * it (another workspace's read is "not found"), for a bounded time.
 */
import {
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  ResourceNotFoundError,
  ResourceTemplate,
} from "@modelcontextprotocol/server";
import { keptFor } from "../keep-result.js";
import { csvPage } from "../results/pages.js";
import { lifetimeOf, type ResultMeta } from "../results/types.js";
import type { Workspace } from "../workspace.js";
import type { ResourceProvider } from "./resource-provider.js";

const BASE = "martech-steps://results/";
const FORMATS = { json: "application/json", csv: "text/csv" } as const;
/** The _meta key of a kept result's read: its page, its size, and where reading continues. */
const PAGE_META = "martech-steps/page";
type Format = keyof typeof FORMATS;

export const resultUri = (id: string, format: Format, page: number | "all" = 1) =>
  `${BASE}${id}.${format}${page === "all" || page > 1 ? `?page=${page}` : ""}`;

const count = (n: number) => n.toLocaleString("en-US");
/** How long this kept result lasts: an export's file the files' lifetime, any other the results'. */
export function ttlOf(workspace: Workspace, meta: Pick<ResultMeta, "file">): number {
  return lifetimeOf(workspace.resultSettings, meta.file).ttlMs;
}

function pagesWords(meta: ResultMeta, format: Format): string {
  const pages = meta.pageItems.length;
  if (pages === 1) return "in one page";
  // Two pages: page 2 is the last, not "?page=2 … ?page=2" (trial s36 read it as a range).
  return `in ${pages} pages: this URI is page 1, then ${resultUri(meta.id, format, 2)}${pages > 2 ? ` … ?page=${pages}` : ""}`;
}

/**
 * An export's file: one CSV (the header once, then every row) and one JSON array, each a single resource
 * (?page=all) a person can save as it is. When the read stopped at a cap (max_items, the file's size
 * limit) the file holds the rows before it: the link and the text say so and where the rest is (the
 * nextCursor every read of it carries in _meta), so that no one takes it for the whole export.
 */
function fileLinks(meta: ResultMeta, ttlMs: number) {
  const what = `${count(meta.items)} ${meta.kind}${keptOf(meta)}`;
  const rest = meta.nextCursor
    ? ` The read stopped at a cap, so the file ends before the export does: the rest continues after its last row with cursor = the nextCursor in its _meta (${PAGE_META}), as the text of the answer says.`
    : "";
  const links = (Object.keys(FORMATS) as Format[]).map((format) => ({
    type: "resource_link" as const,
    uri: resultUri(meta.id, format, "all"),
    name: `${meta.tool}-${meta.id}.${format}`,
    title: `Export file: ${what}${meta.nextCursor ? ", the rows read before a cap" : ""} (${format.toUpperCase()})`,
    description:
      `${meta.of !== undefined ? "The" : "The export's"} ${what} as one ${format === "csv" ? "CSV file, the header once" : "JSON array"}. Read with resources/read ` +
      `(in pages of an answer's size: ${meta.pageItems.length > 1 ? `?page=1 … ?page=${meta.pageItems.length}` : "one page"}); kept ${keptFor(ttlMs)}, for this workspace only.${rest}`,
    mimeType: FORMATS[format],
  }));
  const text = meta.nextCursor
    ? `Export file: the ${what} read before the read stopped at a cap, as one CSV at ${links[1]?.uri} and as JSON at ${links[0]?.uri}; ` +
      `read them with resources/read (kept ${keptFor(ttlMs)}). The rest of the export is not in it: each read of it carries, in ` +
      `_meta "${PAGE_META}", the nextCursor that continues after its last row.`
    : `Export file: all ${what} as one CSV at ${links[1]?.uri} and as JSON at ${links[0]?.uri}; ` +
      `read them with resources/read (kept ${keptFor(ttlMs)}).`;
  return { links, text };
}

/**
 * " (kept by the call's where or limit, of 1,250 read)": a result that is not all that was read says so; one the
 * most a kept result holds cut says that instead (review s36, 5: it named where or limit on a call with neither).
 */
const keptOf = (meta: ResultMeta) =>
  meta.before !== undefined
    ? ` (the first of ${count(meta.before)} results, the most a kept result holds${meta.of !== undefined ? `; ${count(meta.of)} read` : ""})`
    : meta.of !== undefined
      ? ` (kept by the call's where or limit, of ${count(meta.of)} read)`
      : "";

/** The resource_link blocks of a kept result, and the sentence that says the same in the text. */
export function resultLinks(meta: ResultMeta, ttlMs: number) {
  if (meta.file) return fileLinks(meta, ttlMs);
  const what = `${count(meta.items)} ${meta.kind}${keptOf(meta)}`;
  // A write's statuses were answered, not read (issue 27 §4: "records read" is never used for writes), and
  // what where or limit kept is not all that was read (review s22, finding 4).
  const read = meta.kind === "statuses" || meta.of !== undefined ? "" : " read";
  const more = meta.nextCursor
    ? " The read itself stopped before its end (one page without paginate, or a cap): continue after it with cursor = the nextCursor in each page's _meta."
    : meta.stopped
      ? ` The read itself stopped before its end (${meta.stopped}).`
      : "";
  const links = (Object.keys(FORMATS) as Format[]).map((format) => ({
    type: "resource_link" as const,
    uri: resultUri(meta.id, format),
    name: `${meta.tool}-${meta.id}.${format}`,
    title: `Full result: ${what} (${format.toUpperCase()})`,
    description: `All ${what}${read}, ${pagesWords(meta, format)}. Read with resources/read; kept ${keptFor(ttlMs)}, for this workspace only.${more}`,
    mimeType: FORMATS[format],
  }));
  const text =
    `Full result: all ${what}${read}, at ${links[0]?.uri} (JSON) and ${links[1]?.uri} (CSV), ` +
    // ?page=all said here too: agents read page 1 only to learn of it from its _meta (trial s31, N438, both runs).
    `${meta.pageItems.length === 1 ? "in one page" : `in ${meta.pageItems.length} pages (add ?page=2${meta.pageItems.length > 2 ? ` … ?page=${meta.pageItems.length}` : ""}, or ?page=all for all at once)`}; ` +
    `read them with resources/read (kept ${keptFor(ttlMs)}).${more}`;
  return { links, text };
}

/**
 * id, format and page of a result URI; undefined when it is none; a string saying what is wrong with
 * its page parameter when only that is wrong (the result may well exist).
 */
function parse(uri: URL): { id: string; format: Format; page: number | "all" } | string | undefined {
  const match = /^\/([A-Za-z0-9_-]{1,64})\.(json|csv)$/.exec(uri.pathname);
  if (uri.host !== "results" || !match) return undefined;
  const raw = uri.searchParams.get("page");
  if (raw === "all") return { id: match[1] as string, format: match[2] as Format, page: "all" };
  // Digits only: Number() would also read "0x2", "2e0" or " 2" as a page.
  const page = raw === null ? 1 : /^[0-9]{1,9}$/.test(raw) ? Number(raw) : 0;
  if (page < 1) {
    return `?page=${raw?.slice(0, 20) ?? ""} is not a page of a kept result: page is a whole number from 1 (leave it out for page 1).`;
  }
  return { id: match[1] as string, format: match[2] as Format, page };
}

async function read(workspace: Workspace, uri: URL): Promise<ReadResourceResult> {
  const shown = uri.href.slice(0, 200);
  const settings = workspace.resultSettings;
  const gone =
    `No kept result at ${shown}: results are kept for ${keptFor(settings.ttlMs)} (export files ${keptFor(settings.fileTtlMs)}), ` +
    "and only for the workspace that produced them. Run the step again.";
  const target = parse(uri);
  if (!target) throw new ResourceNotFoundError(uri.href, `No kept result at ${shown}.`);
  if (typeof target === "string") throw new ProtocolError(ProtocolErrorCode.InvalidParams, target);
  const meta = await workspace.results.meta(workspace.name, target.id);
  if (!meta) throw new ResourceNotFoundError(uri.href, gone);
  if (target.page === "all") return whole(workspace, uri, meta, target.format, gone);
  const pages = meta.pageItems.length;
  if (target.page > pages) {
    throw new ResourceNotFoundError(
      uri.href,
      `${shown} has no page ${target.page}: the result has ${pages}.`,
    );
  }
  const json = await workspace.results.page(workspace.name, target.id, target.page - 1);
  if (json === undefined) throw new ResourceNotFoundError(uri.href, gone);
  const first = meta.pageItems.slice(0, target.page - 1).reduce((sum, n) => sum + n, 0);
  // Every CSV page starts with its header row: a page is read on its own, often without page 1.
  const text = target.format === "json" ? json : csvPage(json, meta.csvColumns ?? meta.columns, true);
  const items = meta.pageItems[target.page - 1] ?? 0;
  return {
    contents: [
      {
        uri: uri.href,
        mimeType: FORMATS[target.format],
        text,
        _meta: {
          [PAGE_META]: {
            page: target.page,
            pages,
            first_item: first + 1,
            items,
            total_items: meta.items,
            ...(target.page < pages ? { next: resultUri(meta.id, target.format, target.page + 1) } : {}),
            ...(meta.nextCursor ? { nextCursor: meta.nextCursor } : {}),
          },
        },
      },
      ...(pages > 1
        ? [
            {
              uri: uri.href,
              mimeType: "text/plain",
              text: pageWords(meta, { format: target.format, page: target.page }, first, items),
            },
          ]
        : []),
    ],
  };
}

/**
 * What a page of a result of several pages is, in words beside it: a model reads a resource's text, not its
 * _meta, and read page 1 of a "Full result" CSV (1,301 of 4,998 leads) as the whole (trial s14, N110).
 */
function pageWords(
  meta: ResultMeta,
  target: { format: Format; page: number },
  first: number,
  items: number,
): string {
  const pages = meta.pageItems.length;
  const where =
    target.page < pages
      ? `The next page is ${resultUri(meta.id, target.format, target.page + 1)} (pages run to ?page=${pages}); ` +
        `the whole result as one ${target.format.toUpperCase()} is ${resultUri(meta.id, target.format, "all")}.`
      : "This is the last page.";
  return (
    `Page ${target.page} of ${pages} of this result: ${meta.kind} ${count(first + 1)}–${count(first + items)} ` +
    `of ${count(meta.items)}. ${where}`
  );
}

/** A kept result whole, as one content: the pages' items joined into one JSON array, or one CSV with one header. */
async function whole(
  workspace: Workspace,
  uri: URL,
  meta: ResultMeta,
  format: Format,
  gone: string,
): Promise<ReadResourceResult> {
  const pages: string[] = [];
  for (let index = 0; index < meta.pageItems.length; index++) {
    const json = await workspace.results.page(workspace.name, meta.id, index);
    if (json === undefined) throw new ResourceNotFoundError(uri.href, gone);
    pages.push(json);
  }
  const text =
    format === "json"
      ? `[${pages
          .map((json) => json.slice(1, -1))
          .filter(Boolean)
          .join(",")}]`
      : pages.map((json, index) => csvPage(json, meta.csvColumns ?? meta.columns, index === 0)).join("");
  return {
    contents: [
      {
        uri: uri.href,
        mimeType: FORMATS[format],
        text,
        _meta: {
          [PAGE_META]: {
            page: "all",
            pages: meta.pageItems.length,
            first_item: 1,
            items: meta.items,
            total_items: meta.items,
            // The whole of a result whose read stopped at a cap (an export file cut by max_items or its size
            // limit) says where the rest is, as each of its pages does.
            ...(meta.nextCursor ? { nextCursor: meta.nextCursor } : {}),
          },
        },
      },
    ],
  };
}

/** The kept results of the server's workspace, as `martech-steps://results/{id}.json|csv[?page=n|all]`. */
export const resultResources: ResourceProvider = (server: McpServer, { workspace }) => {
  server.registerResource(
    "result",
    // Not listed: results are a workspace's own and short-lived; they are reached through their links.
    new ResourceTemplate(`${BASE}{id}.{format}`, { list: undefined }),
    {
      title: "Kept tool result",
      description:
        "The whole result of a capped tool answer (from its resource_link), as JSON or CSV, in pages: ?page=2 and on.",
    },
    (uri) => read(workspace, uri),
  );
};
