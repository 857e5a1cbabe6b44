import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firstOfEachByHand } from "../helpers/first-of-each.js";
import { seededMarketo } from "../helpers/marketo-mcp.js";

/**
 * limit "n per field" on marketo_api_call's reads (issue 27; trial s34: agents ranked within groups by hand,
 * each program's busiest day from 409 count rows). Invariant, over generated reads, count_by, order_by and n on
 * the sandbox through MCP: the answer is the same call without limit, each group's first n rows kept in that
 * order, with the same figures; the summary says how many of how many, and when a group's cut falls in a tie.
 */
type Row = Record<string, unknown>;
interface Answer {
  result: Row[];
  next_cursor?: string;
  computed?: Record<string, number>;
}

const mkto = seededMarketo(1_200);

const ACTIVITIES = {
  method: "GET",
  endpoint: "/rest/v1/activities.json",
  query_parameters: { activityTypeIds: "Open Email,Click Email", sinceDatetime: "2026-11-01" },
  paginate: true,
  max_pages: 200,
};
const LEADS = {
  method: "GET",
  endpoint: "/rest/v1/lists/1001/leads.json",
  query_parameters: { fields: "id,leadScore,leadSource,createdAt" },
  paginate: true,
};

/** The whole result of a call (its own rows, or the kept result it links). */
async function rows(args: Row): Promise<{ rows: Row[]; data: Answer; first: string }> {
  const answer = await mkto.ok<Answer>(args);
  return { rows: await mkto.results(answer), data: answer.data, first: answer.first };
}

const figures = ({ computed }: Answer) => {
  const { before_limit: _cut, ...rest } = computed ?? {};
  return rest;
};

describe('limit "n per field"', () => {
  it("keeps each group's first n rows of the same call without it, with the same figures (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          {
            read: ACTIVITIES,
            count_by: "primaryAttributeValue,activityDate:day",
            per: ["primaryAttributeValue"],
          },
          { read: ACTIVITIES, count_by: "activityType,activityDate:weekday", per: ["activityType"] },
          { read: ACTIVITIES, count_by: "activityDate:day,activityType", per: ["activityDate:day"] },
          { read: LEADS, count_by: "leadSource,leadScore:25", per: ["leadSource"] },
          { read: LEADS, count_by: undefined, per: ["leadSource"] },
        ),
        fc.boolean(),
        fc.integer({ min: 1, max: 3 }),
        async (shape, order, n) => {
          // A count row's order is its count; a lead's, its score.
          const order_by = order && (shape.count_by ? "-count" : "-leadScore,id");
          const args = { ...shape.read, ...(shape.count_by ? { count_by: shape.count_by } : {}) };
          const call = order_by ? { ...args, order_by } : args;
          // Without order_by, count rows come each group in turn, most frequent first (review s43, 2); records in
          // read order.
          const implied = shape.count_by && !order_by ? { order_by: `${shape.per.join(",")},-count` } : {};
          const whole = await rows({ ...call, ...implied });
          const each = await rows({ ...call, limit: `${n} per ${shape.per.join(",")}` });
          // Every record was read: no cursor re-reads what was shown (review s43, 1).
          expect(each.data.next_cursor).toBeUndefined();
          const expected = firstOfEachByHand(whole.rows, shape.per, n);
          expect(each.rows).toEqual(expected);
          // A plain read has no figures; with limit, those of every record read.
          if (whole.data.computed) expect(figures(each.data)).toEqual(figures(whole.data));
          else expect(figures(each.data)).toEqual({ read: whole.rows.length, matched: whole.rows.length });
          if (expected.length < whole.rows.length) {
            expect(each.first).toContain(
              `limit ${n} per ${shape.per.join(",")}: the first${n === 1 ? "" : ` ${n}`} of each ${shape.per.join(" and ")}, ${expected.length.toLocaleString("en-US")} of the ${whole.rows.length.toLocaleString("en-US")}`,
            );
            expect(each.data.computed?.before_limit).toBe(whole.rows.length);
          }
        },
      ),
      { numRuns: 12 },
    );
  });

  it("gives each group's busiest day, and says in how many groups the next day ties it", async () => {
    const call = { ...ACTIVITIES, count_by: "primaryAttributeValue,activityDate:day" };
    const whole = await rows(call);
    const each = await rows({ ...call, limit: "1 per primaryAttributeValue" });
    const groups = new Map<unknown, Row[]>();
    for (const row of whole.rows)
      groups.set(row.primaryAttributeValue, [...(groups.get(row.primaryAttributeValue) ?? []), row]);
    expect(each.rows).toHaveLength(groups.size);
    let ties = 0;
    for (const row of each.rows) {
      const counts = (groups.get(row.primaryAttributeValue) ?? []).map((r) => Number(r.count));
      expect(row.count).toBe(Math.max(...counts));
      if (counts.filter((c) => c === row.count).length > 1) ties += 1;
    }
    // The seeded world has such ties: the words below are tested, not skipped.
    expect(ties).toBeGreaterThan(0);
    expect(each.first).toContain(
      `(in ${ties} group${ties === 1 ? "" : "s"} (by primaryAttributeValue) the next row ties the last one kept on count: add a field to order_by to choose between them)`,
    );
    // Doing what the tie hint says: a second order_by field decides, and the ties are named no more.
    const decided = await rows({
      ...call,
      order_by: "-count,activityDate:day",
      limit: "1 per primaryAttributeValue",
    });
    const byGroup = (list: Row[]) => new Map(list.map((r) => [r.primaryAttributeValue, r.count]));
    expect(byGroup(decided.rows)).toEqual(byGroup(each.rows));
    expect(decided.first).not.toContain("ties the last one kept on count");
  });

  it("is the recipes resource's call for each email's busiest day, which answers one row an email", async () => {
    const call = await mkto.recipe("each email's busiest day");
    expect(call?.limit).toBe("1 per primaryAttributeValue");
    const answer = await rows(call ?? {});
    const emails = answer.rows.map((row) => row.primaryAttributeValue);
    expect(new Set(emails).size).toBe(emails.length);
    expect(emails.length).toBeGreaterThan(1);
  });

  it("keeps each day's most frequent type though count_by lists a day's types A to Z, and a pivot's ties on its total", async () => {
    const call = { ...ACTIVITIES, count_by: "activityDate:day,activityType" };
    const whole = await rows(call);
    const each = await rows({ ...call, limit: "1 per activityDate:day" });
    const best = new Map<unknown, number>();
    for (const row of whole.rows)
      best.set(row["activityDate:day"], Math.max(best.get(row["activityDate:day"]) ?? 0, Number(row.count)));
    expect(each.rows.length).toBe(best.size);
    for (const row of each.rows) expect(row.count).toBe(best.get(row["activityDate:day"]));
    // A pivot's rows are ranked by total: its ties are counted on it.
    const pivot = {
      ...LEADS,
      query_parameters: { fields: "id,leadSource,country,createdAt" },
      count_by: "leadSource,country,createdAt:year:columns",
    };
    const all = await rows(pivot);
    const top = await rows({ ...pivot, limit: "1 per leadSource" });
    const totals = new Map<unknown, number[]>();
    for (const row of all.rows)
      totals.set(row.leadSource, [...(totals.get(row.leadSource) ?? []), Number(row.total)]);
    const tied = [...totals.values()].filter((list) => list.length > 1 && list[0] === list[1]).length;
    expect(top.rows.map((row) => row.total)).toEqual([...totals.values()].map((list) => list[0]));
    if (tied > 0)
      expect(top.first).toContain(
        `(in ${tied} group${tied === 1 ? "" : "s"} (by leadSource) the next row ties the last one kept on total`,
      );
    else expect(top.first).not.toContain("ties the last one kept");
  });

  it("refuses a limit per every count_by field, which would cut nothing, naming one that cuts", async () => {
    const all = await mkto.call({
      ...LEADS,
      count_by: "leadSource,leadScore:25",
      limit: "1 per leadScore:25,leadSource",
    });
    expect(all.result.isError).toBe(true);
    expect(all.text).toContain(
      "names every count_by field, so each group is one count row and nothing is cut",
    );
    expect(all.text).toContain('limit "1 per leadSource"');
    await mkto.ok({ ...LEADS, count_by: "leadSource,leadScore:25", limit: "1 per leadSource" });
    // One count_by field: the hint is a plain limit, not the text refused (review s52, 12).
    const one = await mkto.call({ ...LEADS, count_by: "leadSource", limit: "1 per leadSource" });
    expect(one.text).toContain("give limit a number: e.g. limit 1, the first 1 count rows");
    const done = await mkto.ok<{ result: unknown[] }>({ ...LEADS, count_by: "leadSource", limit: 1 });
    expect(done.data.result).toHaveLength(1);
  });

  it("refuses a field that is not a count row's, naming those it takes, and a limit it cannot read", async () => {
    const stray = await mkto.call({ ...LEADS, count_by: "leadSource,leadScore:25", limit: "2 per email" });
    expect(stray.result.isError).toBe(true);
    expect(stray.text).toContain(
      "limit per takes a field of the count rows, and email is not one: leadSource, leadScore:25",
    );
    expect(stray.text).toContain('limit "2 per leadSource"');
    // Doing what it says answers.
    await mkto.ok({ ...LEADS, count_by: "leadSource,leadScore:25", limit: "2 per leadSource" });
    const odd = await mkto.call({ ...LEADS, limit: "top three" });
    expect(odd.result.isError).toBe(true);
    expect(odd.text).toContain('"top three" is not a limit');
    const unknown = await mkto.call({ ...LEADS, limit: "1 per leadSorce" });
    expect(unknown.result.isError).toBe(true);
    expect(unknown.text).toMatch(/leadSorce/);
    expect(unknown.text).toMatch(/leadSource/);
    // "10" is still the number 10.
    const ten = await mkto.ok<Answer>({ ...LEADS, limit: "10" });
    expect(ten.data.result).toHaveLength(10);
  });
});
