/**
 * Keeping a step's whole result in the workspace's store, which every adapter does the same way: the MCP
 * server links it as resources (src/mcp/result-links.ts), the console offers it as files.
 */
import { processRedactor } from "./redact.js";
import { isResultId } from "./results/memory.js";
import { columnsOf, csvColumns, toPages } from "./results/pages.js";
import type { ResultMeta } from "./results/types.js";
import { durationWords } from "./tools/output-cap.js";
import type { FullResult, KeptResult } from "./tools/types.js";
import type { Workspace } from "./workspace.js";

/** How long results are kept, in words: seconds under a minute (a short TTL read "0 minutes"), hours past two. */
export const keptFor = durationWords;

/**
 * A kept result's description and items, every page: undefined when the id is none, unknown to the workspace, or
 * expired while read. What the console continues (run-results.ts) and a step reads back (keptItemsOf).
 */
export async function readKept(
  workspace: Workspace,
  id: string,
): Promise<{ meta: ResultMeta; items: unknown[] } | undefined> {
  const meta = isResultId(id) ? await workspace.results.meta(workspace.name, id) : undefined;
  if (!meta) return undefined;
  const items: unknown[] = [];
  for (let index = 0; index < meta.pageItems.length; index++) {
    const json = await workspace.results.page(workspace.name, id, index);
    if (json === undefined) return undefined;
    items.push(...(JSON.parse(json) as unknown[]));
  }
  return { meta, items };
}

/** A kept result's items, every page (ToolContext.keptItems): undefined when unknown or expired. */
export function keptItemsOf(workspace: Workspace): (id: string) => Promise<KeptResult | undefined> {
  return async (id) => {
    const read = await readKept(workspace, id);
    if (!read) return undefined;
    const { meta, items } = read;
    // Cut at the most a kept result holds, or a read that stopped at a cap: not every item the call had.
    const [count, before] = [meta.items, meta.before ?? 0].map((x) => x.toLocaleString("en-US"));
    const cut =
      meta.before !== undefined
        ? `holds the first ${count} of ${before} results (the most a kept result holds)`
        : meta.nextCursor !== undefined
          ? `holds the ${count} items read before the read stopped (one page without paginate, or max_pages or max_items)`
          : meta.stopped !== undefined
            ? `holds the ${count} items read before the read stopped (${meta.stopped})`
            : undefined;
    return { items, ...(cut ? { cut } : {}), ...(meta.kind === "rows" ? { rows: true } : {}) };
  };
}

/** Keeps a step's whole result in the workspace's store. */
export async function keepResult(workspace: Workspace, tool: string, full: FullResult): Promise<ResultMeta> {
  // A column's name comes from the items' keys, which the pages' backstop redacts (toPages): the names are too
  // (review s40, 2: a spread name shown in the CSV header while the JSON withheld it).
  const columns = processRedactor.value(columnsOf(full.items, full.columns));
  const spread = processRedactor.value(csvColumns(full.items, columns));
  return workspace.results.put(workspace.name, {
    meta: {
      tool,
      kind: full.kind,
      columns,
      ...(spread ? { csvColumns: spread } : {}),
      ...(full.nextCursor ? { nextCursor: full.nextCursor } : {}),
      ...(full.file ? { file: true } : {}),
      ...(full.of !== undefined ? { of: full.of } : {}),
      ...(full.before !== undefined ? { before: full.before } : {}),
      // Kept as what stopped it: a group read's words begin with the stop itself, which the link and a refusal say.
      ...(full.stopped !== undefined
        ? { stopped: full.stopped.replace(/^the read stopped before its end:\s*/i, "") }
        : {}),
    },
    pages: toPages(full.items, undefined, full.shown),
  });
}
