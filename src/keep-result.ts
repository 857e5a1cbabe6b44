/**
 * Keeping a step's whole result in the workspace's store, which every adapter does the same way: the MCP
 * server links it as resources (src/mcp/result-links.ts), the console offers it as files.
 */
import { columnsOf, toPages } from "./results/pages.js";
import type { ResultMeta } from "./results/types.js";
import { durationWords } from "./tools/output-cap.js";
import type { FullResult, KeptResult } from "./tools/types.js";
import type { Workspace } from "./workspace.js";

/** How long results are kept, in words: seconds under a minute (a short TTL read "0 minutes"), hours past two. */
export const keptFor = durationWords;

/** A kept result's items, every page (ToolContext.keptItems): undefined when unknown or expired. */
export function keptItemsOf(workspace: Workspace): (id: string) => Promise<KeptResult | undefined> {
  return async (id) => {
    const meta = await workspace.results.meta(workspace.name, id);
    if (!meta) return undefined;
    const items: unknown[] = [];
    for (let index = 0; index < meta.pageItems.length; index += 1) {
      const json = await workspace.results.page(workspace.name, id, index);
      if (json === undefined) return undefined;
      items.push(...(JSON.parse(json) as unknown[]));
    }
    // Cut at the most a kept result holds, or a read that stopped at a cap: not every item the call had.
    const cut =
      meta.before !== undefined
        ? `holds the first ${meta.items} of ${meta.before} results (the most a kept result holds)`
        : meta.nextCursor !== undefined
          ? `holds the ${meta.items} items read before the read stopped at a cap`
          : undefined;
    return { items, ...(cut ? { cut } : {}), ...(meta.kind === "rows" ? { rows: true } : {}) };
  };
}

/** Keeps a step's whole result in the workspace's store. */
export async function keepResult(workspace: Workspace, tool: string, full: FullResult): Promise<ResultMeta> {
  return workspace.results.put(workspace.name, {
    meta: {
      tool,
      kind: full.kind,
      columns: columnsOf(full.items, full.columns),
      ...(full.nextCursor ? { nextCursor: full.nextCursor } : {}),
      ...(full.file ? { file: true } : {}),
      ...(full.of !== undefined ? { of: full.of } : {}),
      ...(full.before !== undefined ? { before: full.before } : {}),
    },
    pages: toPages(full.items),
  });
}
