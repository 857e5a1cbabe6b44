import { describe, expect, it } from "vitest";
import { marketoOverMcp } from "../helpers/marketo-mcp.js";

/**
 * Trial s15, N131: an export of a list's 12 members showed "the first 10 rows … as a preview" with complete
 * false and a cursor; the agent took the export for unfinished and read the file again. An export file of
 * 25 rows or fewer, or of rows that take 4,000 characters or fewer (trial s23, N292: 25 of 27 short rows), is
 * shown whole beside its link, complete, with no cursor, the same rows as the file; a longer one shows 10 and
 * says the file has them all.
 */
interface Answer {
  result: Record<string, unknown>[];
  complete: boolean;
  next_cursor?: string;
}
const mkto = marketoOverMcp({});
const exportList = (list: number) =>
  mkto.ok<Answer>({
    method: "POST",
    endpoint: "/bulk/v1/leads/export/create.json",
    body: { fields: ["id", "email"], format: "CSV", filter: { staticListId: list } },
    run_to_completion: true,
  });
const members = async (list: number) =>
  (
    await mkto.ok<{ computed?: { read: number } }>({
      method: "GET",
      endpoint: `/rest/v1/lists/${list}/leads.json`,
      query_parameters: { fields: "id" },
      paginate: true,
      max_pages: 200,
      count_by: "id",
      min_count: 2,
    })
  ).data.computed?.read ?? 0;

describe("an export file's rows in the answer", () => {
  it("are all shown when the file has 25 or fewer or short ones, and 10 with the file's word when it has more", async () => {
    const sizes = new Map<number, number>();
    for (let list = 1001; list <= 1010; list += 1) sizes.set(list, await members(list));
    const small = [...sizes].find(([, size]) => size > 10 && size <= 25);
    // Long enough that its rows take more than 4,000 characters (id and email: 20 to 30 each as text).
    const large = [...sizes].find(([, size]) => size > 200);
    const medium = [...sizes].find(([, size]) => size > 25 && size <= 60);
    expect(small, JSON.stringify([...sizes])).toBeDefined();
    expect(large).toBeDefined();
    expect(medium).toBeDefined();

    const whole = await exportList(small?.[0] ?? 0);
    expect(whole.data.result).toHaveLength(small?.[1] ?? -1);
    expect(whole.data.complete).toBe(true);
    expect(whole.data.next_cursor).toBeUndefined();
    expect(whole.first).toContain(`all ${small?.[1]} rows are shown here and in the file linked below`);
    const csv = (await mkto.whole(whole.links[1]?.uri ?? "")).trimEnd().split("\r\n").slice(1);
    expect(csv.map((line) => Number(line.split(",")[0]))).toEqual(whole.data.result.map((r) => Number(r.id)));

    // More than 25 short rows, 4,000 characters or fewer: shown whole too (trial s23, N292).
    const short = await exportList(medium?.[0] ?? 0);
    expect(short.data.result).toHaveLength(medium?.[1] ?? -1);
    expect(short.first).toContain(`all ${medium?.[1]} rows are shown here and in the file linked below`);

    // Rows measured as the text shows them (one tab-separated line each), not as JSON: 100 to 150 ids and emails
    // take under 4,000 characters so, about twice that as JSON (review s27, finding 13).
    const textSized = [...sizes].find(([, size]) => size > 100 && size <= 150);
    expect(textSized).toBeDefined();
    const asText = await exportList(textSized?.[0] ?? 0);
    expect(asText.data.result).toHaveLength(textSized?.[1] ?? -1);
    expect(JSON.stringify(asText.data.result).length).toBeGreaterThan(4_000);

    const cut = await exportList(large?.[0] ?? 0);
    expect(cut.data.result).toHaveLength(10);
    expect(cut.first).toContain("the first 10 rows are shown here as a preview");
    expect(cut.first).toContain(`all ${large?.[1].toLocaleString("en-US")} are in the file linked below`);
  }, 120_000);

  it("a file read by GET, sorted, is linked as CSV too, with the rows as shown (trial s23, N290)", async () => {
    // A list no other test exports here (an export with the same body would be reused, with no new id).
    const made = await exportList(1009);
    const id = (made.data as Answer & { extra?: { exportId?: string } }).extra?.exportId;
    expect(id).toBeDefined();
    const read = await mkto.ok<Answer>({
      method: "GET",
      endpoint: `/bulk/v1/leads/export/${id}/file.json`,
      order_by: "-id",
    });
    expect(read.first).toContain("and in the file linked below");
    const csvLink = read.links.find((link) => link.uri.includes(".csv"));
    expect(csvLink).toBeDefined();
    const lines = (await mkto.whole(csvLink?.uri ?? "")).trimEnd().split("\r\n");
    expect(lines[0]).toBe("id,email");
    expect(lines.slice(1).map((line) => Number(line.split(",")[0]))).toEqual(
      read.data.result.map((r) => Number(r.id)),
    );
    const ids = read.data.result.map((r) => Number(r.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });
});
