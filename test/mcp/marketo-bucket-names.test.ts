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
  ])("%s %j offers %s, which is taken", async (input, written, name) => {
    const refused = await mkto.call<Read>({ ...READ, [input]: written });
    expect(refused.result.isError).toBe(true);
    expect(offered(refused.text)).toBe(name);
    if (written.includes(": ")) expect(refused.text).toContain(`e.g. ${name} (no space after the colon).`);
    const fixed = input === "per" ? written.replace(/activityDat?e?: ?/, "activityDate:") : name;
    const { data } = await mkto.ok<Read>({ ...READ, [input]: fixed });
    expect(data.result.length).toBeGreaterThan(0);
    const column = input === "per" && fixed.startsWith("leadId") ? `${name}_count` : name;
    expect(Object.keys(data.result[0] ?? {})).toContain(column);
  });

  it("does not take a spaced name for a bucket when time_zone has no date to read", async () => {
    const leads = {
      method: "GET",
      endpoint: "/rest/v1/leads.json",
      query_parameters: { filterType: "id", filterValues: "1,2,3,4,5", fields: "id,createdAt" },
      time_zone: "Europe/Paris",
    };
    expect((await mkto.call<Read>({ ...leads, count_by: "createdAt:day" })).result.isError).toBeFalsy();
    const refused = await mkto.call<Read>({ ...leads, count_by: "createdAt: day" });
    expect(refused.result.isError).toBe(true);
    expect(refused.text).toMatch(/^Invalid time_zone/m);
  });
});
