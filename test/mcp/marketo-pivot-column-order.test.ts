import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { seededMarketo } from "../helpers/marketo-mcp.js";

/**
 * A pivot's text table keeps its columns in the answer's order: the row fields, the columns field's values, then
 * total. Rows are objects, and an object puts keys that read as integers first, so a pivot by year printed
 * "2024 2025 2026 leadSource total" (review s29, finding 9). Property over pairs of fields on list 1001's
 * members: the text's header is the row field, then the columns in the order the structured answer counts them,
 * then total, and every line of the text holds the structured row's values in that order (text = JSON).
 */
interface Answer {
  result: Record<string, unknown>[];
}

const mkto = seededMarketo(5_000);

const FIELDS = ["leadSource", "createdAt:year", "leadScore:25", "id:1000"];

/** The result table of an answer's text: its header and lines, split on tabs. */
function resultTable(text: string): string[][] {
  const lines = text.split("\n");
  const at = lines.findIndex((line) => /^result \(\d+, tab-separated\):$/.test(line));
  expect(at, text.slice(0, 400)).toBeGreaterThanOrEqual(0);
  const count = Number(/\((\d+),/.exec(lines[at] as string)?.[1]);
  return lines.slice(at + 1, at + 2 + count).map((line) => line.split("\t"));
}

const cell = (value: unknown) => (value === null || value === undefined ? "" : String(value));

describe("a pivot's text table", () => {
  it("prints the row field first, then the columns in the answer's order, then total, whatever the values look like (fast-check)", async () => {
    const pairs = fc
      .tuple(fc.constantFrom(...FIELDS), fc.constantFrom(...FIELDS))
      .filter(([row, column]) => row.split(":")[0] !== column.split(":")[0]);
    await fc.assert(
      fc.asyncProperty(pairs, async ([row, column]) => {
        const { data, text } = await mkto.ok<Answer>({
          method: "GET",
          endpoint: "/rest/v1/lists/1001/leads.json",
          query_parameters: { fields: "id,leadScore,leadSource,createdAt", batchSize: 300 },
          paginate: true,
          count_by: `${row},${column}:columns`,
        });
        const [header, ...lines] = resultTable(text);
        expect(header?.[0]).toBe(row);
        expect(header?.at(-1)).toBe("total");
        const columns = (header ?? []).slice(1, -1);
        // The structured rows hold the same columns, each of them a count.
        for (const name of columns) expect(typeof data.result[0]?.[name], name).toBe("number");
        expect(Object.keys(data.result[0] ?? {}).sort()).toEqual([...(header ?? [])].sort());
        expect(lines).toHaveLength(data.result.length);
        lines.forEach((line, i) => {
          expect(line).toEqual((header ?? []).map((name) => cell(data.result[i]?.[name])));
        });
      }),
      { numRuns: 8 },
    );
  }, 120_000);

  it("prints a pivot by year with leadSource first: the years in order, then total", async () => {
    const { text } = await mkto.ok<Answer>({
      method: "GET",
      endpoint: "/rest/v1/lists/1001/leads.json",
      query_parameters: { fields: "id,leadSource,createdAt", batchSize: 300 },
      paginate: true,
      count_by: "leadSource,createdAt:year:columns",
    });
    const [header] = resultTable(text);
    expect(header?.[0]).toBe("leadSource");
    const years = (header ?? []).slice(1, -1);
    expect(years.length).toBeGreaterThan(1);
    expect(years).toEqual([...years].sort());
    for (const year of years) expect(year).toMatch(/^\d{4}$/);
  }, 60_000);
});
