/**
 * A sort, or limit "n per field" without count_by, needs every matching record at once: past what a kept result
 * holds (MARTECH_STEPS_RESULT_MAX_BYTES, 20 KB here) it is refused before an answer of part of them, naming the
 * setting, and each hint works when followed (review s43: limit per is held whole, as a sort is).
 */
import { describe, expect, it } from "vitest";
import { seededMarketo } from "../helpers/marketo-mcp.js";

const mkto = seededMarketo(1_200, { MARTECH_STEPS_RESULT_MAX_BYTES: "20000" });
const LEADS = {
  method: "GET",
  endpoint: "/rest/v1/lists/1001/leads.json",
  query_parameters: { fields: "id,email,leadScore,leadSource,createdAt" },
  paginate: true,
};

describe("a sort or limit per past what a kept result holds", () => {
  it("refuses order_by, naming the setting, and its hint's narrower where answers", async () => {
    const sorted = await mkto.call({ ...LEADS, order_by: "-leadScore,id" });
    expect(sorted.result.isError).toBe(true);
    expect(sorted.text).toContain("sorting needs every matching record at once");
    expect(sorted.text).toContain("MARTECH_STEPS_RESULT_MAX_BYTES");
    expect(sorted.text).toContain("Narrow the records with where");
    await mkto.ok({ ...LEADS, order_by: "-leadScore,id", where: "leadScore > 98" });
  });

  it("refuses limit per, and both of its hint's ways answer", async () => {
    const each = await mkto.call({ ...LEADS, limit: "2 per leadSource" });
    expect(each.result.isError).toBe(true);
    expect(each.text).toContain("limit per needs every matching record at once");
    expect(each.text).toContain('count_by "leadSource,<another field>" with limit "1 per leadSource"');
    await mkto.ok({ ...LEADS, limit: "2 per leadSource", where: "leadScore > 98" });
    const counted = await mkto.ok<{ result: { leadSource: string }[] }>({
      ...LEADS,
      count_by: "leadSource,leadScore:25",
      limit: "1 per leadSource",
    });
    const sources = counted.data.result.map((row) => row.leadSource);
    expect(new Set(sources).size).toBe(sources.length);
  });
});
