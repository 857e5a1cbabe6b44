import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { marketoOverMcp, runningClock } from "../helpers/marketo-mcp.js";

/**
 * count_by's `sum` through MCP on the sandbox (issue 27: "spend per program" was the model's arithmetic): each
 * group's sum equals the one the test adds from the plain records of the same read, the summary states the
 * total, order_by "-sum" ranks by it, and a value that is no number is refused naming the field and the value.
 */
interface Answer {
  result: Record<string, unknown>[];
  computed?: { read: number; matched: number; sum?: number };
}

const mkto = marketoOverMcp({ leadCount: 300, seed: 11, now: runningClock(Date.UTC(2026, 11, 2, 12)) });

const IDS = Array.from({ length: 120 }, (_, i) => i + 1).join(",");
const read = (extra: Record<string, unknown>) =>
  mkto.ok<Answer>({
    method: "GET",
    endpoint: "/rest/v1/leads.json",
    query_parameters: { filterType: "id", filterValues: IDS, fields: "id,leadSource" },
    ...extra,
  });

describe("count_by with sum", () => {
  it("adds a number per group as the plain records do, ranks by -sum and states the total", async () => {
    const plain = (await read({})).data.result;
    const want = new Map<string, number>();
    for (const lead of plain) {
      const source = String(lead.leadSource ?? null);
      want.set(source, (want.get(source) ?? 0) + Number(lead.id));
    }
    const { data, first } = await read({ count_by: "leadSource", sum: "id", order_by: "-sum" });
    const got = data.result.map((row) => [String(row.leadSource ?? null), row.sum]);
    expect(want.size).toBeGreaterThan(2);
    expect(new Map(got as [string, number][])).toEqual(want);
    const sums = data.result.map((row) => Number(row.sum));
    expect(sums).toEqual([...sums].sort((a, b) => b - a));
    const total = [...want.values()].reduce((a, b) => a + b, 0);
    expect(data.computed?.sum).toBe(total);
    expect(first).toContain(`each row's sum adds its records' id: ${total.toLocaleString("en-US")} in all`);
  });

  it("says how many records have no value, row by row, as the plain records have them (trial s44, N608)", async () => {
    // Visits and form fills with the lead's form fill before each: those with none have no previous_hours.
    const paired = (extra: Record<string, unknown>) =>
      mkto.ok<Answer>({
        method: "GET",
        endpoint: "/rest/v1/activities.json",
        query_parameters: { activityTypeIds: "Visit Webpage,Fill Out Form", sinceDatetime: "2026-11-01" },
        paginate: true,
        previous: "Fill Out Form:any",
        ...extra,
      });
    const plain = await mkto.results<Record<string, unknown>>(await paired({}));
    const empty = new Map<string, number>();
    for (const record of plain) {
      const type = String(record.activityType);
      if (typeof record.previous_hours !== "number") empty.set(type, (empty.get(type) ?? 0) + 1);
    }
    const total = [...empty.values()].reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(0);
    const { first } = await paired({ count_by: "activityType", sum: "previous_hours" });
    const by = [...empty].map(([type, count]) => `${type} ${count.toLocaleString("en-US")}`);
    const said = `(${total.toLocaleString("en-US")} records with no previous_hours are left out: `;
    expect(first).toContain(said);
    for (const part of by) expect(first).toContain(part);
    // A field every record has: said so.
    const ids = await read({ count_by: "leadSource", sum: "id" });
    expect(ids.first).toContain("(every record counted has one)");
  });

  it("gives a percentile beside the median, as the test's own over each group's values (property; trial s42, N588)", async () => {
    const plain = (await read({})).data.result;
    const bySource = new Map<string, number[]>();
    for (const lead of plain) {
      const source = String(lead.leadSource ?? null);
      bySource.set(source, [...(bySource.get(source) ?? []), Number(lead.id)]);
    }
    // The test's own: the value at rank (n - 1) × p / 100, linear between the two nearest (PERCENTILE.INC).
    const own = (values: number[], p: number) => {
      const sorted = [...values].sort((a, b) => a - b);
      const rank = ((sorted.length - 1) * p) / 100;
      const low = Math.floor(rank);
      const high = Math.min(low + 1, sorted.length - 1);
      return (
        Math.round(
          ((sorted[low] as number) + (rank - low) * ((sorted[high] as number) - (sorted[low] as number))) *
            100,
        ) / 100
      );
    };
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 99 }), async (p) => {
        const { data, first } = await read({ count_by: "leadSource", sum: `id:p${p}`, order_by: `-p${p}` });
        for (const row of data.result) {
          const values = bySource.get(String(row.leadSource ?? null)) ?? [];
          expect(row[`p${p}`]).toBe(own(values, p));
          if (p === 50) expect(row.p50).toBe(row.median);
        }
        const ranked = data.result.map((row) => Number(row[`p${p}`]));
        expect(ranked).toEqual([...ranked].sort((a, b) => b - a));
        expect(first).toContain(`its p${p} the value ${p} % of them are at or below`);
      }),
      { numRuns: 12 },
    );
    const zero = await mkto.call<Answer>({
      method: "GET",
      endpoint: "/rest/v1/leads.json",
      query_parameters: { filterType: "id", filterValues: IDS, fields: "id,leadSource" },
      count_by: "leadSource",
      sum: "id:p0",
    });
    expect(zero.first).toMatch(/^Invalid sum: its percentile is p1 to p99/);
    // The hint, done, answers.
    const hinted = /E\.g\. sum "([^"]+)"/.exec(zero.first)?.[1];
    expect(hinted).toBe("id:p90");
    const fixed = await read({ count_by: "leadSource", sum: hinted });
    expect(fixed.data.result[0]?.p90).toEqual(expect.any(Number));
  });

  it("refuses a percentile it cannot give, before reading or naming the fix, and the fix, done, answers (review s52, 2, 6, 8)", async () => {
    const leads = (extra: Record<string, unknown>) =>
      mkto.call<Answer>({
        method: "GET",
        endpoint: "/rest/v1/leads.json",
        query_parameters: { filterType: "id", filterValues: IDS, fields: "id,leadSource,createdAt" },
        ...extra,
      });
    for (const sum of ["id:p100", "id:p95.5", "id:median"]) {
      mkto.fixture.sandbox.resetStats();
      const refused = await leads({ count_by: "leadSource", sum });
      expect(refused.first).toMatch(/^Invalid sum: "[^"]+" is no percentile: p1 to p99/);
      expect(mkto.fixture.sandbox.stats().apiCalls).toBe(0);
    }
    const pivot = await leads({ count_by: "leadSource,id:columns", sum: "id:p90" });
    expect(pivot.first).toMatch(
      /^Invalid sum: with id:columns each cell is one figure \(a sum, or a count beside a date's first and last\): a p90 has no cell/,
    );
    const fix = /leave :columns out \(count by ([^)]+)\)/.exec(pivot.first)?.[1];
    expect(fix).toBe("leadSource,id");
    expect((await leads({ count_by: fix, sum: "id:p90" })).result.isError).toBeFalsy();
    // A percentile of dates is a date (trial s48, N655; marketo-sum-date-middles.test.ts), as the hint's fix shows.
    const dates = await leads({ count_by: "leadSource,id:columns", sum: "createdAt:p90" });
    expect(dates.first).toMatch(/^Invalid sum: with id:columns each cell is one figure/);
    const dated = await leads({ count_by: "leadSource", sum: "createdAt:p90" });
    expect(dated.result.isError).toBeFalsy();
    expect(dated.data.result[0]?.p90).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it("refuses a value that is no number, naming the field and a value, and sum without count_by", async () => {
    const text = await mkto.call<Answer>({
      method: "GET",
      endpoint: "/rest/v1/leads.json",
      query_parameters: { filterType: "id", filterValues: "1,2", fields: "id,email" },
      count_by: "id",
      sum: "email",
    });
    expect(text.result.isError).toBe(true);
    expect(text.first).toMatch(/sum: email holds "[^"]+@[^"]+", which is no number or date/);
    const alone = await mkto.call<Answer>({
      method: "GET",
      endpoint: "/rest/v1/leads.json",
      query_parameters: { filterType: "id", filterValues: "1,2" },
      sum: "id",
    });
    expect(alone.result.isError).toBe(true);
    expect(alone.first).toMatch(/sum: it applies to count_by's counts/);
  });

  it("refuses a misspelt path through a list, naming the paths the list's items have", async () => {
    const call = (sum: string) =>
      mkto.call<Answer>({
        method: "GET",
        endpoint: "/rest/asset/v1/program/{id}.json",
        query_parameters: { id: Array.from({ length: 12 }, (_, i) => 1001 + i) },
        count_by: "id",
        sum,
      });
    const wrong = await call("costs.cots");
    expect(wrong.result.isError).toBe(true);
    expect(wrong.first).toMatch(
      /sum: none of the 12 records read has a field named costs\.cots; they have costs\.cost, /,
    );
    const right = await call("costs.cost");
    expect(right.result.isError).toBeFalsy();
  });
});
