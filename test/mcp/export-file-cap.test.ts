import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type MarketoRecord,
  once,
  type ReadSandbox,
  readKept,
  startReadSandbox,
} from "../helpers/marketo-reads.js";
import { type McpSession, mcpSession } from "../helpers/mcp.js";

/**
 * An export run to completion whose read stopped at a cap (max_items, MARTECH_STEPS_EXPORT_MAX_BYTES)
 * is kept as a file that holds fewer rows than Marketo's file. Its link must not pass for the whole
 * export (issue 27 §2): the whole file's _meta carries the nextCursor where the rest starts, the link and
 * the answer's text say so, and doing what the text says (GET the export's file with that cursor, then
 * on from the kept results) gives, after the linked file's rows, every other row of Marketo's file once.
 * The truth is Marketo's file downloaded whole from the sandbox.
 */
interface PageMeta {
  page?: number | "all";
  items?: number;
  next?: string;
  nextCursor?: string;
}

const leadsExport = (list: number, extra: Record<string, unknown> = {}) => ({
  method: "POST" as const,
  endpoint: "/bulk/v1/leads/export/create.json",
  body: { fields: ["id", "email", "firstName", "company"], format: "CSV", filter: { staticListId: list } },
  run_to_completion: true,
  ...extra,
});

const CONTINUE =
  /the linked file ends where the read stopped: to read the rows after its last one, call GET (\S+) with cursor = the nextCursor in the linked file's _meta/;

let sandbox: ReadSandbox;
beforeAll(async () => {
  sandbox = await startReadSandbox();
});
afterAll(async () => sandbox?.close());

/** The export through MCP on a workspace keeping results and files up to `keptBytes`: its text, links and file. */
async function exportOnce(session: McpSession, args: Record<string, unknown>) {
  const result = (await session.client.callTool({
    name: "marketo_api_call",
    arguments: args,
  })) as CallToolResult;
  const text = result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
  expect(result.isError, text).toBeFalsy();
  const links = result.content.flatMap((block) => (block.type === "resource_link" ? [block] : []));
  const file = (result.structuredContent as { extra?: { file_endpoint?: string } }).extra?.file_endpoint;
  return { text, links, file };
}

/** One resources/read of a link (the file's ?page=all): its text and its page _meta. */
async function readLink(session: McpSession, uri: string): Promise<{ text: string; meta: PageMeta }> {
  const { contents } = await session.client.readResource({ uri });
  expect(contents).toHaveLength(1);
  const [content] = contents as unknown as [{ text: string; _meta: Record<string, PageMeta> }];
  return { text: content.text, meta: content._meta["martech-steps/page"] ?? {} };
}

describe("an export file cut by a cap says where the rest is", () => {
  for (const { cap, keptBytes, args, says } of [
    {
      cap: "max_items",
      keptBytes: 4_000_000,
      args: leadsExport(1001, { max_items: 300 }),
      says: "max_items 300 cut the read: it stopped after 300 rows, before the end of the export",
    },
    {
      cap: "MARTECH_STEPS_EXPORT_MAX_BYTES",
      keptBytes: 30_000,
      args: leadsExport(1006),
      says: "the most one file holds",
    },
  ]) {
    it(`${cap}: the file's _meta and the text name the nextCursor, and reading on as said gives every row once`, async () => {
      const workspace = sandbox.workspace(keptBytes);
      const session = await mcpSession(workspace);
      try {
        const { text, links, file } = await exportOnce(session, args);
        expect(text).toContain(says);
        expect(links.map((link) => [link.mimeType, link.uri.endsWith("?page=all")])).toEqual([
          ["application/json", true],
          ["text/csv", true],
        ]);
        for (const link of links) expect(link.description).toContain("the file ends before the export does");
        expect(text).toContain("The rest of the export is not in it");
        const json = await readLink(session, links[0]?.uri ?? "");
        const csv = await readLink(session, links[1]?.uri ?? "");
        const rows = JSON.parse(json.text) as MarketoRecord[];
        expect(json.meta.nextCursor, "the file's _meta names where the rest starts").toBeDefined();
        expect(csv.meta.nextCursor).toBe(json.meta.nextCursor);
        expect(csv.text.trimEnd().split("\r\n")).toHaveLength(rows.length + 1);

        // Done as the text says: GET the export's file with the file's nextCursor, then on from the kept results.
        const [, endpoint] = CONTINUE.exec(text) ?? [];
        expect(endpoint, text).toBe(file);
        const rest = await readKept(workspace, {
          method: "GET",
          endpoint: endpoint ?? "",
          cursor: json.meta.nextCursor ?? "",
        });
        const truth = once(await sandbox.fileTruth(file ?? ""), "Marketo's file");
        expect(rows.length).toBeLessThan(truth.length);
        expect(once([...rows, ...rest.records], "the linked file and the rows read on")).toEqual(truth);
      } finally {
        await session.close();
      }
    });
  }

  it("an export read whole links all of it, with no nextCursor and no word of a rest", async () => {
    const session = await mcpSession(sandbox.workspace());
    try {
      const { text, links, file } = await exportOnce(session, leadsExport(1002, { max_items: 5_000 }));
      expect(text).toContain("Export file: all 310 records");
      expect(text).not.toMatch(CONTINUE);
      const json = await readLink(session, links[0]?.uri ?? "");
      expect(json.meta.nextCursor).toBeUndefined();
      expect(JSON.parse(json.text)).toEqual(once(await sandbox.fileTruth(file ?? ""), "Marketo's file"));
    } finally {
      await session.close();
    }
  });
});
