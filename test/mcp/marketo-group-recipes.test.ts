import { describe, expect, it } from "vitest";
import { seededMarketo } from "../helpers/marketo-mcp.js";

/**
 * Recipes of the recipes resource for questions agents answered by reading whole logs back (trial s41 N580, N582: 729,000
 * and 777,000 characters; s40 N570 member by member): each run as served, its placeholders filled, and its rows checked
 * against the test's own computation over the same records read whole.
 */
type Row = Record<string, unknown>;
interface Answer {
  result: Row[];
  calls_used: number;
}

const mkto = seededMarketo(600);
const FROM = "2026-10-15";

async function served(task: string, from = FROM): Promise<Row> {
  const call = await mkto.recipe(task);
  expect(call, task).toBeDefined();
  return JSON.parse(JSON.stringify(call).replaceAll("<from>", from)) as Row;
}

const visits = async (extra: Row = {}) =>
  mkto.results<Row>(
    await mkto.ok<Answer>({
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: { sinceDatetime: FROM, activityTypeIds: "Visit Webpage" },
      paginate: true,
      max_pages: 200,
      ...extra,
    }),
  );

describe("recipes of groups, each in one call", () => {
  it("the most active lead of each industry, the latest visit breaking ties, with its first and last visit", {
    timeout: 60_000,
  }, async () => {
    const answer = await mkto.ok<Answer>(await served("the most active lead in each group"));
    const read = await visits({ lead_fields: "industry" });
    const byLead = new Map<unknown, { industry: unknown; count: number; first: string; last: string }>();
    for (const visit of read) {
      const date = String(visit.activityDate);
      const industry = (visit.lead as Row | undefined)?.industry ?? null;
      const seen = byLead.get(visit.leadId) ?? { industry, count: 0, first: date, last: date };
      byLead.set(visit.leadId, {
        industry,
        count: seen.count + 1,
        first: date < seen.first ? date : seen.first,
        last: date > seen.last ? date : seen.last,
      });
    }
    const industries = new Set([...byLead.values()].map((lead) => lead.industry || null));
    expect(answer.data.result).toHaveLength(industries.size);
    for (const row of answer.data.result) {
      const lead = byLead.get(row.leadId);
      expect(lead, JSON.stringify(row)).toBeDefined();
      expect([row.count, row.min, row.max]).toEqual([lead?.count, lead?.first, lead?.last]);
      // No lead of its industry visited more, nor as often and later.
      const rivals = [...byLead.values()].filter(
        (other) => (other.industry || null) === (lead?.industry || null),
      );
      const best = Math.max(...rivals.map((other) => other.count));
      expect(row.count).toBe(best);
      const latest = rivals.filter((other) => other.count === best).map((other) => other.last);
      expect(row.max).toBe(latest.sort().at(-1));
    }
  });

  it("pages by visitors who came on two days or more, and the rest", { timeout: 60_000 }, async () => {
    const answer = await mkto.ok<Answer>(await served("pages that bring the same people back"));
    const days = new Map<string, Set<string>>();
    for (const visit of await visits()) {
      const key = JSON.stringify([visit.primaryAttributeValue, visit.leadId]);
      days.set(key, (days.get(key) ?? new Set()).add(String(visit.activityDate).slice(0, 10)));
    }
    const expected = new Map<string, { true: number; false: number }>();
    for (const [key, seen] of days) {
      const page = JSON.parse(key)[0] as string;
      const counts = expected.get(page) ?? { true: 0, false: 0 };
      counts[seen.size >= 2 ? "true" : "false"] += 1;
      expected.set(page, counts);
    }
    expect([...expected.values()].some((counts) => counts.true > 0)).toBe(true);
    expect(answer.data.result).toHaveLength(expected.size);
    for (const row of answer.data.result) {
      const counts = expected.get(String(row.primaryAttributeValue));
      expect([row.true ?? 0, row.false ?? 0], JSON.stringify(row)).toEqual([counts?.true, counts?.false]);
    }
    const trues = answer.data.result.map((row) => Number(row.true ?? 0));
    expect(trues).toEqual([...trues].sort((a, b) => b - a));
  });

  it("each program's members joined since a date, new when created at most 24 hours before joining", {
    timeout: 60_000,
  }, async () => {
    // Half a year of joining: this world's members created within a day of joining are few.
    const since = "2026-06-01";
    const call = await served("each program's new members", since);
    const answer = await mkto.ok<Answer>(call);
    const { programId: _, ...own } = call.query_parameters as Row;
    const members = await mkto.results<Row>(
      await mkto.ok<Answer>({
        ...call,
        where: undefined,
        count_by: undefined,
        query_parameters: {
          ...own,
          programId: (call.query_parameters as Row).programId,
        },
      }),
    );
    const expected = new Map<unknown, { true: number; false: number }>();
    for (const member of members) {
      const joined = Date.parse(String((member.membership as Row).membershipDate));
      if (joined < Date.parse(`${since}T00:00:00Z`)) continue;
      const counts = expected.get(member.programId) ?? { true: 0, false: 0 };
      counts[Date.parse(String(member.createdAt)) >= joined - 86_400_000 ? "true" : "false"] += 1;
      expected.set(member.programId, counts);
    }
    expect([...expected.values()].reduce((n, counts) => n + counts.true, 0)).toBeGreaterThan(0);
    expect(answer.data.result).toHaveLength(expected.size);
    for (const row of answer.data.result) {
      const counts = expected.get(row.programId);
      expect([row.true ?? 0, row.false ?? 0], JSON.stringify(row)).toEqual([counts?.true, counts?.false]);
    }
  });
});

describe("activities within days after each lead's own date (trial s46, N633)", () => {
  it("counts each lead's deliveries in the 7 days after its own success in the program, as the plain records give them", {
    timeout: 120_000,
  }, async () => {
    const deliveries = await mkto.results<Row>(
      await mkto.ok<Answer>({
        method: "GET",
        endpoint: "/rest/v1/activities.json",
        query_parameters: { sinceDatetime: FROM, activityTypeIds: "Email Delivered" },
        paginate: true,
        max_pages: 200,
      }),
    );
    let seen = 0;
    for (const programId of [1003, 1013, 1023]) {
      const members = await mkto.results<Row>(
        await mkto.ok<Answer>({
          method: "GET",
          endpoint: `/rest/v1/programs/${programId}/members.json`,
          query_parameters: {
            filterType: "reachedSuccess",
            filterValues: "true",
            fields: "leadId,reachedSuccessDate",
          },
          paginate: true,
        }),
      );
      const since = new Map(members.map((m) => [m.leadId, Date.parse(String(m.reachedSuccessDate))]));
      const expected = new Map<unknown, number>();
      for (const d of deliveries) {
        const at = since.get(d.leadId);
        const when = Date.parse(String(d.activityDate));
        if (at !== undefined && when > at && when <= at + 7 * 86_400_000)
          expected.set(d.leadId, (expected.get(d.leadId) ?? 0) + 1);
      }
      const call = JSON.parse(
        JSON.stringify(await served("activities within days after each lead's own date")).replaceAll(
          "<programId>",
          String(programId),
        ),
      ) as Row;
      const answer = await mkto.ok<Answer>(call);
      const counted = new Map(answer.data.result.map((row) => [row.leadId, row.count]));
      expect(counted).toEqual(expected);
      seen += expected.size;
    }
    expect(seen).toBeGreaterThan(0);
  });
});
