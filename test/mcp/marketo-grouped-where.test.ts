/**
 * Review s36, finding 8: a read of more than 10 activity types (read in groups of 10, joined in memory) with where
 * stopped at the bytes of the records *read*, before where: 6 of 240 records matched, and the answer said "raise
 * max_items", which could not help. The invariant, through MCP on the sandbox with kept results of at most 20 KB:
 * a grouped read with where reads every record max_items allows, its figures are those of the whole read, and
 * what passes the bytes is cut from the matching records (sorted first when order_by asks), never from the read.
 */
import { describe, expect, it } from "vitest";
import { seededMarketo } from "../helpers/marketo-mcp.js";

type Activity = { id: number; activityDate: string; activityType: string; leadId: number };
interface Read {
  result: Activity[];
  complete: boolean;
  computed?: { read: number; matched: number };
}

const mkto = seededMarketo(300, { MARTECH_STEPS_RESULT_MAX_BYTES: "20000" });
const READ = {
  method: "GET",
  endpoint: "/rest/v1/activities.json",
  query_parameters: { sinceDatetime: "2026-11-20T00:00:00Z", activityTypeIds: "all" },
  paginate: true,
  max_pages: 200,
  max_items: 100_000,
};

/** The records of the whole read, counted per type (count_by keeps no record: nothing cuts it). */
async function wholeCount(): Promise<{ read: number; byType: Map<string, number> }> {
  const counted = await mkto.ok<{ result: { activityType: string; count: number }[] } & Read>({
    ...READ,
    count_by: "activityType",
  });
  expect(counted.data.complete).toBe(true);
  return {
    read: counted.data.computed?.read ?? 0,
    byType: new Map(counted.data.result.map((row) => [row.activityType, row.count])),
  };
}

describe("a grouped read with where is cut by the matching records' bytes, not the read's", () => {
  it("reads the whole read when few match, and answers them all", async () => {
    const whole = await wholeCount();
    const few = await mkto.ok<Read>({ ...READ, where: 'activityType = "Click Email"' });
    expect(few.data.computed?.read).toBe(whole.read);
    expect(few.data.computed?.matched).toBe(whole.byType.get("Click Email"));
    expect(few.data.result).toHaveLength(whole.byType.get("Click Email") ?? -1);
    expect(few.data.complete).toBe(true);
    expect(few.first).not.toContain("stopped before its end");
  });

  it("cuts the matching records, in order, when they pass the bytes: the figures are of them all", async () => {
    const whole = await wholeCount();
    const where = 'activityType in ("Send Email", "Email Delivered")';
    const many = await mkto.ok<Read>({ ...READ, where });
    const matching = (whole.byType.get("Send Email") ?? 0) + (whole.byType.get("Email Delivered") ?? 0);
    expect(many.data.computed?.read).toBe(whole.read);
    expect(many.data.computed?.matched).toBe(matching);
    expect(many.data.complete).toBe(false);
    const held = (await mkto.results(many)).length;
    expect(held).toBeLessThan(matching);
    expect(many.first).toContain(
      `the first ${held} of the ${matching} records are shown here; the rest are not kept, the most one answer holds (the figures are of them all)`,
    );
    // Sorted, the first records held are the first of the whole sort.
    const sorted = await mkto.ok<Read>({ ...READ, where, order_by: "-leadId,id" });
    const top = await mkto.results(sorted);
    expect(top.length).toBeGreaterThan(0);
    expect(top.length).toBeLessThan(matching);
    const maxLead = Math.max(...top.map((r) => r.leadId));
    const everyMatching = await mkto.ok<{ result: { leadId: number; count: number }[] }>({
      ...READ,
      where,
      count_by: "leadId",
    });
    expect(maxLead).toBe(Math.max(...everyMatching.data.result.map((r) => Number(r.leadId))));
    const ids = top.map((r) => r.leadId);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });
});

describe("a grouped read that sorts or pairs, without where, reads to max_items too (review s37, 1)", () => {
  it("answers as the same read with a where that keeps every record", async () => {
    for (const extra of [
      { order_by: "-activityDate", limit: 3 },
      { next: "Fill Out Form", limit: 5 },
    ]) {
      const alone = await mkto.ok<Read>({ ...READ, ...extra });
      const withWhere = await mkto.ok<Read>({ ...READ, ...extra, where: "id > 0" });
      expect(alone.data.result).toEqual(withWhere.data.result);
      expect(alone.data.computed?.read).toBe(withWhere.data.computed?.read);
      expect(alone.data.complete).toBe(true);
      expect(alone.first).not.toContain("stopped before its end");
    }
  });

  it("with limit alone, reads each group to its first n records: the earliest n as the whole read gives (review s38)", async () => {
    const alone = await mkto.ok<Read & { calls_used: number; warnings: string[] }>({ ...READ, limit: 3 });
    const whole = await mkto.ok<Read & { calls_used: number }>({ ...READ, limit: 3, where: "id > 0" });
    expect(alone.data.result).toEqual(whole.data.result);
    expect(alone.data.calls_used).toBeLessThan(whole.data.calls_used);
    expect(alone.data.warnings).toContain(
      "limit 3 in time order: 2 groups of types were read to their first 3 records only, all the earliest results need (the figures are of the records read).",
    );
  });

  it("with limit past what an answer holds, counts the results before the limit (review s37, 6)", async () => {
    const where = 'activityType in ("Send Email", "Email Delivered")';
    const cut = await mkto.ok<Read>({ ...READ, where, order_by: "-leadId", limit: 70 });
    const matched = cut.data.computed?.matched ?? 0;
    const held = cut.data.result.length;
    expect(held).toBeLessThan(70);
    expect(cut.first).toContain(
      `the first ${held} of the ${matched} records are shown here; the rest are not kept, the most one answer holds (limit 70 is more than that)`,
    );
  });
});

// Kept results of 60 KB, more than an answer shows (45 KB): the rest of what is kept is linked.
const linked = seededMarketo(300, { MARTECH_STEPS_RESULT_MAX_BYTES: "60000" });

describe("the link of a grouped read's results cut at the most a kept result holds", () => {
  it("names that cut, not the call's where or limit (review s36, 5)", async () => {
    const answer = await linked.ok<Read>({
      ...READ,
      query_parameters: { sinceDatetime: "2026-11-01T00:00:00Z", activityTypeIds: "all" },
      where: 'activityType != "Visit Webpage"',
    });
    const matched = answer.data.computed?.matched ?? 0;
    const read = answer.data.computed?.read ?? 0;
    const held = (await linked.results(answer)).length;
    expect(held).toBeLessThan(matched);
    expect(answer.data.result.length).toBeLessThan(held);
    expect(answer.links[0]?.title).toBe(
      `Full result: ${held.toLocaleString("en-US")} records (the first of ${matched.toLocaleString("en-US")} results, the most a kept result holds; ${read.toLocaleString("en-US")} read) (JSON)`,
    );
    expect(answer.first).toContain(
      `of the ${matched.toLocaleString("en-US")} records are shown here, the first ${held.toLocaleString("en-US")} in the full result linked below; the rest are not kept`,
    );
  });
});
