/**
 * A kept result as the page reads it: one page at a time ("Load more" appends it to the table), or
 * whole, as a CSV or JSON download. The result is the one MCP links to as
 * martech-steps://results/{id}.json|csv (src/mcp/result-links.ts): same store, same pages, same CSV
 * cells (formulas defused), found only through the workspace that produced it.
 */
import type { ServerResponse } from "node:http";
import { NotFoundError } from "../errors.js";
import { keptFor } from "../keep-result.js";
import { isResultId } from "../results/memory.js";
import { csvPage } from "../results/pages.js";
import type { ResultMeta } from "../results/types.js";
import type { Workspace } from "../workspace.js";
import { secure } from "./http-util.js";

function gone(workspace: Workspace): NotFoundError {
  return new NotFoundError(
    `This result is no longer kept: results are kept ${keptFor(workspace.resultSettings.ttlMs)}, for the workspace that produced them.`,
    { hint: "Run the step again." },
  );
}

async function metaOf(workspace: Workspace, id: string): Promise<ResultMeta> {
  const meta = isResultId(id) ? await workspace.results.meta(workspace.name, id) : undefined;
  if (!meta) throw gone(workspace);
  return meta;
}

/** GET /console/api/results/:id/pages/:n (from 1): the page's items, where it starts, and how many pages there are. */
export async function resultPage(workspace: Workspace, id: string, page: number) {
  const meta = await metaOf(workspace, id);
  if (page < 1 || page > meta.pageItems.length)
    throw new NotFoundError(`The result has no page ${page}: it has ${meta.pageItems.length}.`);
  const json = await workspace.results.page(workspace.name, id, page - 1);
  if (json === undefined) throw gone(workspace);
  const first = meta.pageItems.slice(0, page - 1).reduce((sum, n) => sum + n, 0);
  return { page, pages: meta.pageItems.length, first, items: JSON.parse(json) as unknown[] };
}

/** Every page's text, in order (a page missing meanwhile means the result expired while it was read). */
async function allPages(workspace: Workspace, meta: ResultMeta): Promise<string[]> {
  const pages: string[] = [];
  for (let index = 0; index < meta.pageItems.length; index++) {
    const json = await workspace.results.page(workspace.name, meta.id, index);
    if (json === undefined) throw gone(workspace);
    pages.push(json);
  }
  return pages;
}

/**
 * GET /console/api/results/:id/download/json|csv: the whole result as a file. A result that is gone
 * answers 404 with a sentence (the browser shows it in place of a file).
 */
export async function sendDownload(
  res: ServerResponse,
  workspace: Workspace,
  id: string,
  format: "json" | "csv",
): Promise<void> {
  let meta: ResultMeta;
  let pages: string[];
  try {
    meta = await metaOf(workspace, id);
    pages = await allPages(workspace, meta);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    secure(res);
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
    res.end(error.message);
    return;
  }
  // Each page is a JSON array of whole items: their insides joined make one array.
  const body =
    format === "json"
      ? `[${pages
          .map((json) => json.slice(1, -1))
          .filter(Boolean)
          .join(",")}]`
      : pages.map((json, index) => csvPage(json, meta.csvColumns ?? meta.columns, index === 0)).join("");
  secure(res);
  res.writeHead(200, {
    "content-type": format === "json" ? "application/json; charset=utf-8" : "text/csv; charset=utf-8",
    "content-disposition": `attachment; filename="${meta.tool}-${meta.id}.${format}"`,
    "cache-control": "no-store",
  });
  res.end(body);
}
