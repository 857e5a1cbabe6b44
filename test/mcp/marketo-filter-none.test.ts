import { describe, expect, it } from "vitest";
import { marketoOverMcp } from "../helpers/marketo-mcp.js";

/**
 * Trial s15, N130: program members filtered by a lead id that is no member answered "0 records read in 1 page",
 * and the agent spent two calls making sure the filter and fields were right. The answer names the filter that
 * found nothing; the claim holds (the program's whole member list has no such lead), and a filterType the
 * endpoint does not take is an error, not an empty read.
 */
interface Answer {
  result: { id?: number; leadId?: number }[];
}
const mkto = marketoOverMcp({});
const members = (query: Record<string, unknown>) =>
  mkto.call<Answer>({
    method: "GET",
    endpoint: "/rest/v1/programs/1012/members.json",
    query_parameters: query,
  });

describe("a filtered read that finds nothing", () => {
  it("names the filter, and the program truly has no such member", async () => {
    const all = await mkto.ok<Answer>({
      method: "GET",
      endpoint: "/rest/v1/leads/programs/1012.json",
      query_parameters: { fields: "id" },
      paginate: true,
      max_pages: 200,
    });
    const ids = new Set(all.data.result.map((m) => m.id));
    const outsider = [1207, 1, 2, 3, 4, 5].find((id) => !ids.has(id)) ?? 0;
    expect(outsider).toBeGreaterThan(0);
    const none = await members({ filterType: "leadId", filterValues: String(outsider) });
    expect(none.result.isError).toBeFalsy();
    expect(none.first).toContain(
      `no record here has leadId ${outsider} (the filter was applied: filterType leadId, filterValues ${outsider})`,
    );
    const member = [...ids][0];
    const found = await members({ filterType: "leadId", filterValues: String(member) });
    expect(found.data.result.length).toBeGreaterThan(0);
    expect(found.first).not.toContain("no record here has");
    const wrong = await members({ filterType: "leadIdx", filterValues: String(outsider) });
    expect(wrong.result.isError).toBe(true);
  });
});
