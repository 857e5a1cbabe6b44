import { describe, expect, it } from "vitest";
import { seededMarketo } from "../helpers/marketo-mcp.js";

/** Review s58: the "activities within days after each lead's own date" recipe, time_zone with sum "a - b", pivots. */
type Row = Record<string, unknown>;
interface Answer {
  result: Row[];
}
const mkto = seededMarketo(600);
const recipeNote = async (task: string): Promise<string | undefined> => {
  const { contents } = await mkto.session.client.readResource({ uri: "martech-steps://recipes/marketo" });
  const { computed } = JSON.parse((contents[0] as { text: string }).text) as {
    computed: { task: string; note: string }[];
  };
  return computed.find((r) => r.task.startsWith(task))?.note;
};
const DAY = 86_400_000;

const served = async (from: string, programId: number): Promise<Row> =>
  JSON.parse(
    JSON.stringify(await mkto.recipe("activities within days after each lead's own date"))
      .replaceAll("<from>", from)
      .replaceAll("<programId>", String(programId)),
  ) as Row;

const deliveriesSince = async (from: string) =>
  mkto.results<Row>(
    await mkto.ok<Answer>({
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: { sinceDatetime: from, activityTypeIds: "Email Delivered" },
      paginate: true,
      max_pages: 200,
    }),
  );

const members = async (programId: number, values: string) =>
  mkto.results<Row>(
    await mkto.ok<Answer>({
      method: "GET",
      endpoint: `/rest/v1/programs/${programId}/members.json`,
      query_parameters: {
        filterType: "reachedSuccess",
        filterValues: values,
        fields: "leadId,reachedSuccessDate,membershipDate",
      },
      paginate: true,
    }),
  );

/** Each lead's deliveries in the 7 days after its own `field` date, over every delivery the sandbox has. */
function truth(deliveries: Row[], rows: Row[], field: string): Map<unknown, number> {
  const since = new Map(rows.map((m) => [m.leadId, Date.parse(String(m[field]))]));
  const expected = new Map<unknown, number>();
  for (const d of deliveries) {
    const at = since.get(d.leadId);
    const when = Date.parse(String(d.activityDate));
    if (at !== undefined && when > at && when <= at + 7 * DAY)
      expected.set(d.leadId, (expected.get(d.leadId) ?? 0) + 1);
  }
  return expected;
}

describe("review s58: marketo", () => {
  it("F5: the served recipe, <from> chosen as its note says (on or before the earliest date counted), counts each lead's whole 7 days", {
    timeout: 120_000,
  }, async () => {
    const call = await mkto.recipe("activities within days after each lead's own date");
    expect(JSON.stringify(call)).toBeDefined();
    const note = (await recipeNote("activities within days after each lead's own date")) ?? "";
    expect(note).toContain("<from> on or before the earliest date counted from");
    // The sandbox's deliveries begin 2026-10-02: reading since 2026-09-01 reads them all.
    const all = await deliveriesSince("2026-09-01");
    let seen = 0;
    for (const programId of [1012, 1013]) {
      const rows = await members(programId, "true");
      const earliest = new Date(Math.min(...rows.map((m) => Date.parse(String(m.reachedSuccessDate)))));
      const from = earliest.toISOString().slice(0, 10);
      const expected = truth(all, rows, "reachedSuccessDate");
      const answer = await mkto.ok<Answer>(await served(from, programId));
      expect(new Map(answer.data.result.map((row) => [row.leadId, row.count]))).toEqual(expected);
      seen += expected.size;
    }
    expect(seen).toBeGreaterThan(0);
  });

  it('F6: from each member\'s joining, as the note says (filterValues "true,false", joined.membershipDate)', {
    timeout: 120_000,
  }, async () => {
    const note = (await recipeNote("activities within days after each lead's own date")) ?? "";
    expect(note).toContain('filterValues "true,false" and joined.membershipDate');
    const all = await deliveriesSince("2026-09-01");
    const programId = 1013;
    const call = await served("2026-09-01", programId);
    const swapped = JSON.parse(
      JSON.stringify(call)
        .replaceAll("reachedSuccessDate", "membershipDate")
        .replace("filterValues=true&", "filterValues=true,false&"),
    ) as Row;
    const answer = await mkto.ok<Answer>(swapped);
    const counted = new Map(answer.data.result.map((row) => [row.leadId, row.count]));
    const expected = truth(all, await members(programId, "true,false"), "membershipDate");
    expect(expected.size).toBeGreaterThan(2);
    expect(counted).toEqual(expected);
  });

  it('F4: time_zone refused beside sum "a" says what it applies to, sum "a - b" of a date without an offset among them', async () => {
    const base = {
      method: "GET",
      endpoint: "/rest/v1/programs/1013/members.json",
      query_parameters: { filterType: "reachedSuccess", filterValues: "true,false" },
      paginate: true,
      count_by: "acquiredBy",
      time_zone: "Europe/Paris",
    };
    const one = await mkto.call({ ...base, sum: "seq" });
    expect(one.result.isError).toBe(true);
    expect(one.first).toMatch(/^Invalid time_zone/);
    expect(one.first).toContain('sum "a - b" (a date without an offset minus one with, or the other way)');
    // A quoted name holding " - " is one field, no difference: refused as sum "a" is (review s58, F4).
    const quoted = await mkto.call({ ...base, sum: "'seq - programId'" });
    expect(quoted.result.isError).toBe(true);
    expect(quoted.first).toMatch(/^Invalid time_zone/);
  });

  it("F7: a :columns table of a number's sum with count_distinct says what its cells are, once", async () => {
    const answer = await mkto.call<Answer>({
      method: "GET",
      endpoint: "/rest/v1/lists/1001/leads.json",
      query_parameters: { fields: "id,leadScore,industry,leadSource,leadStatus" },
      paginate: true,
      count_by: "leadSource,industry:columns",
      sum: "leadScore",
      count_distinct: "leadStatus",
    });
    if (answer.result.isError) return; // refused: fine
    // The cells are sums of leadScore (each far above the 5 leadStatus values), which add up: yet the words say
    // "distinct counts do not add up, so there is no total", and count_distinct was dropped without a word.
    const cells = answer.data.result.flatMap((row) =>
      Object.entries(row).flatMap(([k, v]) => (k === "leadSource" ? [] : [Number(v)])),
    );
    const sums = cells.some((v) => v > 5);
    const says = {
      adds: answer.text.includes("each cell adds"),
      distinct: answer.text.includes("distinct counts do not add up"),
    };
    expect({ sums, ...says }).not.toEqual({ sums: true, adds: true, distinct: true });
  });
});
