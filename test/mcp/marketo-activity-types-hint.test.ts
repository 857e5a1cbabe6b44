import { describe, expect, it } from "vitest";
import { marketoOverMcp } from "../helpers/marketo-mcp.js";

/**
 * Trial s18, N185: activities.json without activityTypeIds was refused with "Give activityTypeIds a value.",
 * which did not say which values or how many. The hint names 1 to 10 types, by id or name, and where they are
 * listed; doing what it says reads the activities.
 */
interface Records {
  result: Record<string, unknown>[];
}
const mkto = marketoOverMcp({});

describe("activities without activity types", () => {
  it("are refused with a hint whose example and listing both work", async () => {
    const since = { sinceDatetime: "2026-10-01T00:00:00Z" };
    const refused = await mkto.call({
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: since,
    });
    expect(refused.result.isError).toBe(true);
    expect(refused.first).toContain("Give activityTypeIds 1 to 10 activity types, ids or names");
    const types = await mkto.ok<Records>({ method: "GET", endpoint: "/rest/v1/activities/types.json" });
    expect(types.data.result.length).toBeGreaterThan(10);
    const read = await mkto.ok<Records>({
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: { ...since, activityTypeIds: "Open Email,Click Email,Visit Webpage" },
    });
    expect(read.result.isError).toBeFalsy();
  });
});
