import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildDataSet } from "../../src/sandbox/marketo/seed.js";
import { marketoOverMcp, runningClock } from "../helpers/marketo-mcp.js";

/**
 * count_by by two fields gives each row's percent of the records with its first field's value
 * (percent_in_<first>), and the summary the records of each first value (trial s20, N219: the agent summed each
 * month's sources and divided by hand). Property, over pairs of fields and min_count on list 1001's members,
 * whose truth is the seeded data set: each row's percent_in is its count over its first value's records (all of
 * them, also those min_count leaves out), to 0.1; the summary states each first value's records; a group's
 * percents add up to 100 (±0.1 a row) when every row is shown.
 */
interface Answer {
  result: Record<string, unknown>[];
}

const T0 = Date.UTC(2026, 11, 1, 12);
const SEED = 42;
const LEADS = 5_000;
const world = buildDataSet({ leadCount: LEADS, seed: SEED, now: T0 });
const members = [...(world.lists.find((list) => list.id === 1001)?.members ?? [])].flatMap((id) => {
  const lead = world.leads.get(id);
  return lead ? [lead as Record<string, unknown>] : [];
});
const FIELDS = ["leadSource", "leadStatus", "utmMedium", "country", "industry", "customerTier"];

const mkto = marketoOverMcp({ leadCount: LEADS, seed: SEED, now: runningClock(T0), rateLimit: 1_000_000 });
const percentOf = (count: number, total: number) => Math.round((count / total) * 1000) / 10;
const leadValue = (lead: Record<string, unknown>, field: string) => {
  const value = lead[field];
  return value === null || value === undefined || value === "" ? null : String(value);
};

describe("count_by by two fields: each row's percent of its first value's records", () => {
  it("property: percent_in_<first> is the count over the first value's records; the summary states them", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.shuffledSubarray(FIELDS, { minLength: 2, maxLength: 2 }),
        fc.option(fc.integer({ min: 2, max: 40 }), { nil: undefined }),
        async ([first, second], minCount) => {
          const f = first as string;
          const s = second as string;
          const { data, text } = await mkto.ok<Answer>({
            method: "GET",
            endpoint: "/rest/v1/lists/1001/leads.json",
            query_parameters: { fields: `id,${f},${s}`, batchSize: 300 },
            paginate: true,
            count_by: `${f},${s}`,
            ...(minCount === undefined ? {} : { min_count: minCount }),
          });
          const firstTotals = new Map<string | null, number>();
          const pairs = new Map<string, number>();
          for (const lead of members) {
            const a = leadValue(lead, f);
            firstTotals.set(a, (firstTotals.get(a) ?? 0) + 1);
            const key = JSON.stringify([a, leadValue(lead, s)]);
            pairs.set(key, (pairs.get(key) ?? 0) + 1);
          }
          const column = `percent_in_${f}`;
          for (const row of data.result) {
            const a = row[f] === null ? null : String(row[f]);
            const count = pairs.get(JSON.stringify([a, row[s] === null ? null : String(row[s])]));
            expect(row.count).toBe(count);
            expect(row[column]).toBe(percentOf(Number(row.count), firstTotals.get(a) ?? 0));
          }
          if (firstTotals.size <= 24) {
            const each = [...firstTotals].map(
              ([value, count]) => `${value ?? "empty"} ${count.toLocaleString("en-US")}`,
            );
            for (const part of each) expect(text).toContain(part);
            expect(text).toContain(`records per ${f}, which ${column} divides by: `);
          }
          if (minCount !== undefined) return;
          for (const [value] of firstTotals) {
            const percents = data.result.filter((row) => (row[f] === null ? null : String(row[f])) === value);
            const sum = percents.reduce((total, row) => total + Number(row[column]), 0);
            expect(Math.abs(sum - 100)).toBeLessThanOrEqual(0.1 * percents.length + 1e-9);
          }
        },
      ),
      { numRuns: 10 },
    );
  }, 120_000);

  it("states the first values' records in the rows' order: dates in order, else the largest first", async () => {
    const base = {
      method: "GET",
      endpoint: "/rest/v1/lists/1001/leads.json",
      query_parameters: { fields: "id,leadSource,leadStatus,createdAt", batchSize: 300 },
      paginate: true,
    };
    const listed = (text: string, field: string) => {
      const said = text.split(`records per ${field}, which percent_in_${field} divides by: `)[1] ?? "";
      return said
        .split(/; the |; records per |; createdAt|\. /)[0]
        ?.split("; ")
        .map((part) => {
          const at = part.lastIndexOf(" ");
          return { value: part.slice(0, at), count: Number(part.slice(at + 1).replaceAll(",", "")) };
        });
    };
    const bySource = listed(
      (await mkto.ok<Answer>({ ...base, count_by: "leadSource,leadStatus" })).text,
      "leadSource",
    );
    const counts = bySource?.map((part) => part.count) ?? [];
    expect(counts.length).toBeGreaterThan(2);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const byYear = listed(
      (await mkto.ok<Answer>({ ...base, count_by: "createdAt:year,leadSource" })).text,
      "createdAt:year",
    );
    const years = byYear?.map((part) => part.value) ?? [];
    expect(years.length).toBeGreaterThan(1);
    expect(years).toEqual([...years].sort());
    const byMonth = await mkto.ok<Answer>({ ...base, count_by: "createdAt:month,leadSource" });
    expect(byMonth.text).toMatch(
      /\d+ createdAt:month values: count by createdAt:month alone for each one's records/,
    );
  });

  it("a single field, a distinct count and a pivot have no percent_in column", async () => {
    const base = {
      method: "GET",
      endpoint: "/rest/v1/lists/1001/leads.json",
      query_parameters: { fields: "id,leadSource,leadStatus", batchSize: 300 },
      paginate: true,
    };
    for (const extra of [
      { count_by: "leadSource" },
      { count_by: "leadSource,leadStatus", count_distinct: "id" },
      { count_by: "leadSource,leadStatus:columns" },
    ]) {
      const { data, text } = await mkto.ok<Answer>({ ...base, ...extra });
      expect(Object.keys(data.result[0] ?? {}).some((key) => key.startsWith("percent_in_"))).toBe(false);
      expect(text).not.toContain("percent_in_");
    }
  });
});
