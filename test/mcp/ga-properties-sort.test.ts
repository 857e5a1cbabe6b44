/**
 * Trial s17, N163: order_by "-newUsers/totalUsers" over all properties came back property by property (0.4322,
 * 0.4213, 0.425, 0.4261) with no word. With order_by, the joined rows are in that order across the properties,
 * and each property's rows are still the first of its own report in its own order (a merge, nothing lost).
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { firstText, gaOverMcp } from "../helpers/ga-mcp.js";

type Row = Record<string, string | number | null>;
const rows = (r: CallToolResult) => (r.structuredContent as { rows: Row[] }).rows;
const ga = gaOverMcp();
const report = async (args: Record<string, unknown>) => {
  const result = await ga.call("google_analytics_run_reports", { date_ranges: ["lastMonth"], ...args });
  expect(result.isError, firstText(result)).toBeFalsy();
  return result;
};
const descending = (values: number[]) => values.every((v, i) => i === 0 || (values[i - 1] as number) >= v);

describe("a sort over several properties", () => {
  it("orders a ratio across the properties and says so", async () => {
    const result = await report({
      property: "all",
      metrics: ["newUsers/totalUsers"],
      order_by: "-newUsers/totalUsers",
    });
    const values = rows(result).map((row) => Number(row["newUsers/totalUsers"]));
    expect(values.length).toBeGreaterThan(2);
    expect(descending(values)).toBe(true);
    expect(firstText(result).split("\n")[0]).toContain("sorted by order_by across the properties");
  });

  it("merges the properties' sorted rows: each property's are the first of its own report", async () => {
    const args = {
      metrics: ["sessions"],
      dimensions: ["deviceCategory", "country"],
      order_by: "-sessions",
      limit: 4,
    };
    const all = rows(await report({ property: "Retail Web Store,Media News Site", ...args }));
    expect(descending(all.map((row) => Number(row.sessions)))).toBe(true);
    for (const name of ["Retail Web Store", "Media News Site"]) {
      const own = rows(await report({ property: name, ...args }));
      const mine = all
        .filter((row) => String(row.property).startsWith(name))
        .map(({ property: _p, ...row }) => row);
      expect(mine).toEqual(own.slice(0, mine.length));
      expect(mine.length).toBe(own.length);
    }
  });

  // Trial s48, N657: limit "2 per property" was refused ("property is not one: date"); limit applies to each property.
  it('takes limit "n per property" as limit n on each property, and "n per property,x" as "n per x"', async () => {
    const args = {
      property: "Retail Web Store,Media News Site",
      metrics: ["sessions"],
      dimensions: ["date", "deviceCategory"],
      order_by: "-sessions,date",
    };
    const per = await report({ ...args, limit: "2 per property" });
    expect(rows(per)).toEqual(rows(await report({ ...args, limit: 2 })));
    expect(rows(per)).toHaveLength(4);
    const both = await report({ ...args, limit: "1 per property,deviceCategory" });
    expect(rows(both)).toEqual(rows(await report({ ...args, limit: "1 per deviceCategory" })));
    expect(rows(both).length).toBeGreaterThan(2);
  });

  it("keeps the properties' order without order_by", async () => {
    const result = await report({ property: "Retail Web Store,Media News Site", metrics: ["sessions"] });
    expect(rows(result).map((row) => String(row.property).split(" (")[0])).toEqual([
      "Retail Web Store",
      "Media News Site",
    ]);
    expect(firstText(result)).not.toContain("sorted by order_by");
  });
});
