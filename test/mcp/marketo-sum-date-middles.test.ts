import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { seededMarketo } from "../helpers/marketo-mcp.js";

/**
 * Trial s48, N655: "the median Created At of each list's members" was refused ("createdAt holds dates: a percentile
 * is of numbers"), and three calls went on it. A sum of dates now gives each row's median and percentile as dates:
 * the nearest rank, one record's own date as it wrote it (of two middle ones, the earlier).
 *
 * Invariant, over generated lists, groupings, date fields and percentiles: each row's median, pN, min and max are
 * those the test works out from the same records read plainly, and order_by "-median" sorts the rows by it.
 */
type Row = Record<string, unknown>;
interface Answer {
  result: Row[];
}
const mkto = seededMarketo(600);

const listLeads = (listId: number, extra: Row) => ({
  method: "GET",
  endpoint: "/rest/v1/lists/{listId}/leads.json",
  query_parameters: { listId: [listId], fields: "id,leadSource,leadStatus,createdAt,updatedAt" },
  paginate: true,
  ...extra,
});

/** The nearest-rank date: the one `p` % of the dates are at or before. */
function atRank(dates: readonly string[], p: number): string | null {
  if (dates.length === 0) return null;
  const sorted = [...dates].sort((a, b) => Date.parse(a) - Date.parse(b));
  return sorted[Math.max(Math.ceil((sorted.length * p) / 100) - 1, 0)] as string;
}

describe("a sum of dates: each row's median and percentile (trial s48, N655)", () => {
  it("gives the dates at those ranks of the plain records, and sorts by the median", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(1001, 1002, 1004),
        fc.constantFrom("leadSource", "leadStatus"),
        fc.constantFrom("createdAt", "updatedAt"),
        fc.integer({ min: 1, max: 99 }),
        async (listId, by, field, p) => {
          const plain = await mkto.results<Row>(await mkto.ok<Answer>(listLeads(listId, {})));
          const answer = await mkto.ok<Answer>(
            listLeads(listId, { count_by: by, sum: `${field}:p${p}`, order_by: "-median" }),
          );
          const groups = new Map<string, string[]>();
          for (const record of plain) {
            const key = String(record[by] ?? null);
            const value = record[field];
            if (!groups.has(key)) groups.set(key, []);
            if (typeof value === "string" && value) groups.get(key)?.push(value);
          }
          expect(answer.data.result).toHaveLength(groups.size);
          for (const row of answer.data.result) {
            const dates = groups.get(String(row[by] ?? null)) ?? [];
            expect(row.median).toBe(atRank(dates, 50));
            expect(row[`p${p}`]).toBe(atRank(dates, p));
            expect(row.min).toBe(atRank(dates, 0));
            expect(row.max).toBe(atRank(dates, 100));
            expect([row.sum, row.mean]).toEqual([null, null]);
          }
          const medians = answer.data.result.map((row) => Date.parse(String(row.median)));
          expect(medians).toEqual([...medians].sort((a, b) => b - a));
          expect(answer.first).toContain(
            `its median and p${p} the ${field} half and ${p} % of them are at or before`,
          );
        },
      ),
      { numRuns: 10 },
    );
  });

  it("still refuses an order by the sum or mean of dates, naming min and max", async () => {
    const refused = await mkto.call<Answer>(
      listLeads(1001, { count_by: "leadSource", sum: "createdAt", order_by: "-mean" }),
    );
    expect(refused.first).toMatch(
      /^Invalid order_by: createdAt holds dates, which are not added: each row's mean is empty/,
    );
    const hinted = /order_by "([^"]+)"/.exec(refused.first)?.[1];
    expect(hinted).toBe("-max");
    const fixed = await mkto.ok<Answer>(
      listLeads(1001, { count_by: "leadSource", sum: "createdAt", order_by: hinted }),
    );
    const maxes = fixed.data.result.map((row) => Date.parse(String(row.max)));
    expect(maxes).toEqual([...maxes].sort((a, b) => b - a));
  });
});
