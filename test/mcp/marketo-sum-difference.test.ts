import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { seededMarketo } from "../helpers/marketo-mcp.js";

/**
 * sum "a - b": the days between two dates of a record (or two numbers' difference), whose median per group a fresh
 * agent worked out from 30 listed rows (trial s45, N621). Invariant: each row's count, sum, mean, median and min/max
 * are those of the differences the test computes from the same records read plainly.
 */
type Row = Record<string, unknown>;
interface Answer {
  result: Row[];
}
const mkto = seededMarketo(600);
const DAY = 86_400_000;

const members = (programId: number, extra: Row) => ({
  method: "GET",
  endpoint: "/rest/v1/leads/programs/{programId}.json",
  query_parameters: { programId: [programId], fields: "id,leadSource,createdAt,updatedAt,leadScore" },
  paginate: true,
  ...extra,
});

const at = (record: Row, path: string): unknown =>
  path.split(".").reduce<unknown>((value, part) => (value as Row | undefined)?.[part], record);

const middle = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

const PAIRS = [
  ["updatedAt", "createdAt"],
  ["membership.membershipDate", "createdAt"],
  ["membership.updatedAt", "membership.membershipDate"],
] as const;

describe('sum "a - b" (trial s45, N621)', () => {
  it("gives each group's days between two dates: count, sum, mean, median, min and max of the plain records' differences", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(1001, 1003, 1009, 1023),
        fc.constantFrom(...PAIRS),
        fc.constantFrom("leadSource", "membership.progressionStatus"),
        async (programId, [a, b], by) => {
          const plain = await mkto.results<Row>(await mkto.ok<Answer>(members(programId, {})));
          const answer = await mkto.ok<Answer>(members(programId, { count_by: by, sum: `${a} - ${b}` }));
          const groups = new Map<string, number[]>();
          let empty = 0;
          for (const record of plain) {
            const [x, y] = [at(record, a), at(record, b)];
            const key = String(at(record, by) ?? null);
            if (!groups.has(key)) groups.set(key, []);
            if (typeof x !== "string" || typeof y !== "string" || !x || !y) {
              empty += 1;
              continue;
            }
            const days = Math.round(((Date.parse(x) - Date.parse(y)) / DAY) * 10_000) / 10_000;
            groups.get(key)?.push(days);
          }
          expect(answer.data.result.length).toBe(groups.size);
          for (const row of answer.data.result) {
            const values = groups.get(String(row[by] ?? null)) ?? [];
            const total = values.reduce((s, v) => s + v, 0);
            expect(row.sum as number).toBeCloseTo(total, 3);
            if (values.length === 0) continue;
            // The answer's mean and median are to 0.01: within half of that of the exact figure.
            expect(Math.abs((row.mean as number) - total / values.length)).toBeLessThanOrEqual(0.005 + 1e-9);
            expect(Math.abs((row.median as number) - middle(values))).toBeLessThanOrEqual(0.005 + 1e-9);
            expect(row.min).toBeCloseTo(Math.min(...values), 4);
            expect(row.max).toBeCloseTo(Math.max(...values), 4);
          }
          expect(answer.first).toContain(
            `${a} - ${b} (the second subtracted from the first; of dates, the days between`,
          );
          if (empty === 0) expect(answer.first).toContain("every record counted has one");
          else expect(answer.first).toContain(`${empty} record`);
        },
      ),
      { numRuns: 24 },
    );
  });

  it("takes a joined row's date: days from joining a program to the first form after it (N621's question)", async () => {
    const forms = await mkto.ok<Answer>({
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: { activityTypeIds: "Fill Out Form", sinceDatetime: "2026-10-01" },
      paginate: true,
      max_pages: 200,
      max_items: 100_000,
      count_by: "leadId",
      sum: "activityDate",
      keep_counted: true,
    });
    const link = forms.links.find((l) => l.mimeType === "application/json" && !l.title.startsWith("Records"));
    expect(link).toBeDefined();
    const joined = { join: `${link?.uri} on id = leadId`, where: `id in result("${link?.uri}", "leadId")` };
    const plain = await mkto.results<Row>(await mkto.ok<Answer>(members(1023, joined)));
    expect(plain.length).toBeGreaterThan(2);
    const days = plain.map(
      (r) =>
        Math.round(
          ((Date.parse(at(r, "joined.min") as string) -
            Date.parse(at(r, "membership.membershipDate") as string)) /
            DAY) *
            10_000,
        ) / 10_000,
    );
    const answer = await mkto.ok<Answer>(
      members(1023, { ...joined, count_by: "programId", sum: "joined.min - membership.membershipDate" }),
    );
    expect(answer.data.result).toHaveLength(1);
    expect(answer.data.result[0]?.count).toBe(plain.length);
    expect(Math.abs((answer.data.result[0]?.median as number) - middle(days))).toBeLessThanOrEqual(
      0.005 + 1e-9,
    );
  });

  it("subtracts numbers as numbers, and refuses a date minus a number, naming both values", async () => {
    const numbers = await mkto.ok<Answer>(
      members(1023, { count_by: "leadSource", sum: "leadScore - leadScore" }),
    );
    for (const row of numbers.data.result) if (row.median !== null) expect(row.median).toBe(0);
    const mixed = await mkto.call(members(1023, { count_by: "leadSource", sum: "createdAt - leadScore" }));
    expect(mixed.result.isError).toBe(true);
    expect(mixed.text).toContain("a difference is of two numbers, or of two dates (in days)");
    const unknown = await mkto.call(members(1023, { count_by: "leadSource", sum: "createdAt - joinedAt" }));
    expect(unknown.result.isError).toBe(true);
    expect(unknown.text).toContain("joinedAt");
    expect(unknown.text).toContain("membership.membershipDate");
  });
});
