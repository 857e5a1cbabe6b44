/**
 * What an MCP client can do with the installed server, read through the client only: every listed tool,
 * resource, resource template and prompt, and every resource a result links to, page by page. Imports
 * nothing from the checkout's src/ (test/architecture/packed-imports.test.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { CallToolResult, Client, ReadResourceResult } from "@modelcontextprotocol/client";
import { CHECKOUT } from "./packed.js";

type JsonObject = Record<string, unknown>;

/** A committed step as tools/list serves it: tool-schemas/<id>.json, in tool-schemas/index.json's order. */
export function committedTools(): JsonObject[] {
  const read = (name: string) => JSON.parse(readFileSync(join(CHECKOUT, "tool-schemas", name), "utf8"));
  return (read("index.json") as string[]).map((id) => read(`${id}.json`) as JsonObject);
}

/** The manifest.json the package ships, as committed. */
export function committedManifest(): { steps: { id: string; title: string; annotations: unknown }[] } {
  return JSON.parse(readFileSync(join(CHECKOUT, "manifest.json"), "utf8"));
}

/** Every item of a paged MCP list (tools, resources, templates, prompts), following nextCursor. */
export async function listAll<T>(
  list: (params: { cursor?: string }) => Promise<{ nextCursor?: string | undefined }>,
  key: string,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = (await list(cursor === undefined ? {} : { cursor })) as { nextCursor?: string } & JsonObject;
    items.push(...(page[key] as T[]));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return items;
}

export interface ReadContent {
  uri: string;
  mimeType?: string | undefined;
  text?: string | undefined;
  blob?: string | undefined;
  _meta?: JsonObject | undefined;
}

/** Reads a resource and fails unless it answers at least one content with something in it, under its URI. */
export async function readSome(client: Client, uri: string): Promise<ReadContent[]> {
  const { contents } = (await client.readResource({ uri })) as ReadResourceResult;
  const read = contents as ReadContent[];
  if (read.length === 0) throw new Error(`resources/read ${uri} answered no content`);
  for (const content of read) {
    if (!(content.text ?? content.blob)) throw new Error(`resources/read ${uri} answered an empty content`);
    if (content.uri !== uri) throw new Error(`resources/read ${uri} answered a content of ${content.uri}`);
  }
  return read;
}

/** The page metadata the server puts on each page of a kept result. */
interface PageMeta {
  page: number;
  pages: number;
  items: number;
  total_items: number;
  next?: string;
}

/** A kept result linked from an answer, every page of it read in order by following each page's `next`. */
export interface LinkedResult {
  uri: string;
  mimeType: string | undefined;
  pages: ReadContent[];
  meta: PageMeta[];
}

/** Every resource_link of a tool result, each read whole (page by page). */
export async function readLinks(client: Client, result: CallToolResult): Promise<LinkedResult[]> {
  const links = result.content.filter((block) => block.type === "resource_link");
  const read: LinkedResult[] = [];
  for (const link of links) {
    const linked: LinkedResult = { uri: link.uri, mimeType: link.mimeType, pages: [], meta: [] };
    for (let uri: string | undefined = link.uri; uri !== undefined; ) {
      const [content] = await readSome(client, uri);
      const meta = content?._meta?.["martech-steps/page"] as PageMeta | undefined;
      if (!content || !meta) throw new Error(`${uri} has no page metadata`);
      linked.pages.push(content);
      linked.meta.push(meta);
      uri = meta.next;
    }
    read.push(linked);
  }
  return read;
}

/** A URI template's variables as "one segment of anything": whether `uri` is one of its resources. */
export function matchesTemplate(template: string, uri: string): boolean {
  const pattern = template
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("[^/?#]+");
  return new RegExp(`^${pattern}(\\?.*)?$`).test(uri);
}
