/**
 * Reviews s33 (13) and s34 (9) of lead_fields: a grouped read, a read per id and an export read the leads of every
 * record, also of those a lead-free part of where drops whatever their lead holds. They now read only the leads of
 * the records that part keeps. The invariant, through MCP on the sandbox: the figures are those of the plain read
 * joined by hand, and the leads read are exactly the leads of the records the lead-free part keeps.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { activityExport, seededMarketo } from "../helpers/marketo-mcp.js";

type Row = Record<string, unknown> & { leadId?: number | string; activityType?: string };
interface Read {
  result: Row[];
}

const mkto = seededMarketo(300);
const READ = { method: "GET", endpoint: "/rest/v1/activities.json", paginate: true, max_pages: 200 };

async function sources(ids: readonly string[]): Promise<Map<string, unknown>> {
  const leads = new Map<string, unknown>();
  for (let i = 0; i < ids.length; i += 300) {
    const answer = await mkto.ok<Read>({
      method: "GET",
      endpoint: "/rest/v1/leads.json",
      query_parameters: {
        filterType: "id",
        filterValues: ids.slice(i, i + 300).join(","),
        fields: "id,leadSource",
      },
    });
    for (const lead of answer.data.result) leads.set(String(lead.id), lead.leadSource ?? null);
  }
  return leads;
}

/** The leads the summary says were read ("… of 41 leads read with GET /rest/v1/leads.json"). */
const leadsRead = (text: string) =>
  Number(/of ([\d,]+) leads? read with GET/.exec(text)?.[1]?.replaceAll(",", ""));

/** Checks a read with where 'kept and lead.leadSource = "<top source>"' against the plain one joined by hand. */
async function checkAgainstPlain(call: Record<string, unknown>, keeps: (row: Row) => boolean, lead: string) {
  const plain = await mkto.results(await mkto.ok<Read>(call));
  const kept = plain.filter(keeps);
  const ids = [...new Set(kept.map((row) => String(row.leadId)))];
  expect(ids.length).toBeGreaterThan(0);
  expect(ids.length).toBeLessThan(new Set(plain.map((row) => String(row.leadId))).size);
  const byLead = await sources(ids);
  const source = [...byLead.values()].find((value) => value !== null);
  const answer = await mkto.ok<Read>({
    ...call,
    lead_fields: "leadSource",
    where: `${lead} and lead.leadSource = "${source}"`,
  });
  const want = kept.filter((row) => byLead.get(String(row.leadId)) === source).length;
  expect((await mkto.results(answer)).length).toBe(want);
  expect(leadsRead(answer.first)).toBe(ids.length);
  expect(answer.first).toContain(
    "where drops by its other conditions are not joined (no lead read for them)",
  );
}

describe("lead_fields reads only the leads of records the rest of where keeps", () => {
  beforeAll(async () => {
    await mkto.ok({
      ...READ,
      query_parameters: { sinceDatetime: "2026-11-30T00:00:00Z", activityTypeIds: "Open Email" },
    });
  });

  it("on a grouped read of more than 10 types", async () => {
    const call = {
      ...READ,
      query_parameters: { sinceDatetime: "2026-11-20T00:00:00Z", activityTypeIds: "all" },
    };
    await checkAgainstPlain(
      call,
      (row) => row.activityType === "Click Email",
      'activityType = "Click Email"',
    );
  });

  it("answers no match, not an unknown field, when no record passes the rest of where", async () => {
    const none = await mkto.ok<Read & { computed?: { matched: number } }>({
      ...READ,
      query_parameters: { sinceDatetime: "2026-11-20T00:00:00Z", activityTypeIds: "all" },
      lead_fields: "leadSource",
      where: 'activityType = "No Such Type" and lead.leadSource = "Web"',
    });
    expect(none.data.computed?.matched).toBe(0);
    expect(leadsRead(none.first)).toBe(0);
  });

  it("on program members read per id", async () => {
    const call = {
      method: "GET",
      endpoint: "/rest/v1/programs/{programId}/members.json",
      query_parameters: {
        programId: [1001, 1002, 1003],
        filterType: "reachedSuccess",
        filterValues: "true,false",
      },
      paginate: true,
    };
    await checkAgainstPlain(call, (row) => row.reachedSuccess === true, "reachedSuccess = true");
  });

  it("on an activity export run to completion", { timeout: 60_000 }, async () => {
    const call = activityExport("2026-11-10T00:00:00Z", "2026-12-01T00:00:00Z", [
      "Open Email",
      "Click Email",
    ]);
    await checkAgainstPlain(
      call,
      (row) => row.activityType === "Click Email",
      'activityType = "Click Email"',
    );
  });
});
