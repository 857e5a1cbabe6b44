import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { seededMarketo } from "../helpers/marketo-mcp.js";

/**
 * Trial s49: NPS's detractors, passives and promoters (N660) and the hours to a lead's first email in bands of
 * under 1, 1 to 24, 24 to 168 (N667) were worked out by a script from finer bands: count_by took equal bands only.
 * "npsScore:(0,7,9)" counts between the edges the caller names.
 *
 * Invariant, over generated edges and fields: each band's count is the number of the plain records the test puts in
 * it, every band between the first and the last counted is listed (0 where none), and the counts add up to the read.
 */
type Row = Record<string, unknown>;
interface Answer {
  result: Row[];
}
const mkto = seededMarketo(600);

const read = (extra: Row) => ({
  method: "GET",
  endpoint: "/rest/v1/lists/{listId}/leads.json",
  query_parameters: { listId: [1001, 1002], fields: "id,leadScore,npsScore,leadSource" },
  paginate: true,
  ...extra,
});

/** The band the test puts a number in, as the answer names it. */
function band(edges: readonly number[], value: number): string {
  const at = edges.findLastIndex((edge) => value >= edge);
  if (at < 0) return `under ${edges[0]}`;
  const next = edges[at + 1];
  return next === undefined ? `${edges[at]} or more` : `${edges[at]} to <${next}`;
}

const rising = fc
  .uniqueArray(fc.integer({ min: -10, max: 110 }), { minLength: 1, maxLength: 6 })
  .map((edges) => [...edges].sort((a, b) => a - b));

describe('count_by bands between edges ("npsScore:(0,7,9)", trial s49)', () => {
  it("counts each band as the plain records fall in it, lists the bands between with 0, and adds up", async () => {
    let plain: Row[] | undefined;
    await fc.assert(
      fc.asyncProperty(rising, fc.constantFrom("leadScore", "npsScore"), async (edges, field) => {
        const column = `${field}:(${edges.join(",")})`;
        // The same records every run: read once.
        plain ??= await mkto.results<Row>(await mkto.ok<Answer>(read({})));
        const answer = await mkto.ok<Answer>(read({ count_by: column }));
        const want = new Map<string | null, number>();
        for (const record of plain) {
          const value = record[field];
          const label = typeof value === "number" ? band(edges, value) : null;
          want.set(label, (want.get(label) ?? 0) + 1);
        }
        const got = new Map(
          answer.data.result.map((row) => [row[column] as string | null, Number(row.count)]),
        );
        for (const [label, count] of want) expect(got.get(label)).toBe(count);
        for (const [label, count] of got) if (!want.has(label)) expect(count).toBe(0);
        expect([...got.values()].reduce((a, b) => a + b, 0)).toBe(plain.length);
        // In band order, "under" first, the empty band last.
        const labels = answer.data.result.map((row) => row[column]).filter((label) => label !== null);
        const order = ["under", ...edges.map(String)];
        const rank = (label: unknown) => order.indexOf(String(label).split(" ")[0] as string);
        expect(labels.map(rank)).toEqual([...labels.map(rank)].sort((a, b) => a - b));
        expect(answer.first).toContain(`${column} is the band between the edges ${edges.join(", ")}`);
      }),
      { numRuns: 12 },
    );
  });

  it("lays the bands out as columns, ranked by a band's share of its row", async () => {
    const answer = await mkto.ok<Answer>(
      read({ count_by: "leadSource,npsScore:(0,7,9):columns", order_by: "-9 or more%" }),
    );
    const shares = answer.data.result.map((row) => Number(row["9 or more%"]));
    expect(shares).toEqual([...shares].sort((a, b) => b - a));
    for (const row of answer.data.result) {
      const cells = ["0 to <7", "7 to <9", "9 or more", "(empty)"].map((c) => Number(row[c] ?? 0));
      expect(cells.reduce((a, b) => a + b, 0)).toBe(row.total);
    }
  });

  it("refuses edges that do not rise, and the hint's example answers", async () => {
    const refused = await mkto.call<Answer>(read({ count_by: "npsScore:(9,7)" }));
    expect(refused.first).toMatch(
      /^Invalid count_by: "npsScore:\(9,7\)": bands between edges take 1 to 30 numbers, each above the one before/,
    );
    const example = /E\.g\. "([^"]+)"/.exec(refused.first)?.[1];
    expect(example).toBe("npsScore:(0,7,9)");
    expect((await mkto.call<Answer>(read({ count_by: example }))).result.isError).toBeFalsy();
  });
});
