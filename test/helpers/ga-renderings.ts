/**
 * How Run Reports' renderings are read back in the property tests: the text form's tables (src/mcp/result-text.ts)
 * and the whole result's JSON and CSV links (src/results/pages.ts), read with resources/read page by page.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect } from "vitest";
import type { Row } from "./ga-properties.js";

/** A cell as the text form writes it (src/mcp/result-text.ts): strings escaped, numbers as written, null empty. */
const textCell = (value: unknown) =>
  value === null || value === undefined
    ? ""
    : (typeof value === "string" ? value : JSON.stringify(value)).replace(/[\\\t\n\r]/g, (c) =>
        c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r",
      );

/** The `name (N, tab-separated):` table of the text form: its header and lines. */
export function textTable(
  answerText: string,
  name: string,
): { header: string[]; lines: string[][] } | undefined {
  const lines = answerText.split("\n");
  const at = lines.findIndex((line) => line.startsWith(`${name} (`));
  if (at < 0) return undefined;
  const count = Number(/\((\d+), tab-separated\)/.exec(lines[at] ?? "")?.[1]);
  const table = lines.slice(at + 1, at + 2 + count).map((line) => line.split("\t"));
  return { header: table[0] ?? [], lines: table.slice(1) };
}

export function expectTable(answerText: string, name: string, rows: Row[]): void {
  const table = textTable(answerText, name);
  if (rows.length === 0) {
    expect(table).toBeUndefined();
    return;
  }
  expect(table?.lines).toHaveLength(rows.length);
  rows.forEach((row, i) => {
    expect(table?.lines[i], `${name}[${i}]`).toEqual(table?.header.map((column) => textCell(row[column])));
  });
}

/** A cell as the kept CSV writes it (src/results/pages.ts): formulas defused, numbers as written, null empty. */
export const csvCell = (value: unknown) =>
  value === null || value === undefined
    ? ""
    : typeof value === "string"
      ? /^[=+\-@\t\r]/.test(value) && !/^-(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value)
        ? `'${value}`
        : value
      : String(value);

export async function linked(
  client: Client,
  result: CallToolResult,
  format: "json" | "csv",
): Promise<string[]> {
  const link = result.content.find(
    (block) => block.type === "resource_link" && block.uri.endsWith(`.${format}`),
  ) as { uri: string } | undefined;
  if (!link) return [];
  const texts: string[] = [];
  let uri: string | undefined = link.uri;
  while (uri) {
    const read = await client.readResource({ uri });
    const content = read.contents[0] as { text: string; _meta?: Record<string, { next?: string }> };
    texts.push(content.text);
    uri = content._meta?.["martech-steps/page"]?.next;
  }
  return texts;
}
