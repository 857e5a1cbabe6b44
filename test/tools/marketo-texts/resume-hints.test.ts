import { describe, expect, it } from "vitest";
import { adviceCalls } from "./advice.js";

/**
 * The advice on how to go on (a paging token, an offset, a cursor, a kept result's nextCursor, an export
 * file not ready yet) that marketo_api_call's answers and errors give, done as it says through MCP on the
 * sandbox.
 */
const { mkto, ok, refused } = adviceCalls();

describe("the resume advice of answers and errors, done as it says, works", () => {
  const LIST = { method: "GET", endpoint: "/rest/v1/lists/1001/leads.json" };

  it("query_parameters.nextPageToken = next_page_token continues where the page ended", async () => {
    const first = await ok({ ...LIST, query_parameters: { batchSize: 100 }, paginate: true, max_pages: 1 });
    expect(first.warnings.join(" ")).toContain("or query_parameters.nextPageToken = next_page_token");
    const second = await ok({
      ...LIST,
      query_parameters: { batchSize: 100, nextPageToken: first.next_page_token },
    });
    const ids = [...first.result, ...second.result].map((lead) => lead.id);
    expect(new Set(ids).size).toBe(200);
  });

  it("query_parameters.offset = next_offset continues an asset browse", async () => {
    const first = await ok({
      method: "GET",
      endpoint: "/rest/asset/v1/emails.json",
      query_parameters: { maxReturn: 5 },
    });
    // The output schema names it "the offset that continues"; no warning repeats it for a page read whole.
    expect(first.next_offset).toBe(5);
    const second = await ok({
      method: "GET",
      endpoint: "/rest/asset/v1/emails.json",
      query_parameters: { maxReturn: 5, offset: first.next_offset },
    });
    const ids = [...first.result, ...second.result].map((email) => email.id);
    expect(new Set(ids).size).toBe(10);
  });

  it("remove nextPageToken when passing cursor; leave cursor out to start again", async () => {
    const first = await ok({ ...LIST, query_parameters: { batchSize: 100 } });
    const both = await refused({
      ...LIST,
      query_parameters: { batchSize: 100, nextPageToken: first.next_page_token },
      cursor: first.next_cursor,
    });
    expect(both).toContain("Remove nextPageToken from query_parameters when you pass cursor.");
    const next = await ok({ ...LIST, query_parameters: { batchSize: 100 }, cursor: first.next_cursor });
    expect(next.result[0]?.id).not.toBe(first.result[0]?.id);
    const other = await refused({ ...LIST, query_parameters: { batchSize: 50 }, cursor: first.next_cursor });
    expect(other).toContain("leave cursor out to start at the beginning");
    const again = await ok({ ...LIST, query_parameters: { batchSize: 50 } });
    expect(again.result[0]?.id).toBe(first.result[0]?.id);
  });

  it("a kept result's nextCursor (in each page's _meta) continues after what was read", async () => {
    const { links } = await mkto.ok({ ...LIST });
    const link = links[0] ?? { uri: "", description: "no link" };
    expect(link.description).toContain("continue after it with cursor = the nextCursor in each page's _meta");
    const page = (await mkto.session.client.readResource({ uri: link.uri })).contents[0] as {
      text: string;
      _meta: Record<string, { nextCursor?: string; total_items: number }>;
    };
    const meta = page._meta["martech-steps/page"];
    const after = await ok({ ...LIST, cursor: meta?.nextCursor });
    const kept = JSON.parse(page.text) as { id: number }[];
    expect(after.result[0]?.id).toBeGreaterThan(kept.at(-1)?.id ?? Number.POSITIVE_INFINITY);
    expect(meta?.total_items).toBe(300);
  });

  it("an export file not ready: read status, enqueue while Created, poll, then the file is there", async () => {
    const created = await ok({
      method: "POST",
      endpoint: "/bulk/v1/leads/export/create.json",
      body: { fields: ["id"], format: "CSV", filter: { staticListId: 1009 } },
    });
    const id = created.result[0]?.exportId as string;
    const file = { method: "GET", endpoint: `/bulk/v1/leads/export/${id}/file.json` };
    const said = await refused(file);
    expect(said).toContain("while it says Created, enqueue the job (POST …/export/{exportId}/enqueue.json)");
    const status = await ok({ method: "GET", endpoint: `/bulk/v1/leads/export/${id}/status.json` });
    expect(status.result[0]?.status).toBe("Created");
    await ok({ method: "POST", endpoint: `/bulk/v1/leads/export/${id}/enqueue.json` });
    for (let poll = 0; poll < 200; poll += 1) {
      const now = await ok({ method: "GET", endpoint: `/bulk/v1/leads/export/${id}/status.json` });
      if (now.result[0]?.status === "Completed") break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect((await ok(file)).result).toHaveLength(5);
  });
});
