import { describe, expect, it } from "vitest";
import { iso, marketoOverMcp, runningClock } from "../helpers/marketo-mcp.js";

/**
 * count_by with a ":columns" field through MCP on the sandbox (trial 2026-12-03: N45 counted per email ×
 * activity type and built sent, delivered, opened, clicked per email by hand; N44 added each week's total by
 * hand): each cell equals the long count_by's row of the same call, each row's total its cells, the totals the
 * records matched, and the summary says what the columns are.
 */
interface Answer {
  result: Record<string, unknown>[];
  computed?: { read: number; matched: number; groups?: number; rows?: number; columns?: number };
}

const T0 = Date.UTC(2026, 11, 2, 12);
const DAY = 86_400_000;
const mkto = marketoOverMcp({ leadCount: 400, seed: 11, now: runningClock(T0), rateLimit: 1_000_000 });
const TYPES = ["Send Email", "Email Delivered", "Open Email", "Click Email"];

const activities = (extra: Record<string, unknown>) =>
  mkto.ok<Answer>({
    method: "GET",
    endpoint: "/rest/v1/activities.json",
    query_parameters: { sinceDatetime: iso(T0 - 14 * DAY), activityTypeIds: TYPES },
    paginate: true,
    max_pages: 200,
    max_items: 100_000,
    ...extra,
  });

describe("count_by with a :columns field", () => {
  it("is said in count_by's description in the tool list", async () => {
    const { tools } = await mkto.session.client.listTools();
    const tool = tools.find((t) => t.name === "marketo_api_call");
    const countBy = (tool?.inputSchema.properties?.count_by ?? {}) as { description?: string };
    expect(countBy.description).toMatch(/"[\w,]+:columns" pivots/);
  });

  it("lays out sent, delivered, opened and clicked per email: the long counts, a total per row", async () => {
    const long = (await activities({ count_by: "primaryAttributeValue,activityType" })).data;
    const { data, first } = await activities({ count_by: "primaryAttributeValue,activityType:columns" });
    expect(long.result.length).toBeGreaterThan(8);
    const emails = new Set(long.result.map((row) => row.primaryAttributeValue));
    expect(data.result).toHaveLength(emails.size);
    for (const cell of long.result) {
      const row = data.result.find((r) => r.primaryAttributeValue === cell.primaryAttributeValue);
      expect(row?.[String(cell.activityType)], JSON.stringify(cell)).toBe(cell.count);
    }
    for (const row of data.result) {
      expect(row.total).toBe(TYPES.reduce((sum, type) => sum + Number(row[type] ?? 0), 0));
    }
    const totals = data.result.map((row) => Number(row.total));
    expect(totals).toEqual([...totals].sort((a, b) => b - a));
    expect(totals.reduce((a, b) => a + b, 0)).toBe(long.computed?.matched);
    expect(first).toContain("with activityType's values as columns");
    // The figures are the table's rows and columns, not its filled cells (trial s10, N58: "groups":115 beside 20 rows).
    expect(data.computed).toMatchObject({ rows: data.result.length, columns: TYPES.length });
    expect(data.computed?.groups).toBeUndefined();
    // Each column with its total, the column's sum over the rows (trial s10, N69 added them itself).
    const listed = /columns: activityType values (.+?)(?:;|$)/m.exec(first)?.[1] ?? "";
    const said = [...listed.matchAll(/([A-Za-z ]+) \(([\d,]+) in all\)/g)].map((m) => [
      m[1]?.trim(),
      Number(m[2]?.replaceAll(",", "")),
    ]);
    expect(said.map(([type]) => type).sort(), first).toEqual([...TYPES].sort());
    for (const [type, total] of said)
      expect(total, String(type)).toBe(
        data.result.reduce((sum, row) => sum + Number(row[String(type)] ?? 0), 0),
      );
    expect(first).toContain(
      `each row adds up to its total, and the totals add up to ${long.computed?.matched.toLocaleString("en-US")}`,
    );
  });

  it("ranks by a column named as written, and with count_distinct has distinct leads and no total", async () => {
    const ranked = (
      await activities({ count_by: "primaryAttributeValue,activityType:columns", order_by: "-Click Email" })
    ).data.result;
    const clicks = ranked.map((row) => Number(row["Click Email"]));
    expect(clicks).toEqual([...clicks].sort((a, b) => b - a));
    const long = (
      await activities({ count_by: "primaryAttributeValue,activityType", count_distinct: "leadId" })
    ).data;
    const { data, first } = await activities({
      count_by: "primaryAttributeValue,activityType:columns",
      count_distinct: "leadId",
    });
    for (const cell of long.result) {
      const row = data.result.find((r) => r.primaryAttributeValue === cell.primaryAttributeValue);
      expect(row?.[String(cell.activityType)]).toBe(cell.count);
    }
    expect(data.result.every((row) => !("total" in row))).toBe(true);
    expect(first).toContain("each cell is its count of distinct leadId");
  });

  it("counts leads per week and source as columns in a time zone, weeks in date order", async () => {
    const call = {
      method: "GET",
      endpoint: "/rest/v1/leads.json",
      query_parameters: {
        filterType: "id",
        filterValues: Array.from({ length: 200 }, (_, i) => i + 1).join(","),
        fields: "id,createdAt,leadSource",
      },
      time_zone: "America/New_York",
    };
    const long = (await mkto.ok<Answer>({ ...call, count_by: "createdAt:week,leadSource" })).data;
    const { data } = await mkto.ok<Answer>({ ...call, count_by: "createdAt:week,leadSource:columns" });
    const weeks = data.result.map((row) => String(row["createdAt:week"]));
    expect(weeks).toEqual([...weeks].sort());
    expect(new Set(weeks).size).toBe(weeks.length);
    for (const cell of long.result) {
      const row = data.result.find((r) => r["createdAt:week"] === cell["createdAt:week"]);
      // A week with no lead is the long form's row of 0 (no source), and the pivot's row of 0s.
      const column = cell.count === 0 ? "total" : String(cell.leadSource ?? "(empty)");
      expect(row?.[column]).toBe(cell.count);
    }
    expect(data.result.reduce((sum, row) => sum + Number(row.total), 0)).toBe(200);
    const byMonth = await mkto.ok<Answer>({ ...call, count_by: "createdAt:month:columns" });
    expect(byMonth.data.result).toHaveLength(1);
    expect(byMonth.data.result[0]?.total).toBe(200);
  });
});
