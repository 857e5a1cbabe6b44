/**
 * Trial s19, N211: filterType leadId and filterValues 120,121,122 on GET /rest/v1/leads/programs/1015.json, which
 * takes neither (Adobe's Swagger, swagger-mapi.json getLeadsByProgramIdUsingGET: fields, batchSize,
 * nextPageToken), were ignored without a word: "188 records read", all the program's members. A query parameter
 * the operation does not take is now named in the summary with what it takes, and the where its words suggest
 * reads just the leads asked for. A parameter the operation takes gives no such words.
 */
import { describe, expect, it } from "vitest";
import { marketoOverMcp } from "../helpers/marketo-mcp.js";

interface Members {
  result: { id: number }[];
  complete: boolean;
}
const mkto = marketoOverMcp({});
const MEMBERS = "/rest/v1/leads/programs/1015.json";

describe("a query parameter Marketo ignores", () => {
  it("is said in the summary, and the where it suggests narrows the read", async () => {
    const ignored = await mkto.ok<Members>({
      method: "GET",
      endpoint: MEMBERS,
      query_parameters: { filterType: "leadId", filterValues: "120,121,122" },
    });
    expect(ignored.first).toContain(
      "filterType, filterValues are not query parameters of GET /rest/v1/leads/programs/{programId}.json " +
        "(Adobe's reference: it takes batchSize, fields, nextPageToken), so Marketo ignores them",
    );
    expect(ignored.first).toContain('give where on their fields, e.g. "id in (120, 121)"');
    const all = await mkto.ok<Members>({
      method: "GET",
      endpoint: MEMBERS,
      paginate: true,
      max_items: 100_000,
      count_by: "id",
    });
    const ids = all.data.result.map((row) => row.id).slice(0, 2);
    expect(ids).toHaveLength(2);
    const narrowed = await mkto.ok<Members>({
      method: "GET",
      endpoint: MEMBERS,
      paginate: true,
      where: `id in (${ids.join(", ")})`,
    });
    expect(narrowed.data.result.map((row) => row.id).sort()).toEqual([...ids].sort());
    expect(narrowed.first).not.toContain("Marketo ignores");
  });

  it("is not said of the parameters an operation takes", async () => {
    const read = await mkto.ok<Members>({
      method: "GET",
      endpoint: "/rest/v1/leads.json",
      query_parameters: { filterType: "id", filterValues: "120,121", fields: "id,email" },
    });
    expect(read.data.result).toHaveLength(2);
    expect(read.text).not.toContain("Marketo ignores");
  });

  it("is not said of Browse Programs' filterValues, which its filterType requires (review s20, finding 3)", async () => {
    const read = await mkto.ok<Members>({
      method: "GET",
      endpoint: "/rest/asset/v1/programs.json",
      query_parameters: { filterType: "id", filterValues: "1001,1002" },
    });
    expect(read.data.result.map((program) => program.id).sort()).toEqual([1001, 1002]);
    expect(read.text).not.toContain("Marketo ignores");
  });

  it("names the parameter meant when one is alike, and sending it narrows the read (review s20, finding 9)", async () => {
    const since = { sinceDatetime: "2026-11-01T00:00:00Z", activityTypeIds: "Visit Webpage,New Lead" };
    const read = async (query: Record<string, unknown>) =>
      mkto.ok<{ result: { leadId: number }[] }>({
        method: "GET",
        endpoint: "/rest/v1/activities.json",
        query_parameters: { ...since, ...query },
        paginate: true,
        max_pages: 200,
        max_items: 100_000,
      });
    const ignored = await read({ leadId: "7" });
    expect(ignored.first).toContain(
      "so Marketo ignores it and did not narrow this read by it. Send leadIds for leadId.",
    );
    const meant = await read({ leadIds: "7" });
    expect(meant.text).not.toContain("Marketo ignores");
    expect(meant.data.result.every((activity) => activity.leadId === 7)).toBe(true);
    expect(ignored.data.result.some((activity) => activity.leadId !== 7)).toBe(true);
  });

  it("is not said of a name the Swagger writes in another case, nor of a parameter Adobe's prose documents (review s21, 3)", async () => {
    const channel = await mkto.ok<Members>({
      method: "GET",
      endpoint: "/rest/asset/v1/channel/byName.json",
      query_parameters: { name: "Webinar" },
    });
    expect(channel.data.result).toHaveLength(1);
    expect(channel.text).not.toContain("Marketo ignores");
    const programs = await mkto.ok<Members>({
      method: "GET",
      endpoint: "/rest/asset/v1/programs.json",
      query_parameters: { status: "on" },
    });
    expect(programs.text).not.toContain("Marketo ignores");
  });
});
