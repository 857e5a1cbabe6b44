/**
 * Review s37, finding 2: on the CLI (no kept results), an export run to completion with lead_fields, per, next or
 * previous stopped at 45 KB of unfiltered rows, the most an answer shows, and answered "where leadId < 100: 118 of 118
 * match" with no where, per or count_by applied. The rows held for them are bounded as a kept export's are: the
 * figures are those of the same export without lead_fields, and count_by's rows add up to them.
 */
import { describe, expect, it } from "vitest";
import { freshHome, run } from "../helpers/cli.js";

const EXPORT = {
  method: "POST",
  endpoint: "/bulk/v1/activities/export/create.json",
  body: {
    format: "CSV",
    filter: {
      createdAt: { startAt: "2026-10-01T00:00:00Z", endAt: "2026-12-06T00:00:00Z" },
      activityTypeIds: [2],
    },
  },
  run_to_completion: true,
  where: "leadId < 100",
};

interface Answer {
  result: { count: number }[];
  computed: { read: number; matched: number };
}

async function call(input: Record<string, unknown>, home: string): Promise<Answer> {
  const answer = await run(["call", "--sandbox", "marketo_api_call", "--input", JSON.stringify(input)], {
    MARTECH_STEPS_HOME: home,
  });
  expect(answer.code, answer.stderr).toBe(0);
  return JSON.parse(answer.stdout) as Answer;
}

describe("an export run to completion with lead_fields on the CLI", () => {
  it("applies where and count_by over the whole export, as the export without lead_fields does", async () => {
    const home = await freshHome();
    const plain = await call({ ...EXPORT, count_by: "activityType" }, home);
    const joined = await call({ ...EXPORT, lead_fields: "leadSource", count_by: "lead.leadSource" }, home);
    expect(plain.computed.read).toBeGreaterThan(200);
    expect(joined.computed).toEqual({
      ...joined.computed,
      read: plain.computed.read,
      matched: plain.computed.matched,
    });
    expect(joined.computed.matched).toBeLessThan(joined.computed.read);
    expect(joined.result.reduce((sum, row) => sum + row.count, 0)).toBe(plain.computed.matched);
  }, 120_000);

  it("refuses where's in result(…), which reads a kept result this client does not keep; the list it offers works", async () => {
    const home = await freshHome();
    const input = { ...EXPORT, where: 'leadId in result("martech-steps://results/abc.json")' };
    const refused = await run(["call", "--sandbox", "marketo_api_call", "--input", JSON.stringify(input)], {
      MARTECH_STEPS_HOME: home,
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("reads a kept result, which this client does not keep");
    expect(refused.stderr).toContain("Give the values as a list, e.g. id in (1, 2, 3)");
    const listed = await call({ ...EXPORT, where: "leadId in (1, 2, 3, 285)" }, home);
    expect(listed.computed.matched).toBeGreaterThan(0);
  }, 120_000);

  it("refuses join's link, which reads a kept result; the GET path it offers is read whole in the same call", async () => {
    const home = await freshHome();
    const link = { ...EXPORT, where: undefined, join: "martech-steps://results/abc.json on leadId = id" };
    const refused = await run(["call", "--sandbox", "marketo_api_call", "--input", JSON.stringify(link)], {
      MARTECH_STEPS_HOME: home,
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("Give the GET path of the read instead of its link (read whole");
    const members = {
      method: "GET",
      endpoint: "/rest/v1/lists/1001/leads.json",
      query_parameters: { fields: "id" },
      paginate: true,
    };
    const ids = (await call(members, home)).result.map((row) => (row as unknown as { id: number }).id);
    expect(ids.length).toBeGreaterThan(20);
    const path = "/rest/v1/lists/1001/leads.json?fields=id on leadId = id";
    const joined = await call({ ...link, join: path, where: "joined is not empty" }, home);
    // The same join with where over the list's ids: the CLI's sandbox's activities depend on what its process read
    // before them (here the list), so both calls read alike and only where differs.
    const listed = await call({ ...link, join: path, where: `leadId in (${ids.join(", ")})` }, home);
    expect(joined.computed.matched).toBe(listed.computed.matched);
    expect(joined.computed.matched).toBeGreaterThan(0);
  }, 120_000);

  it("says keep_counted links nothing here, the CLI keeping no results, and answers the count", async () => {
    const home = await freshHome();
    const answer = (await call(
      { ...EXPORT, count_by: "activityType", keep_counted: true },
      home,
    )) as Answer & {
      warnings: string[];
    };
    expect(answer.warnings).toContain(
      "keep_counted: this client keeps no results (the CLI); over MCP the records counted are linked.",
    );
    expect(answer.result.reduce((sum, row) => sum + row.count, 0)).toBe(answer.computed.matched);
  }, 120_000);
});
