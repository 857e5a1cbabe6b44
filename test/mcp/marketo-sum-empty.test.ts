import { describe, expect, it } from "vitest";
import { seededMarketo } from "../helpers/marketo-mcp.js";

/**
 * count_by's sum says how many records have no value of its field (trial s44, N608 spent a call counting them).
 * Review s54 found: through a list a record counted once per item was called a record each time (F4); rows min_count
 * left out named without a word (F5); an empty row value named "null" (F6). Each checked against the plain records.
 */
type Row = Record<string, unknown>;
interface Answer {
  result: Row[];
}
const mkto = seededMarketo(600);
const paired = (extra: Row) => ({
  method: "GET",
  endpoint: "/rest/v1/activities.json",
  query_parameters: {
    activityTypeIds: "Visit Webpage,Fill Out Form,Open Email,Click Email",
    sinceDatetime: "2026-11-01",
  },
  paginate: true,
  max_pages: 200,
  max_items: 100_000,
  previous: "Fill Out Form:any",
  ...extra,
});

describe("sum's records with no value", () => {
  it("counts items of a list as items, with the record's field named (review s54, F4)", async () => {
    const ids = Array.from({ length: 12 }, (_, i) => 1001 + i);
    const read = {
      method: "GET",
      endpoint: "/rest/asset/v1/program/{id}.json",
      query_parameters: { id: ids },
    };
    const programs = (await mkto.ok<Answer>(read)).data.result;
    const first = programs.find((p) => p.id === 1001) as Row;
    await mkto.ok({
      method: "POST",
      endpoint: "/rest/asset/v1/program/1001.json",
      body: { tags: [...(first.tags as Row[]), { tagType: "Region", tagValue: "EMEA" }] },
    });
    const again = (await mkto.ok<Answer>(read)).data.result;
    const items = again
      .filter((p) => !(Array.isArray(p.costs) && p.costs.length > 0))
      .reduce((sum, p) => sum + (p.tags as Row[]).length, 0);
    const answer = await mkto.ok<Answer>({ ...read, count_by: "tags.tagType", sum: "costs.cost" });
    expect(answer.first).toContain(`${items} items of tags whose record has no costs.cost are left out`);
  });

  it("says the rows min_count leaves out are counted too (review s54, F5)", async () => {
    const all = await mkto.ok<Answer>(paired({ count_by: "activityType", sum: "previous_hours" }));
    const kept = await mkto.ok<Answer>(
      paired({ count_by: "activityType", sum: "previous_hours", min_count: 100 }),
    );
    expect(kept.data.result.length).toBeLessThan(all.data.result.length);
    const words = (text: string) =>
      /\(([\d,]+) records with no previous_hours are left out[^)]*/.exec(text)?.[1];
    expect(words(kept.first)).toBe(words(all.first));
    expect(kept.first).toContain("over every row counted (rows left out by min_count or limit too)");
    expect(all.first).not.toContain("rows left out by min_count or limit too)");
  });

  it("names an empty row value as a table does, (empty) (review s54, F6)", async () => {
    const answer = await mkto.ok<Answer>(paired({ count_by: "campaignId", sum: "previous_hours" }));
    expect(answer.data.result.some((row) => row.campaignId === null)).toBe(true);
    expect(answer.first).toMatch(/left out: [^)]*\(empty\) \d/);
    expect(answer.first).not.toMatch(/left out: [^)]*null \d/);
  });

  it("names the rows with records without a value in the table's order, each figure the plain records' own (review s54, F6)", async () => {
    const plain = await mkto.results<Row>(await mkto.ok<Answer>(paired({})));
    // A name and its order reversed: read order can match one of them, not both.
    for (const order_by of ["activityType", "-activityType"]) {
      const answer = await mkto.ok<Answer>(
        paired({ count_by: "activityType", sum: "previous_hours", order_by }),
      );
      const said = /left out: ([^)]*?)(?:, over every|$|\))/.exec(answer.first)?.[1] ?? "";
      const pairs = said
        .split(", ")
        .map((part) => /^(.*) ([\d,]+)$/.exec(part)?.slice(1) as [string, string]);
      const empty = (type: unknown) =>
        plain.filter((r) => r.activityType === type && (r.previous_hours ?? null) === null).length;
      const table = answer.data.result.filter((row) => empty(row.activityType) > 0);
      expect(pairs.length).toBeGreaterThan(1);
      expect(pairs.map(([type, count]) => `${type} ${count.replace(/,/g, "")}`)).toEqual(
        table.map((row) => `${String(row.activityType)} ${empty(row.activityType)}`),
      );
    }
  });

  it("says nothing of rows left out when limit leaves none out (review s55, F7)", async () => {
    const answer = await mkto.ok<Answer>({
      method: "GET",
      endpoint: "/rest/asset/v1/program/{id}.json",
      query_parameters: { id: Array.from({ length: 30 }, (_, i) => 1001 + i) },
      count_by: "channel",
      sum: "costs.cost",
      limit: 100,
    });
    expect(answer.first).toMatch(/all \d+ count rows/);
    expect(answer.first).toContain("with no costs.cost");
    expect(answer.first).not.toContain("rows left out by min_count or limit too");
  });
});
