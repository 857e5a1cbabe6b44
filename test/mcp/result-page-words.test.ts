/**
 * Issue 27 (trial s14, N110): a model reads a resource's text, not its _meta. Page 1 of a "Full result" CSV
 * (1,301 of 4,998 leads) said nothing of the pages after it, and the agent took it for the whole. Invariant:
 * following the words beside each page alone (no _meta) reads every item exactly once, the words' ranges tile
 * 1…total, and the whole result they name (?page=all) holds the same items.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { marketoOverMcp } from "../helpers/marketo-mcp.js";

/** Static list 1001 of the sandbox: 1,250 members. */
const MEMBERS = 1_250;
const WORDS =
  /^Page (\d+) of (\d+) of this result: \w+ ([\d,]+)–([\d,]+) of ([\d,]+)\. (?:The next page is (\S+) \(pages run to \?page=\d+\); the whole result as one (?:CSV|JSON) is (\S+)\.|This is the last page\.)$/;
const number = (s: string | undefined) => Number((s ?? "").replaceAll(",", ""));

const mkto = marketoOverMcp({});

async function links() {
  const result = (await mkto.session.client.callTool({
    name: "marketo_api_call",
    arguments: { method: "GET", endpoint: "/rest/v1/lists/1001/leads.json", paginate: true },
  })) as CallToolResult;
  expect(result.isError).toBeFalsy();
  return result.content.flatMap((block) => (block.type === "resource_link" ? [block.uri] : []));
}

describe("each page of a result of several pages says which it is and where the rest is", () => {
  it.each([
    ["JSON", 0],
    ["CSV", 1],
  ] as const)("%s: the words alone lead through every item, once", async (_format, index) => {
    const first = (await links())[index] ?? "";
    let uri: string | undefined = first;
    let next = 1;
    let items = 0;
    let all: string | undefined;
    while (uri) {
      const { contents } = await mkto.session.client.readResource({ uri });
      expect(contents).toHaveLength(2);
      const [data, words] = contents as unknown as [{ text: string }, { text: string; mimeType: string }];
      expect(words.mimeType).toBe("text/plain");
      const said = WORDS.exec(words.text);
      expect(said, words.text).not.toBeNull();
      const [from, to, total] = [number(said?.[3]), number(said?.[4]), number(said?.[5])];
      expect([from, total]).toEqual([next, MEMBERS]);
      const rows = index === 0 ? JSON.parse(data.text).length : data.text.trimEnd().split("\r\n").length - 1;
      expect(to - from + 1).toBe(rows);
      items += rows;
      next = to + 1;
      all ??= said?.[7];
      uri = said?.[6];
    }
    expect(items).toBe(MEMBERS);
    const whole = await mkto.session.client.readResource({ uri: all ?? "" });
    expect(whole.contents).toHaveLength(1);
    const text = (whole.contents[0] as { text: string }).text;
    const wholeRows = index === 0 ? JSON.parse(text).length : text.trimEnd().split("\r\n").length - 1;
    expect(wholeRows).toBe(MEMBERS);
  });
});

/** A read of lists' members whose answer shows part: what it shows is page 1 of its kept result, to the record. */
async function showsFirstPage(lists: readonly number[], fields: string): Promise<void> {
  const result = (await mkto.session.client.callTool({
    name: "marketo_api_call",
    arguments: {
      method: "GET",
      endpoint: "/rest/v1/lists/{listId}/leads.json",
      query_parameters: { listId: lists, fields },
      paginate: true,
    },
  })) as CallToolResult;
  const shown = (result.structuredContent as { result: unknown[] }).result;
  const uri = result.content.flatMap((block) => (block.type === "resource_link" ? [block.uri] : []))[0];
  if (uri === undefined) return;
  const page = async (at: string) =>
    JSON.parse(((await mkto.session.client.readResource({ uri: at })).contents[0] as { text: string }).text);
  const all = (await page(`${uri}?page=all`)) as unknown[];
  expect(shown.length < all.length ? await page(uri) : all).toEqual(shown);
}

describe("an answer that shows part of a kept result shows its first page, no record more", () => {
  // Trial s36 N531: the answer showed 1,746 records and page 1 held 1,745; page 2, read for the rest, began with
  // the last one shown, and the agent counted it twice.
  it("on the trial's read", async () => {
    await showsFirstPage([1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009], "id");
  });

  it("whatever the read (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.subarray([1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009], { minLength: 2 }),
        fc.constantFrom("id", "id,email", "id,email,leadScore,updatedAt"),
        showsFirstPage,
      ),
      { numRuns: 6 },
    );
  });
});
