import { describe, expect, it } from "vitest";
import { countOptions } from "../../src/tools/records/count-fields.js";
import { differenceValues } from "../../src/tools/records/sum-difference.js";
import { seededMarketo } from "../helpers/marketo-mcp.js";

/** Review s56: sum "a - b" (66ec8e51) tried against lists, per, time zones and pivots. */
type Row = Record<string, unknown>;
interface Answer {
  result: Row[];
  computed?: { sum?: number; records_sum?: number };
}
const mkto = seededMarketo(600);

const FORMS =
  '"/rest/v1/activities.json?activityTypeIds=Fill Out Form&sinceDatetime=2026-10-01" on id = leadId';
const members = (extra: Row) => ({
  method: "GET",
  endpoint: "/rest/v1/leads/programs/{programId}.json",
  query_parameters: {
    programId: [1023],
    fields: "id,leadSource,createdAt,updatedAt,leadScore,lastWebinarDate",
  },
  paginate: true,
  ...extra,
});

describe("review s56: sum a - b, each finding as fixed", () => {
  it("F1: a difference reading a key of a list's items is counted item by item (joined forms, costs), as the refusal of several values per record says to", async () => {
    // N621's own question, each form after joining: a member with two forms is refused, naming the fix
    // "count by joined.activityDate instead"...
    const perLead = await mkto.call({
      ...members({ join: FORMS }),
      count_by: "leadSource",
      sum: "joined.activityDate - membership.membershipDate",
    });
    expect(perLead.result.isError).toBe(true);
    expect(perLead.text).toContain("count by joined.activityDate instead");
    // ...which, followed, is refused as "a value by its name in joined" with a hint of joined.value, a key no item has.
    const followed = await mkto.call({
      ...members({ join: FORMS }),
      count_by: "joined.activityDate:month",
      sum: "joined.activityDate - membership.membershipDate",
    });
    expect(followed.result.isError, followed.text).toBeFalsy();
    // The same through a program's costs: each cost period's days from the program's creation.
    const costs = await mkto.call({
      method: "GET",
      endpoint: "/rest/asset/v1/program/{id}.json",
      query_parameters: { id: Array.from({ length: 30 }, (_, i) => 1001 + i) },
      count_by: "costs.startDate:year",
      sum: "createdAt - costs.startDate",
    });
    expect(costs.result.isError, costs.text).toBeFalsy();
  });

  it("F2: a per-listed field inside a difference gets per's own refusal before the read", async () => {
    const base = {
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: { activityTypeIds: "Fill Out Form,Visit Webpage", sinceDatetime: "2026-11-01" },
      paginate: true,
      max_pages: 200,
      lead_fields: "createdAt",
      per: "leadId,activityDate:day",
      count_by: "types",
    };
    const plain = await mkto.call({ ...base, sum: "activityDate:day" });
    expect(plain.result.isError).toBe(true);
    expect(plain.text).toContain("on per's rows is its values joined by");
    const difference = await mkto.call({ ...base, sum: "activityDate:day - lead.createdAt" });
    expect(difference.result.isError).toBe(true);
    // Refused as per's plain sum is (the listed value is joined text), not as "a date from a date".
    expect(difference.text).toContain("on per's rows is its values joined by");
    expect(difference.text).not.toContain("Subtract a date from a date");
  });

  it("F3: with time_zone, the days between two dates alone (no time) across a DST change are whole days", () => {
    // per's listed day ("activityDate:day") is refused in a difference since F2, so F3 is checked where it is computed.
    const read = (values: Record<string, string>) => (field: string) =>
      values[field] ? [values[field]] : [];
    const difference = { minuend: "a", subtrahend: "b", text: "a - b" };
    const across = read({ a: "2026-11-03", b: "2026-09-14" });
    expect(differenceValues(across, difference, "America/New_York")).toEqual([50]);
    // Two times on the clock: the clock's days apart, no hour gained at the change.
    const times = read({ a: "2026-11-02T09:00:00", b: "2026-10-31T09:00:00" });
    expect(differenceValues(times, difference, "America/New_York")).toEqual([2]);
    // An instant beside a day on the clock: the day read on that clock (New York's midnight is 05:00Z in November).
    const mixed = read({ a: "2026-11-03", b: "2026-11-02T05:00:00Z" });
    expect(differenceValues(mixed, difference, "America/New_York")).toEqual([1]);
  });

  it("F4: counted through a list, records_sum of a difference is on time_zone's clock as the rows' sums are", async () => {
    const read = (zone: Row) =>
      mkto.ok<Answer>({
        ...members({ join: FORMS, ...zone }),
        count_by: "joined.primaryAttributeValue",
        sum: "lastWebinarDate - createdAt",
      });
    const utc = await read({});
    const ny = await read({ time_zone: "America/New_York" });
    // records_sum is given where it differs from sum; absent, the records' own total is sum.
    const own = (a: typeof utc) => a.data.computed?.records_sum ?? a.data.computed?.sum;
    // Each date alone moves 4 or 5 hours later on New York's clock: the rows' sum moves...
    expect(ny.data.computed?.sum).toBeGreaterThan(utc.data.computed?.sum as number);
    // ...and the records' own total, over the same records, must move with it.
    expect(own(ny), `${utc.first}\n---\n${ny.first}`).toBeGreaterThan(own(utc) as number);
  });

  it("F5: a pivot's row totals of a difference are tidied (not 9269.479599999999)", async () => {
    const answer = await mkto.ok<Answer>({
      ...members({}),
      count_by: "leadSource,membership.progressionStatus:columns",
      sum: "updatedAt - createdAt",
    });
    for (const row of answer.data.result) {
      const total = row.total as number;
      expect(total, JSON.stringify(row)).toBe(Number(total.toFixed(4)));
    }
  });

  it('F6: "a-b" without spaces is refused offering "a - b"', async () => {
    const answer = await mkto.call({ ...members({}), count_by: "leadSource", sum: "updatedAt-createdAt" });
    expect(answer.result.isError).toBe(true);
    expect(answer.text).toContain("updatedAt - createdAt");
  });

  it('F7: a plain sum of a quoted name holding " - " stays one field', () => {
    // Accepted before 66ec8e51 (a pivot's column by a value such as the list "Imported - Unprocessed", joined).
    const options = countOptions({ sum: '"Imported - Unprocessed"' }, ["leadSource"]);
    expect(options.sum).toBe("Imported - Unprocessed");
    expect(() => countOptions({ sum: 'joined."Imported - Unprocessed"' }, ["leadSource"])).not.toThrow();
  });
});
