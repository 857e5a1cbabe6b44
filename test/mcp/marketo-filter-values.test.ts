import { describe, expect, it } from "vitest";
import { seededMarketo } from "../helpers/marketo-mcp.js";

/**
 * filterValues written as a range ("1..5000") is one value to Marketo, which no record has: it answered no
 * records and no error, read as "no leads" (trial s27, N367). Refused before sending, and the hint answers.
 */
const mkto = seededMarketo(200);

describe("filterValues written as a range", () => {
  it("is refused naming the field and how to list values, and the listed form answers", async () => {
    for (const filterValues of ["1..5000", ["1...50"], "7,10…20", "1-50", "1 to 50"]) {
      const refused = await mkto.call({
        method: "GET",
        endpoint: "/rest/v1/leads.json",
        query_parameters: { filterType: "id", filterValues },
      });
      expect(refused.result.isError, JSON.stringify(filterValues)).toBe(true);
      expect(refused.first).toContain("query_parameters.filterValues");
      expect(refused.first).toContain("is read by Marketo as one value, not a range");
    }
    const { data } = await mkto.ok<{ result: { id: number }[] }>({
      method: "GET",
      endpoint: "/rest/v1/leads.json",
      query_parameters: { filterType: "id", filterValues: "1,2,3" },
    });
    expect(data.result.map((lead) => lead.id).sort()).toEqual([1, 2, 3]);
    // A value with dots that is no range is sent as it is.
    const email = await mkto.call({
      method: "GET",
      endpoint: "/rest/v1/leads.json",
      query_parameters: { filterType: "email", filterValues: "a.b@example.com" },
    });
    expect(email.result.isError).toBeFalsy();
    // A dash is a range only among ids: another field's value may hold one.
    const campaign = await mkto.call({
      method: "GET",
      endpoint: "/rest/v1/leads.json",
      query_parameters: { filterType: "utmCampaign", filterValues: "10-20" },
    });
    expect(campaign.result.isError, campaign.first).toBeFalsy();
  });
});
