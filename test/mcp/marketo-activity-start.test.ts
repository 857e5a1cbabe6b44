import { describe, expect, it } from "vitest";
import { iso, marketoOverMcp, NO_CALL_WINDOW, runningClock } from "../helpers/marketo-mcp.js";

/**
 * Issue 27 (trials s13 N85/N91, s14 N113): the sandbox's activity log begins weeks before its clock, and no
 * answer said so; agents learned it from empty export windows. A read of activities.json since a date says
 * when its first activity comes a day or more after that date, and the claim holds: reading again from just
 * before that activity finds the same first record, and no warning.
 */
interface Answer {
  result: { id: number; activityDate: string }[];
  warnings: string[];
}
const mkto = marketoOverMcp(
  { leadCount: 300, seed: 5, now: runningClock(Date.UTC(2026, 11, 2, 12)), rateLimit: 1_000_000 },
  undefined,
  NO_CALL_WINDOW,
);
// Said in the summary, the answer's first line (review s20, finding 10), not among the warnings.
const STARTS =
  /The first activity read is on \d+ \w+ \d{4} \((\S+)\), ([\d,]+) days? after sinceDatetime (\S+): /;
const read = (since: string, extra: Record<string, unknown> = {}, types = "10") =>
  mkto.ok<Answer>({
    method: "GET",
    endpoint: "/rest/v1/activities.json",
    query_parameters: { activityTypeIds: types, sinceDatetime: since },
    paginate: true,
    max_pages: 200,
    max_items: 5,
    ...extra,
  });

describe("a cursor of a read that named its activity types", () => {
  it("continues when the call is made again as written, type names and all (the answer's own hint)", async () => {
    for (const extra of [{}, { where: "leadId > 0" }]) {
      const first = await read("2020-01-01", { ...extra, max_items: 2 }, "Open Email, Click Email");
      expect(first.text).toContain("call again with cursor = next_cursor (same method, endpoint");
      const cursor = (first.data as unknown as { next_cursor?: string }).next_cursor;
      const again = await read("2020-01-01", { ...extra, max_items: 2, cursor }, "Open Email, Click Email");
      expect(again.data.result.map((a) => a.id)).not.toEqual(first.data.result.map((a) => a.id));
      expect(again.data.result[0]?.id ?? 0).toBeGreaterThan(first.data.result.at(-1)?.id ?? 0);
    }
  });
});

describe("the first activity after sinceDatetime", () => {
  it("is named, with its date, when it comes days later; and reading from just before it finds it first", async () => {
    const { data, text, first: line } = await read("2020-01-01");
    const said = STARTS.exec(line);
    expect(data.warnings.some((w) => STARTS.test(w))).toBe(false);
    expect(said, text).toBeTruthy();
    const first = data.result[0]?.activityDate ?? "";
    expect(said?.[1]).toBe(first);
    // A date alone is sent as its midnight in UTC (date-bounds.ts), and named as sent.
    expect(said?.[3]).toBe("2020-01-01T00:00:00Z");
    const near = await read(iso(Date.parse(first) - 60 * 60 * 1000));
    expect(near.data.result[0]?.id).toBe(data.result[0]?.id);
    expect(STARTS.test(near.text)).toBe(false);
  });

  it("is said by a counted read too, and not by a resumed one", async () => {
    const counted = await read("2020-01-01", { count_by: "activityType" });
    expect(STARTS.test(counted.first), counted.text).toBe(true);
    const first = await read("2020-01-01", { max_items: 2 });
    const cursor = (first.data as unknown as { next_cursor?: string }).next_cursor;
    expect(cursor).toBeDefined();
    const resumed = await read("2020-01-01", { cursor, max_items: 2 });
    expect(resumed.data.result.length).toBeGreaterThan(0);
    expect(STARTS.test(resumed.text)).toBe(false);
  });

  it("read for some leads says how to tell a late log from quiet leads, and that read works (trial s19, N213)", async () => {
    const everyone = await read("2020-01-01");
    const lead = everyone.data.result[0] as unknown as { leadId: number; activityDate: string };
    const forLead = await read("2020-01-01", {
      query_parameters: { activityTypeIds: "10", sinceDatetime: "2020-01-01", leadIds: String(lead.leadId) },
    });
    const said = STARTS.test(forLead.first) ? forLead.first : "";
    expect(said).toContain(
      "Whether the log itself begins later: the same read without leadIds gives the first of these types in the whole log.",
    );
    expect(everyone.first).toMatch(STARTS);
    expect(everyone.first).not.toContain("without leadIds");
    // Done as it says: the read for everyone starts no later than the lead's.
    expect(Date.parse(lead.activityDate)).toBeLessThanOrEqual(
      Date.parse(forLead.data.result[0]?.activityDate ?? ""),
    );
  });

  it("for more than 10 types, suggests a read of each 10 with max_items 1, and those reads work (review s21, 5)", async () => {
    const types = (
      await mkto.ok<{ result: { id: number }[] }>({
        method: "GET",
        endpoint: "/rest/v1/activities/types.json",
      })
    ).data.result.map((type) => type.id);
    const everyone = await read("2020-01-01");
    const lead = (everyone.data.result[0] as unknown as { leadId: number }).leadId;
    const forLead = await read("2020-01-01", {
      query_parameters: { activityTypeIds: "all", sinceDatetime: "2020-01-01", leadIds: String(lead) },
      max_items: 100_000,
    });
    expect(forLead.first).toContain(
      "Whether the log itself begins later: a read without leadIds of each 10 of these types, max_items 1, gives the first of each in the whole log.",
    );
    const firsts = [];
    for (let start = 0; start < types.length; start += 10) {
      const group = await read("2020-01-01", { max_items: 1 }, types.slice(start, start + 10).join(","));
      firsts.push(...group.data.result.map((a) => Date.parse(a.activityDate)));
    }
    expect(Math.min(...firsts)).toBeLessThanOrEqual(Date.parse(forLead.data.result[0]?.activityDate ?? ""));
  });
});
