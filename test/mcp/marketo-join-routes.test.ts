import { describe, expect, it } from "vitest";
import { seededMarketo, type ToolAnswer } from "../helpers/marketo-mcp.js";

/**
 * join on the routes a read takes besides a REST read (review s44): a lead export run to completion whose where
 * names joined (sent to Marketo as a field, 1006), per over joined records (refused as a field of per's rows), the
 * CSV of an export (its header left joined out), the words of a read that stopped (the cursor's inputs, "(50 rows
 * read; )") and a kept result cut by a read without paginate, whose hint did not work. Each checked against the
 * figures worked out by hand from the two results read whole.
 */
type Row = Record<string, unknown>;
interface Answer {
  result: Row[];
  computed?: Record<string, number>;
}

const mkto = seededMarketo(1_200);

const VISITS = {
  method: "GET",
  endpoint: "/rest/v1/activities.json",
  query_parameters: { activityTypeIds: "Visit Webpage", sinceDatetime: "2026-11-01" },
  paginate: true,
  max_pages: 200,
  per: "leadId",
};
const EXPORT = {
  method: "POST",
  endpoint: "/bulk/v1/leads/export/create.json",
  body: { fields: ["id", "email"], format: "CSV", filter: { staticListId: 1001 } },
  run_to_completion: true,
};
const PROGRAMS = {
  method: "GET",
  endpoint: "/rest/v1/leads/programs/{programId}.json",
  query_parameters: { programId: "1001,1002,1003", fields: "id,email" },
  paginate: true,
};

const link = (answer: ToolAnswer<Answer>, type = "application/json"): string => {
  const uri = answer.links.find((l) => l.mimeType === type)?.uri;
  expect(uri, answer.first).toBeDefined();
  return uri ?? "";
};

async function visits(): Promise<{ link: string; byLead: Map<string, number> }> {
  const answer = await mkto.ok<Answer>(VISITS);
  const rows = await mkto.results(answer);
  return {
    link: link(answer),
    byLead: new Map(rows.map((row) => [String(row.leadId), Number(row.records)])),
  };
}

describe("join off the REST read's path", () => {
  it("filters a lead export on joined without sending joined to Marketo, and its CSV has joined's columns", {
    timeout: 120_000,
  }, async () => {
    const { link: per, byLead } = await visits();
    const all = await mkto.results(await mkto.ok<Answer>(EXPORT));
    const busy = all.filter((row) => (byLead.get(String(row.id)) ?? 0) >= 2);
    expect(busy.length).toBeGreaterThan(0);
    const answer = await mkto.ok<Answer>({
      ...EXPORT,
      join: `${per} on id = leadId`,
      where: "joined.records >= 2",
    });
    const rows = await mkto.results(answer);
    expect(rows.map((row) => String(row.id))).toEqual(busy.map((row) => String(row.id)));
    expect(answer.first).toMatch(/Joined on id = leadId: [\d,]+ of [\d,]+ rows read had a row/);
    const csv = await mkto.whole(link(answer, "text/csv"));
    const header = (csv.split("\n")[0] ?? "").split(",");
    expect(header).toEqual(expect.arrayContaining(["id", "email", "joined.leadId", "joined.records"]));
    // The summary's own advice, done, answers too.
    const none = await mkto.ok<Answer>({
      ...EXPORT,
      join: `${per} on id = leadId`,
      where: "joined is empty",
    });
    expect(none.data.computed?.matched).toBe(all.filter((row) => !byLead.has(String(row.id))).length);
  });

  it("rolls up joined records with per, where testing joined before the roll-up", async () => {
    const { link: per, byLead } = await visits();
    const members = await mkto.results(await mkto.ok<Answer>(PROGRAMS));
    const byHand = new Map<string, number>();
    for (const row of members)
      if ((byLead.get(String(row.id)) ?? 0) >= 2)
        byHand.set(String(row.programId), (byHand.get(String(row.programId)) ?? 0) + 1);
    const rolled = await mkto.ok<Answer>({
      ...PROGRAMS,
      join: `${per} on id = leadId`,
      per: "programId",
      where: "joined.records >= 2",
    });
    const rows = await mkto.results(rolled);
    expect(new Map(rows.map((row) => [String(row.programId), Number(row.records)]))).toEqual(byHand);
  });

  it("names join among the inputs a cursor needs, and says what a read with join alone covered", async () => {
    const { link: per } = await visits();
    const stopped = await mkto.ok<Answer>({
      method: "GET",
      endpoint: "/rest/v1/lists/1001/leads.json",
      query_parameters: { fields: "id,email" },
      paginate: true,
      max_items: 50,
      join: `${per} on id = leadId`,
    });
    expect(stopped.first).toContain("query_parameters and join)");
    expect(stopped.first).toContain("only the records read were joined");
    expect(stopped.first).not.toMatch(/; \)/);
  });

  it("refuses a kept result its read cut, with a hint that, done, gives one that joins", async () => {
    const { link: per } = await visits();
    const page = {
      method: "GET",
      endpoint: "/rest/v1/lists/1001/leads.json",
      query_parameters: { fields: "id" },
    };
    const onePage = await mkto.ok<Answer>(page);
    const cut = await mkto.call<Answer>({ ...PROGRAMS, join: `${link(onePage)} on id` });
    expect(cut.result.isError).toBe(true);
    expect(cut.first).toContain("one page without paginate");
    expect(cut.text).toContain("paginate true");
    const whole = await mkto.ok<Answer>({ ...page, paginate: true });
    const joined = await mkto.ok<Answer>({ ...PROGRAMS, join: `${link(whole)} on id` });
    expect(joined.first).toMatch(/Joined on id = id: [\d,]+ of/);
    expect(per).toBeTruthy();
  });

  it("with a list of rows a record: records_sum counts every record, one-value uses are refused for that, an export's cursor keeps join", async () => {
    const members = await mkto.ok<Answer>({
      ...PROGRAMS,
      query_parameters: { programId: "1001,1002,1003,1004", fields: "id" },
    });
    const opens = {
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: { activityTypeIds: "Open Email", sinceDatetime: "2026-11-01" },
      paginate: true,
      max_pages: 200,
    };
    const plain = await mkto.results(await mkto.ok<Answer>(opens));
    const join = `${link(members)} on leadId = id`;
    const summed = await mkto.ok<Answer>({ ...opens, join, count_by: "joined.programId", sum: "campaignId" });
    // The records' own total is of every record counted, those with no row too (review s45, 1).
    const own = plain.reduce((sum, row) => sum + Number(row.campaignId ?? 0), 0);
    expect(summed.data.computed?.records_sum ?? summed.data.computed?.sum).toBe(own);
    expect(summed.first).toContain("where keeps a record when one of its rows meets it");
    // order_by over records takes one value a record: refused for what joined holds, and the hint, done, counts.
    const sorted = await mkto.call<Answer>({ ...opens, join, order_by: "-joined.programId" });
    expect(sorted.result.isError).toBe(true);
    expect(sorted.first).toContain("joined, which holds a list of rows a record");
    expect(sorted.text).toContain('count_by "joined.programId"');
    await mkto.ok<Answer>({ ...opens, join, count_by: "joined.programId" });
    // An export's answer that says to read on with its cursor names join (review s45, 6).
    const fresh = { ...EXPORT, body: { ...EXPORT.body, fields: ["id", "email", "leadScore"] } };
    const exported = await mkto.ok<Answer>({ ...fresh, join: `${link(members)} on id` });
    const file = /GET (\/bulk\/v1\/leads\/export\/[^/\s]+\/file\.json)/.exec(exported.text)?.[1] ?? "";
    const read = await mkto.ok<Answer>({ method: "GET", endpoint: file, join: `${link(members)} on id` });
    expect(read.first, read.first).toMatch(
      /cursor = next_cursor(?: and the same join| \(same method, endpoint, query_parameters and join\))/,
    );
    const cut = await mkto.ok<Answer>({
      method: "GET",
      endpoint: file,
      join: `${link(members)} on id`,
      max_items: 300,
    });
    expect(cut.first).toContain("cursor = next_cursor (same method, endpoint, query_parameters and join)");
  });
});
