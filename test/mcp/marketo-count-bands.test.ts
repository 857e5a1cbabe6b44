import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildDataSet } from "../../src/sandbox/marketo/seed.js";
import { SEEDED_AT, seededMarketo } from "../helpers/marketo-mcp.js";

/**
 * count_by a number's bands ("leadScore:25": 0 to <25, 25 to <50, …). Score bands, order sizes and "how many got
 * N emails" were worked out by the model from per-value counts (trials s23, s24; trial s25, N317 and N321).
 * Property, over generated widths and a second field on list 1001's members, whose truth is the seeded data set:
 * each band counts the members whose value is in it, every band from the first to the last is listed (0 where
 * none), in band order, and the counts add up to the members (empty values one row, empty).
 */
interface Answer {
  result: Record<string, unknown>[];
}

const world = buildDataSet({ leadCount: 5_000, seed: 42, now: SEEDED_AT });
const members = [...(world.lists.find((list) => list.id === 1001)?.members ?? [])].flatMap((id) => {
  const lead = world.leads.get(id);
  return lead ? [lead as Record<string, unknown>] : [];
});

const mkto = seededMarketo(5_000);

const read = (count_by: string) =>
  mkto.ok<Answer>({
    method: "GET",
    endpoint: "/rest/v1/lists/1001/leads.json",
    query_parameters: { fields: "id,leadScore,leadSource", batchSize: 300 },
    paginate: true,
    count_by,
  });

const scoreOf = (lead: Record<string, unknown>) =>
  lead.leadScore === null || lead.leadScore === undefined || lead.leadScore === ""
    ? undefined
    : Number(lead.leadScore);
const label = (low: number, width: number) => `${low} to <${low + width}`;

describe("count_by a number's bands", () => {
  it("counts each band's records, lists every band from the first to the last in order, and adds up (fast-check)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(5, 10, 20, 25, 50), async (width) => {
        const column = `leadScore:${width}`;
        const { data, first } = await read(column);
        const want = new Map<string | null, number>();
        for (const lead of members) {
          const score = scoreOf(lead);
          const key = score === undefined ? null : label(Math.floor(score / width) * width, width);
          want.set(key, (want.get(key) ?? 0) + 1);
        }
        const rows = data.result as Record<string, unknown>[];
        const got = new Map(
          rows
            .filter((row) => Number(row.count) > 0)
            .map((row) => [row[column] as string | null, Number(row.count)]),
        );
        expect(got).toEqual(want);
        const bands = rows
          .map((row) => row[column])
          .filter((value): value is string => typeof value === "string");
        const lows = bands.map((band) => Number.parseFloat(band));
        expect(lows).toEqual(lows.map((_, i) => (lows[0] ?? 0) + i * width));
        expect(rows.reduce((sum, row) => sum + Number(row.count), 0)).toBe(members.length);
        expect(first).toContain(`${column} is the band of ${width}`);
      }),
      { seed: 325, numRuns: 5 },
    );
  });

  it("crosses with a field, and refuses a value that is no number, naming the field", async () => {
    const crossed = await read("leadSource,leadScore:25");
    const total = (crossed.data.result as Record<string, unknown>[]).reduce(
      (sum, row) => sum + Number(row.count),
      0,
    );
    expect(total).toBe(members.length);
    const refused = await mkto.call({
      method: "GET",
      endpoint: "/rest/v1/lists/1001/leads.json",
      query_parameters: { fields: "id,leadSource", batchSize: 300 },
      paginate: true,
      count_by: "leadSource:10",
    });
    expect(refused.result.isError).toBe(true);
    expect(refused.first).toContain("leadSource:10 counts by bands of 10, and leadSource holds");
  });

  it("keeps the width as written, which order_by names; its words and refusals fit bands (review s30, finding 9)", async () => {
    const asked = {
      method: "GET",
      endpoint: "/rest/v1/lists/1001/leads.json",
      query_parameters: { fields: "id,leadScore", batchSize: 300 },
      paginate: true,
    };
    const written = await mkto.ok<Answer>({
      ...asked,
      count_by: "leadScore:25.0",
      order_by: "-leadScore:25.0",
    });
    const labels = written.data.result.map((row) => String(row["leadScore:25.0"]));
    expect(labels[0]).toMatch(/ to </);
    const lows = labels.filter((label) => label !== "null").map((label) => Number.parseFloat(label));
    expect(lows).toEqual([...lows].sort((a, b) => b - a));
    expect(written.first).toContain("(0 to <25: from 0, under 25)");
    const inWhere = await mkto.call({ ...asked, count_by: "leadSource", where: "leadScore:25 == 1" });
    expect(inWhere.result.isError).toBe(true);
    expect(inWhere.first).toContain("test its field in where (e.g. leadScore >= 25)");
    const negative = await mkto.call({ ...asked, count_by: "leadScore:-5" });
    expect(negative.result.isError).toBe(true);
    expect(negative.first).toContain('a width above 0 after a number field per band ("leadScore:25")');
  });
});
