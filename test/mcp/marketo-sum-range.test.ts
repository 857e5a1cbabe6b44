/**
 * count_by's `sum` gives each group's min and max, and of a date field (which it does not add) its first and last:
 * trial s33 N496 asked for each UTM campaign's first lead, no call gave a first or last value per group, an agent
 * tried `sum` of dates (refused) and read 149,471 characters of leads to find them.
 *
 * The invariant, fast-check over count_by fields, date fields and where through MCP on the sandbox: each row's min
 * and max are the least and greatest value of its records as the plain read of the same records gives them
 * (dates by their instant); a date sum adds nothing (sum, mean, median null); order_by "min" ranks by it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { seededMarketo } from "../helpers/marketo-mcp.js";

type Row = Record<string, unknown>;
interface Answer {
  result: Row[];
  computed?: { read: number; matched: number; sum?: number };
}

const mkto = seededMarketo(300);
const IDS = Array.from({ length: 200 }, (_, i) => i + 1).join(",");
const leads = (fields: string, extra: Record<string, unknown>) =>
  mkto.ok<Answer>({
    method: "GET",
    endpoint: "/rest/v1/leads.json",
    query_parameters: { filterType: "id", filterValues: IDS, fields },
    ...extra,
  });

/** Each group's least and greatest value of `field`, by hand from the plain records. */
function rangesByHand(records: readonly Row[], by: string, field: string, rank: (v: unknown) => number) {
  const ranges = new Map<string, { min: unknown; max: unknown }>();
  for (const record of records) {
    const value = record[field];
    if (value === null || value === undefined || value === "") continue;
    const key = String(record[by] ?? null);
    const range = ranges.get(key);
    if (!range) ranges.set(key, { min: value, max: value });
    else {
      if (rank(value) < rank(range.min)) range.min = value;
      if (rank(value) > rank(range.max)) range.max = value;
    }
  }
  return ranges;
}

describe("count_by with sum: each group's min and max, a date's first and last", () => {
  it("gives the least and greatest value per group as the plain records do, numbers and dates", {
    timeout: 120_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("leadSource", "leadStatus", "country"),
        fc.constantFrom("createdAt", "updatedAt", "leadScore"),
        fc.constantFrom(undefined, "leadScore > 20", 'leadSource != "Website"'),
        async (by, field, where) => {
          const fields = `id,${by},${field},leadScore,leadSource`;
          const plain = (await leads(fields, where ? { where } : {})).data.result;
          const date = field !== "leadScore";
          const rank = (v: unknown) => (date ? Date.parse(String(v)) : Number(v));
          const want = rangesByHand(plain, by, field, rank);
          const { data, first } = await leads(fields, {
            count_by: by,
            sum: field,
            ...(where ? { where } : {}),
          });
          const got = new Map(
            data.result
              .filter((row) => row.min !== null)
              .map((row) => [String(row[by] ?? null), { min: row.min, max: row.max }]),
          );
          expect(got).toEqual(want);
          if (date) {
            // A median of dates is a date (marketo-sum-date-middles.test.ts); sum and mean are none.
            for (const row of data.result) expect([row.sum, row.mean]).toEqual([null, null]);
            expect(data.computed?.sum).toBeUndefined();
            const all = [...want.values()];
            const earliest = all.map((r) => r.min).sort((a, b) => rank(a) - rank(b))[0];
            expect(first).toContain(`${field} holds dates, which are not added`);
            expect(first).toContain(`from ${String(earliest)} to`);
          } else expect(data.computed?.sum).toBeTypeOf("number");
        },
      ),
      { numRuns: 8 },
    );
  });

  it("ranks groups by their first date with order_by min, as a first activity per lead", async () => {
    const { data } = await mkto.ok<Answer>({
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: { sinceDatetime: "2026-10-01", activityTypeIds: "Visit Webpage" },
      paginate: true,
      max_pages: 50,
      count_by: "leadId",
      sum: "activityDate",
      order_by: "min",
      limit: 30,
    });
    const firsts = data.result.map((row) => Date.parse(String(row.min)));
    expect(firsts.length).toBeGreaterThan(5);
    expect(firsts).toEqual([...firsts].sort((a, b) => a - b));
    for (const row of data.result)
      expect(Date.parse(String(row.max))).toBeGreaterThanOrEqual(Date.parse(String(row.min)));
  });

  it("counts in a :columns table over a date sum, each row with its first and last: those of the same count without columns (trial s46, N630)", async () => {
    const byStatus = (count_by: string, extra: Row = {}) =>
      mkto.ok<Answer>({
        method: "GET",
        endpoint: "/rest/v1/leads.json",
        query_parameters: {
          filterType: "id",
          filterValues: IDS,
          fields: "id,leadSource,leadStatus,createdAt",
        },
        count_by,
        sum: "createdAt",
        ...extra,
      });
    const pivot = await byStatus("leadSource,leadStatus:columns");
    const rows = await byStatus("leadSource");
    const cells = await byStatus("leadSource,leadStatus");
    expect(pivot.first).toContain("each cell counts its records, 0 where none");
    expect(pivot.first).toContain(
      "each row's min and max are its records' first and last createdAt (null where none has one)",
    );
    expect(pivot.data.result).toHaveLength(rows.data.result.length);
    // A row of no dated record: null, as the words say (review s57's notes).
    const webinars = await mkto.ok<Answer>({
      method: "GET",
      endpoint: "/rest/v1/leads.json",
      query_parameters: {
        filterType: "id",
        filterValues: IDS,
        fields: "id,leadSource,leadStatus,lastWebinarDate",
      },
      count_by: "leadSource,leadStatus:columns",
      sum: "lastWebinarDate",
    });
    expect(
      webinars.data.result.some((row) => row.min === null && row.max === null && Number(row.total) > 0),
    ).toBe(true);
    expect(webinars.first).toContain("first and last lastWebinarDate (null where none has one)");
    for (const row of rows.data.result) {
      const line = pivot.data.result.find((p) => p.leadSource === row.leadSource) as Row;
      expect([line.total, line.min, line.max]).toEqual([row.count, row.min, row.max]);
    }
    for (const cell of cells.data.result) {
      const line = pivot.data.result.find((p) => p.leadSource === cell.leadSource) as Row;
      expect(line[String(cell.leadStatus ?? "(empty)")]).toBe(cell.count);
    }
    // Ranked by its last date, as a count row is.
    const last = await byStatus("leadSource,leadStatus:columns", { order_by: "-max" });
    const maxes = last.data.result.map((row) => Date.parse(String(row.max)));
    expect(maxes).toEqual([...maxes].sort((a, b) => b - a));
  });
});
