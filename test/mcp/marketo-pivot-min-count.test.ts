import { describe, expect, it } from "vitest";
import { seededMarketo } from "../helpers/marketo-mcp.js";

/**
 * min_count over a `:columns` count keeps the table's rows of that many records or more (trial s44, N608). Review
 * s54 found, on the seeded sandbox through MCP: a kept row's name blank (F1), a table of sums saying its totals add
 * up to every row's sum (F2), items called records (F7), and the columns of rows left out kept at 0 and counted
 * toward the column cap (F8). Each is checked here against the same table without min_count.
 */
type Row = Record<string, unknown>;
interface Answer {
  result: Row[];
}
const mkto = seededMarketo(600);
const acts = (extra: Row) => ({
  method: "GET",
  endpoint: "/rest/v1/activities.json",
  query_parameters: {
    activityTypeIds: "Visit Webpage,Fill Out Form,Open Email,Click Email",
    sinceDatetime: "2026-11-01",
  },
  paginate: true,
  max_pages: 200,
  max_items: 100_000,
  ...extra,
});

describe("min_count over a :columns count", () => {
  it("names every row kept as the table without min_count does (review s54, F1)", async () => {
    const shape = { count_by: "campaignId,activityType:columns" };
    const all = (await mkto.ok<Answer>(acts(shape))).data.result;
    const kept = await mkto.ok<Answer>(acts({ ...shape, min_count: 20 }));
    const names = new Map(all.map((row) => [row.campaignId, row.campaignName]));
    expect(kept.data.result.length).toBeGreaterThan(0);
    for (const row of kept.data.result) expect(row.campaignName).toBe(names.get(row.campaignId));
    expect(kept.first).toContain("campaignName is each campaignId's");
  });

  it("says its sums' totals add up to the rows kept (review s54, F2)", async () => {
    const answer = await mkto.ok<Answer>(
      acts({ count_by: "activityType,attributes.Is Mobile Device:columns", sum: "leadId", min_count: 100 }),
    );
    const shown = answer.data.result.reduce((sum, row) => sum + Number(row.total), 0);
    expect(answer.data.result.length).toBeGreaterThan(0);
    expect(answer.first).toContain(`the totals add up to ${shown.toLocaleString("en-US")}`);
  });

  it("counts items of a list as items (review s54, F7)", async () => {
    const answer = await mkto.ok<Answer>({
      method: "GET",
      endpoint: "/rest/asset/v1/folder/{id}/tokens.json",
      query_parameters: { id: Array.from({ length: 30 }, (_, i) => 1001 + i), folderType: "Program" },
      count_by: "id,tokens.type:columns",
      min_count: 3,
    });
    const items = answer.data.result.reduce((sum, row) => sum + Number(row.total), 0);
    expect(answer.first).toContain(`(${items} items of tokens; min_count 3;`);
  });

  it("lists the columns of the rows kept only, and caps those (review s54, F8)", async () => {
    const shape = { count_by: "primaryAttributeValue,activityType:columns" };
    const all = (await mkto.ok<Answer>(acts(shape))).data.result;
    const kept = await mkto.ok<Answer>(acts({ ...shape, min_count: 40 }));
    const rows = all.filter((row) => Number(row.total) >= 40);
    const types = ["Visit Webpage", "Fill Out Form", "Open Email", "Click Email"];
    const columns = types.filter((type) => rows.some((row) => Number(row[type] ?? 0) > 0));
    expect(columns.length).toBeLessThan(4);
    for (const row of kept.data.result)
      expect(
        Object.keys(row)
          .filter((key) => types.includes(key))
          .sort(),
      ).toEqual([...columns].sort());
    // A column order_by names stays, 0 in the rows kept, its rate null.
    const rated = await mkto.ok<Answer>(
      acts({ ...shape, min_count: 40, order_by: "-Click Email/Open Email" }),
    );
    expect(rated.data.result.every((row) => row["Click Email/Open Email"] === null)).toBe(true);
    // 61 leads of the one page kept: not refused for the 281 leads of every page.
    const leads = await mkto.ok<Answer>(
      acts({ count_by: "primaryAttributeValue,leadId:columns", min_count: 60 }),
    );
    expect(leads.data.result.length).toBeGreaterThan(0);
  });

  it("keeps a date column's days, none called empty that had records (review s55, F2)", async () => {
    const shape = {
      count_by: "primaryAttributeValue,activityDate:day:columns",
      query_parameters: { activityTypeIds: "Visit Webpage", sinceDatetime: "2026-11-01" },
    };
    const all = (await mkto.ok<Answer>(acts(shape))).data.result;
    const kept = await mkto.ok<Answer>(acts({ ...shape, min_count: 60 }));
    const days = (rows: Row[]) => Object.keys(rows[0] ?? {}).filter((key) => /^\d{4}-\d{2}-\d{2}$/.test(key));
    expect(kept.data.result.length).toBeGreaterThan(0);
    expect(days(kept.data.result)).toEqual(days(all));
    const empty = days(all).filter((day) => all.every((row) => Number(row[day]) === 0));
    expect(kept.first.includes("with no record listed at 0")).toBe(empty.length > 0);
  });

  it("says no column when no row is kept (review s55, F3)", async () => {
    const answer = await mkto.ok<Answer>(
      acts({ count_by: "campaignId,activityType:columns", min_count: 100_000 }),
    );
    expect(answer.data.result).toEqual([]);
    expect(answer.first).toContain("no activityType columns: no row is kept");
    expect(answer.first).not.toContain("values ;");
  });

  it("links a pivot's rate column in its CSV, as the text shows it (review s55, F1b)", async () => {
    const answer = await mkto.ok<Answer>(
      acts({
        count_by: "leadId,activityType:columns",
        order_by: "-Visit Webpage%",
        query_parameters: { activityTypeIds: "Visit Webpage,Fill Out Form", sinceDatetime: "2026-11-01" },
      }),
    );
    expect(answer.data.result[0]).toHaveProperty("Visit Webpage%");
    const csv = answer.links.find((link) => link.mimeType === "text/csv");
    const header = (await mkto.whole(String(csv?.uri))).split("\n")[0]?.trim().split(",");
    expect(header).toEqual(["leadId", "Visit Webpage", "Fill Out Form", "total", "Visit Webpage%"]);
  });
});
