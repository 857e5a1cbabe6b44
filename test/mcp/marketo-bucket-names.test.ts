/**
 * A misspelt or spaced date bucket in count_by or per is offered back as a bucket (review s39, 14): "activityDat:day"
 * was offered "e.g. activityDate", which counts by instant, not by day; "activityDate: day" is read as one name and
 * time_zone took it for a bucket. Each hint is followed: the name it offers is taken, and counts by day.
 */
import { describe, expect, it } from "vitest";
import { seededMarketo } from "../helpers/marketo-mcp.js";

interface Read {
  result: Record<string, unknown>[];
}

const mkto = seededMarketo(300);
const READ = {
  method: "GET",
  endpoint: "/rest/v1/activities.json",
  query_parameters: { sinceDatetime: "2026-11-20", activityTypeIds: "Visit Webpage" },
  paginate: true,
};
/** The name a refusal offers ("e.g. activityDate:day"), without its note on the space. */
const offered = (text: string) => /e\.g\. ([^ ]+?)(?: \(no space after the colon\))?\.?$/m.exec(text)?.[1];

describe("a misspelt or spaced bucket is offered back as a bucket", () => {
  it.each([
    ["count_by", "activityDat:day", "activityDate:day"],
    ["count_by", "activityDate: day", "activityDate:day"],
    ["per", "activityDat:day,leadId", "activityDate:day"],
    ["per", "leadId,activityDate: week", "activityDate:week"],
    // count_distinct too (review s42, 3: offered the plain field, which counts instants).
    ["count_distinct", "activityDate: day", "activityDate:day"],
  ])("%s %j offers %s, which is taken", async (input, written, name) => {
    const counting = input === "count_distinct" ? { count_by: "activityType" } : {};
    const refused = await mkto.call<Read>({ ...READ, ...counting, [input]: written });
    expect(refused.result.isError).toBe(true);
    expect(offered(refused.text)).toBe(name);
    if (written.includes(": ")) expect(refused.text).toContain(`e.g. ${name} (no space after the colon).`);
    const fixed = input === "per" ? written.replace(/activityDat?e?: ?/, "activityDate:") : name;
    const { data } = await mkto.ok<Read>({ ...READ, ...counting, [input]: fixed });
    expect(data.result.length).toBeGreaterThan(0);
    const column =
      input === "count_distinct"
        ? "count"
        : input === "per" && fixed.startsWith("leadId")
          ? `${name}_count`
          : name;
    expect(Object.keys(data.result[0] ?? {})).toContain(column);
  });

  it("keeps time_zone beside a spaced bucket, whose refusal offers the bucket, which counts on that clock", async () => {
    const leads = {
      method: "GET",
      endpoint: "/rest/v1/leads.json",
      query_parameters: { filterType: "id", filterValues: "1,2,3,4,5,6,7,8", fields: "id,createdAt" },
      time_zone: "Pacific/Kiritimati",
    };
    const refused = await mkto.call<Read>({ ...leads, count_by: "createdAt: day" });
    expect(refused.result.isError).toBe(true);
    expect(refused.text).toMatch(/^Invalid count_by: .*e\.g\. createdAt:day \(no space after the colon\)\./m);
    expect(refused.text).not.toMatch(/add createdAt: day/);
    // As the hint says, time_zone kept: the days are Kiritimati's (UTC+14), not UTC's.
    const plain = (await mkto.ok<Read>({ ...leads, time_zone: undefined })).data.result;
    const days = new Map<string, number>();
    for (const lead of plain) {
      const day = new Date(Date.parse(String(lead.createdAt)) + 14 * 3_600_000).toISOString().slice(0, 10);
      days.set(day, (days.get(day) ?? 0) + 1);
    }
    const { data } = await mkto.ok<Read>({ ...leads, count_by: "createdAt:day", min_count: 1 });
    expect(new Map(data.result.map((row) => [row["createdAt:day"], row.count]))).toEqual(days);
  });

  it("offers no bucket where none is taken, nor a unit that is none, and keeps a listed name's bucket", async () => {
    const where = await mkto.call<Read>({ ...READ, where: '"activityDate: day" = "2026-11-21"' });
    expect(where.result.isError).toBe(true);
    expect(where.text).not.toMatch(/no space after the colon/);
    const unit = await mkto.call<Read>({ ...READ, count_by: "activityDate: dy" });
    expect(unit.result.isError).toBe(true);
    expect(unit.text).not.toMatch(/activityDate:dy/);
    const listed = await mkto.call<Read>({ ...READ, per: "leadId,activityDat:day" });
    expect(offered(listed.text)).toBe("activityDate:day");
  });
});
