import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { marketoOverMcp, runningClock } from "../helpers/marketo-mcp.js";

/**
 * Issue 27 (trial s14, N107): "spend this year per program" kept the programs with a cost this year (where
 * costs.startDate >= …) and then added every period cost of each, last year's included. Invariant, over
 * generated conditions on the costs' dates and notes: a where that names a path inside the list a sum runs
 * through keeps the programs one of whose items meets it, and each row's sum adds exactly the items that meet
 * it, as the test adds them from the plain programs read by id; the summary says so.
 */
interface Cost {
  startDate: string;
  cost: number;
  note: string;
}
interface Answer {
  result: Record<string, unknown>[];
  computed?: { sum?: number };
}

const mkto = marketoOverMcp({ leadCount: 50, seed: 7, now: runningClock(Date.UTC(2026, 11, 2, 12)) });
const IDS = Array.from({ length: 30 }, (_, i) => 1001 + i);
const byIds = (id: number[]) => ({
  method: "GET",
  endpoint: "/rest/asset/v1/program/{id}.json",
  query_parameters: { id },
});
const NOTES = ["Paid social", "Sponsorship", "Content syndication", "Venue and catering", "Search ads"];

describe("sum through a list that where names", () => {
  it("adds only the items where holds for, and keeps the programs with one such item", async () => {
    const plain = (await mkto.ok<Answer>(byIds(IDS))).data.result;
    const all = plain.map((p) => [Number(p.id), (p.costs ?? []) as Cost[]] as const);
    // The programs with costs and two without, so that each generated call stays within the rate window.
    const costs = new Map([
      ...all.filter(([, items]) => items.length > 0),
      ...all.filter(([, items]) => items.length === 0).slice(0, 2),
    ]);
    const byId = byIds([...costs.keys()]);
    expect([...costs.values()].filter((c) => c.length > 1).length).toBeGreaterThan(2);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("2026-09-01", "2026-10-01", "2026-11-01", "2026-12-01"),
        fc.option(fc.constantFrom(...NOTES), { nil: undefined }),
        async (from, note) => {
          const where = `costs.startDate >= "${from}"${note ? ` and costs.note == "${note}"` : ""}`;
          const meets = (c: Cost) => c.startDate.slice(0, 10) >= from && (!note || c.note === note);
          const { data, first } = await mkto.ok<Answer>({
            ...byId,
            where,
            count_by: "id",
            sum: "costs.cost",
          });
          const counted = data.result.filter((row) => Number(row.count) > 0);
          const want = [...costs].filter(([, items]) => items.some(meets));
          expect(counted.map((row) => Number(row.id)).sort()).toEqual(want.map(([id]) => id).sort());
          for (const row of counted) {
            const items = costs.get(Number(row.id)) ?? [];
            expect(row.sum).toBe(items.filter(meets).reduce((sum, c) => sum + c.cost, 0));
          }
          expect(first).toContain(
            "each row's sum adds its records' costs.cost (only the items of costs that meet where)",
          );
        },
      ),
      { numRuns: 6 },
    );
    // A where on other fields keeps each kept program's every item.
    const { first } = await mkto.ok<Answer>({
      ...byId,
      where: "id > 1001",
      count_by: "id",
      sum: "costs.cost",
    });
    expect(first).toContain("costs.cost (every item of a list)");
  }, 90_000);
});
