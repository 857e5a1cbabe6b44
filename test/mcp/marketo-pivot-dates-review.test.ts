import { describe, expect, it } from "vitest";
import { seededMarketo } from "../helpers/marketo-mcp.js";

/** Review s57: the change 66ec8e51..1846388d (dated :columns tables, sum "a - b", sum's empty words) tried to break. */
type Row = Record<string, unknown>;
interface Answer {
  result: Row[];
  computed?: { sum?: number; records_sum?: number };
}
const mkto = seededMarketo(600);

const activities = (types: string, extra: Row) => ({
  method: "GET",
  endpoint: "/rest/v1/activities.json",
  query_parameters: { sinceDatetime: "2026-10-01", activityTypeIds: types },
  paginate: true,
  max_pages: 20,
  ...extra,
});
const members = (extra: Row) => ({
  method: "GET",
  endpoint: "/rest/v1/leads/programs/{programId}.json",
  query_parameters: {
    programId: [1001, 1003],
    fields: "id,leadSource,leadStatus,createdAt,updatedAt,lastWebinarDate,leadScore",
  },
  paginate: true,
  ...extra,
});

describe("review s57: dated :columns tables", () => {
  it("F1: with count_distinct, a dated :columns table's words say each cell is a distinct count", async () => {
    const call = activities("Send Email,Open Email", {
      count_by: "activityType:columns",
      count_distinct: "leadId",
      sum: "activityDate",
    });
    const pivot = await mkto.ok<Answer>(call);
    const long = await mkto.ok<Answer>({ ...call, count_by: "activityType" });
    const [line] = pivot.data.result;
    // Each cell is the distinct leads of its type (the long form's count), fewer than its records.
    for (const row of long.data.result) expect(line?.[String(row.activityType)]).toBe(row.count);
    expect(long.data.result.some((row) => Number(row.records) > Number(row.count))).toBe(true);
    // ...yet the summary says each cell counts its records.
    expect(pivot.first).not.toContain("each cell counts its records");
    expect(pivot.first).toContain("distinct leadId");
  });

  it("F2: a dated :columns table of one column offers no ratio of a column to min for a wrong order_by", async () => {
    const call = (order_by: string) =>
      mkto.call<Answer>(
        activities("Click Email", { count_by: "leadId,activityType:columns", sum: "activityDate", order_by }),
      );
    const refused = await call("-last");
    expect(refused.result.isError).toBe(true);
    const offered = /"(-[^"]+\/[^"]+)" by the ratio of two columns/.exec(refused.text)?.[1];
    expect(offered, refused.text).toBeDefined();
    const followed = await call(String(offered));
    // min is the row's first date, not a column: the ratio offered cannot be worked out.
    expect(followed.result.isError, followed.text).toBeFalsy();
  });

  it('F3: a dated :columns table with sum "activityDate:p90" is refused without saying its cells add dates, and no hint that fails when followed', async () => {
    const refused = await mkto.call<Answer>(
      activities("Open Email,Click Email", {
        count_by: "leadId,activityType:columns",
        sum: "activityDate:p90",
      }),
    );
    expect(refused.result.isError).toBe(true);
    // Since 1846388d a dated table's cells count; they add no date.
    expect(refused.text).not.toContain("each cell adds its records' activityDate");
    const offered = /count_by "([^"]+)"/.exec(refused.text)?.[1];
    if (offered !== undefined) {
      const followed = await mkto.call<Answer>(
        activities("Open Email,Click Email", { count_by: offered, sum: "activityDate:p90" }),
      );
      expect(followed.result.isError, followed.text).toBeFalsy();
    }
  });
});

describe("review s57: sum a - b and its clock", () => {
  it('F4: time_zone beside sum "lastWebinarDate - createdAt" alone is taken, and changes the figures', async () => {
    const read = (extra: Row) =>
      mkto.call<Answer>(members({ count_by: "leadSource", sum: "lastWebinarDate - createdAt", ...extra }));
    // The same records with a date in where, so time_zone is taken: the day alone is read on New York's clock.
    const since = { where: 'createdAt > "2000-01-01"' };
    const [utc, ny] = [await read(since), await read({ ...since, time_zone: "America/New_York" })];
    expect(ny.data.computed?.sum).not.toBe(utc.data.computed?.sum);
    // Without the where, time_zone is refused: "it applies to … and this call has none".
    const alone = await read({ time_zone: "America/New_York" });
    expect(alone.result.isError, alone.text).toBeFalsy();
    expect(alone.data.computed?.sum).toBe(ny.data.computed?.sum);
  });

  it("F9: with min_count, the words' records with no value list the rows left out most records first, after the table's", async () => {
    const listing = (text: string) => /are left out: (.*?)(?:, over every row counted|\);)/.exec(text)?.[1];
    const call = (extra: Row) =>
      mkto.ok<Answer>(members({ count_by: "leadSource", sum: "lastWebinarDate - createdAt", ...extra }));
    const all = await call({});
    const limited = await call({ limit: 4 });
    const least = await call({ min_count: 20 });
    expect(listing(all.first), all.first).toBeDefined();
    // limit's cut rows are listed in the order they would have had: the whole table's.
    expect(listing(limited.first)).toBe(listing(all.first));
    // min_count's are not (read order after the rows kept).
    expect(listing(least.first)).toBe(listing(all.first));
  });
});
