/**
 * Issue 27 (trials s21 N263, s26 N345, s29 N409 and N415): activities carry only a leadId, and agents read whole
 * results back to join them to the leads' own fields (opens by lead source, bounces by email domain). With
 * `lead_fields` each record read gets `lead`, those fields of its lead, read 300 leads a call.
 *
 * The invariant, fast-check over windows, types (one, several, and more than 10, read in groups) and fields
 * through MCP on the sandbox: each record's lead is the one a plain read of the same activities joined by hand to
 * a plain read of the leads gives, count_by lead.<field> counts as that join counted by hand, and the lead calls
 * are few (at most two per 300 leads) and counted in calls_used.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { activityExport, seededMarketo, type ToolAnswer } from "../helpers/marketo-mcp.js";

type Row = Record<string, unknown> & {
  id?: number;
  leadId?: number | string;
  lead?: Record<string, unknown> | null;
};
interface Read {
  result: Row[];
  complete: boolean;
  calls_used: number;
}

const mkto = seededMarketo(300);
const READ = { method: "GET", endpoint: "/rest/v1/activities.json", paginate: true, max_pages: 200 };

/** The fields of each lead, read as a person would: GET /rest/v1/leads.json by id, 300 at a time. */
async function leadsByHand(ids: readonly string[], fields: readonly string[]): Promise<Map<string, Row>> {
  const leads = new Map<string, Row>();
  for (let i = 0; i < ids.length; i += 300) {
    const answer = await mkto.ok<Read>({
      method: "GET",
      endpoint: "/rest/v1/leads.json",
      query_parameters: {
        filterType: "id",
        filterValues: ids.slice(i, i + 300).join(","),
        fields: ["id", ...fields].join(","),
      },
    });
    for (const lead of answer.data.result) {
      leads.set(String(lead.id), Object.fromEntries(fields.map((f) => [f, lead[f] ?? null])));
    }
  }
  return leads;
}

function tally(values: readonly unknown[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) {
    const key = value === null || value === undefined || value === "" ? "(empty)" : String(value);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

const countsOf = (answer: ToolAnswer<{ result: Row[] }>, field: string) =>
  new Map(answer.data.result.map((row) => [String(row[field] ?? "(empty)"), Number(row.count)]));

/** The lead calls the summary names ("… read with GET /rest/v1/leads.json (4 calls, …"). */
const leadCalls = (text: string) =>
  Number(/GET \/rest\/v1\/leads\.json \((\d+) calls?,/.exec(text)?.[1] ?? Number.NaN);

describe("lead_fields: each activity or member with its lead's own fields", () => {
  // The activity types are read once a session: read them first, so that each read below spends its own calls only.
  beforeAll(async () => {
    await mkto.ok({
      ...READ,
      query_parameters: { sinceDatetime: "2026-11-30T00:00:00Z", activityTypeIds: "Open Email" },
    });
  });

  it("joins as a plain read joined by hand does, and counts by lead fields as that join counted by hand", {
    timeout: 180_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("2026-11-05", "2026-11-20", "2026-11-28"),
        fc.constantFrom("Open Email", "Send Email,Click Email", "all"),
        fc.constantFrom(["leadSource"], ["country", "leadSource"], ["email", "leadScore"]),
        async (day, types, fields) => {
          const query = { sinceDatetime: `${day}T00:00:00Z`, activityTypeIds: types };
          const plain = await mkto.ok<Read>({ ...READ, query_parameters: query, max_items: 100_000 });
          const joined = await mkto.ok<Read>({
            ...READ,
            query_parameters: query,
            max_items: 100_000,
            lead_fields: fields.join(","),
          });
          expect(joined.data.complete).toBe(true);
          const [records, withLeads] = [await mkto.results(plain), await mkto.results(joined)];
          const ids = [...new Set(records.map((r) => String(r.leadId)))];
          const leads = await leadsByHand(ids, fields);
          expect(withLeads.map((r) => r.id)).toEqual(records.map((r) => r.id));
          for (const record of withLeads) {
            expect(record.lead, `record ${record.id}`).toEqual(leads.get(String(record.leadId)) ?? null);
          }
          // The leads are read once each, a full 300 a call but for what a page brought past it.
          const calls = leadCalls(joined.first);
          expect(joined.data.calls_used - plain.data.calls_used).toBe(calls);
          // 300 a call, and the first page's at once (a misspelt field is refused before the rest is read).
          expect(calls).toBeLessThanOrEqual(Math.ceil(ids.length / 300) + 1);
          expect(joined.first).toContain(
            `${fields.join(", ")} as they are now (not at the record's date) of ${ids.length.toLocaleString("en-US")} lead`,
          );

          const field = fields[0] ?? "leadSource";
          const counted = await mkto.ok<{ result: Row[] }>({
            ...READ,
            query_parameters: query,
            max_items: 100_000,
            lead_fields: fields.join(","),
            count_by: `lead.${field}`,
          });
          const byHand = tally(records.map((r) => leads.get(String(r.leadId))?.[field]));
          expect(countsOf(counted, `lead.${field}`)).toEqual(byHand);
        },
      ),
      { numRuns: 6 },
    );
  });

  it("joins program members read per id, and where and count_by take lead.<field> there", async () => {
    const MEMBERS = {
      method: "GET",
      endpoint: "/rest/v1/programs/{programId}/members.json",
      query_parameters: {
        programId: [1001, 1002, 1003],
        filterType: "reachedSuccess",
        filterValues: "true,false",
      },
      paginate: true,
    };
    const members = await mkto.results(await mkto.ok<Read>(MEMBERS));
    const leads = await leadsByHand([...new Set(members.map((m) => String(m.leadId)))], ["leadSource"]);
    const source = (m: Row) => leads.get(String(m.leadId))?.leadSource;
    const counted = await mkto.ok<{ result: Row[] }>({
      ...MEMBERS,
      lead_fields: "leadSource",
      where: "reachedSuccess = true",
      count_by: "lead.leadSource",
    });
    const want = tally(members.filter((m) => m.reachedSuccess === true).map(source));
    expect(countsOf(counted, "lead.leadSource")).toEqual(want);
    const top = [...want.entries()].sort((a, b) => b[1] - a[1])[0];
    const one = await mkto.ok<Read>({
      ...MEMBERS,
      lead_fields: "leadSource",
      where: `lead.leadSource = "${top?.[0]}"`,
    });
    expect((await mkto.results(one)).length).toBe(members.filter((m) => source(m) === top?.[0]).length);
  });

  it("joins the rows of an activity export run to completion, as its plain rows joined by hand", {
    timeout: 60_000,
  }, async () => {
    const EXPORT = activityExport("2026-11-10T00:00:00Z", "2026-12-01T00:00:00Z", [
      "Open Email",
      "Click Email",
    ]);
    const plain = await mkto.ok<Read>(EXPORT);
    const json = plain.links.find((l) => l.mimeType === "application/json");
    const rows = JSON.parse(await mkto.whole(json?.uri ?? "")) as Row[];
    const leads = await leadsByHand([...new Set(rows.map((r) => String(r.leadId)))], ["country"]);
    const counted = await mkto.ok<{ result: Row[] }>({
      ...EXPORT,
      lead_fields: "country",
      count_by: "lead.country",
    });
    expect(countsOf(counted, "lead.country")).toEqual(
      tally(rows.map((r) => leads.get(String(r.leadId))?.country)),
    );
    expect(counted.first).toContain("each record's lead holds country as they are now");
    // The plain call's export answered it: said (review s33, 6).
    expect(counted.first).toMatch(
      /\(the rows of the same export run \d+ seconds? ago, reused: no export ran now\)/,
    );
    // The export's own figures, as the plain answer gives them (review s34, 10).
    const extra = (answer: { data: unknown }) => (answer.data as { extra?: Record<string, unknown> }).extra;
    expect(extra(counted)?.reused_export_finished_at).toBeDefined();
    expect(extra(counted)).toEqual(extra(await mkto.ok<Read>(EXPORT)));
    const fresh = await mkto.ok<Read>({
      ...activityExport("2026-11-12T00:00:00Z", "2026-11-20T00:00:00Z", ["Open Email"]),
      lead_fields: "country",
    });
    expect(extra(fresh)?.exportId).toBeDefined();
    expect(extra(fresh)?.file_endpoint).toBe(
      `/bulk/v1/activities/export/${extra(fresh)?.exportId}/file.json`,
    );
  });

  it("follows the recipes resource's recipe: opens by lead source, as joined and counted by hand", async () => {
    const call = await mkto.recipe("activities by their leads' own fields");
    expect(call).toBeDefined();
    const query = {
      ...(call?.query_parameters as Record<string, string>),
      sinceDatetime: "2026-11-20T00:00:00Z",
    };
    const counted = await mkto.ok<{ result: Row[] }>({ ...call, query_parameters: query });
    const plain = await mkto.ok<Read>({ ...READ, query_parameters: query, max_items: 100_000 });
    const records = await mkto.results(plain);
    const leads = await leadsByHand([...new Set(records.map((r) => String(r.leadId)))], ["leadSource"]);
    expect(countsOf(counted, "lead.leadSource")).toEqual(
      tally(records.map((r) => leads.get(String(r.leadId))?.leadSource)),
    );
  });

  it("with previous, keeps the lead out of each record's previous (the record's own lead)", async () => {
    const answer = await mkto.ok<Read>({
      ...READ,
      query_parameters: { sinceDatetime: "2026-11-25T00:00:00Z", activityTypeIds: "Send Email,Click Email" },
      previous: "Send Email",
      lead_fields: "leadSource",
      where: 'activityType = "Click Email" and previous is not empty',
    });
    const clicks = await mkto.results(answer);
    expect(clicks.length).toBeGreaterThan(0);
    for (const click of clicks) {
      expect(click.lead).toHaveProperty("leadSource");
      expect(click.previous).not.toHaveProperty("lead");
    }
  });

  it("keeps the lead's fields on per's rows per lead: leads by score band, as counted by hand (trial s30, N426, N427)", async () => {
    const query = { sinceDatetime: "2026-11-10T00:00:00Z", activityTypeIds: "Open Email,Click Email" };
    const records = await mkto.results(await mkto.ok<Read>({ ...READ, query_parameters: query }));
    const ids = [...new Set(records.map((r) => String(r.leadId)))];
    const leads = await leadsByHand(ids, ["leadScore"]);
    const band = (score: unknown) => {
      const from = Math.floor(Number(score) / 25) * 25;
      return score === null || score === undefined || score === "" ? "(empty)" : `${from} to <${from + 25}`;
    };
    const rows = await mkto.ok<{ result: Row[] }>({
      ...READ,
      query_parameters: query,
      lead_fields: "leadScore",
      per: "leadId",
      order_by: "-records",
      limit: 3,
    });
    for (const row of rows.data.result) expect(row.lead).toEqual(leads.get(String(row.leadId)));
    expect(rows.first).toContain("and lead (its lead's fields)");
    const counted = await mkto.ok<{ result: Row[] }>({
      ...READ,
      query_parameters: query,
      lead_fields: "leadScore",
      per: "leadId",
      count_by: "lead.leadScore:25",
    });
    const got = new Map(
      counted.data.result.map((row) => [String(row["lead.leadScore:25"] ?? "(empty)"), Number(row.count)]),
    );
    expect(got).toEqual(tally(ids.map((id) => band(leads.get(id)?.leadScore))));
  });

  it("refuses a misspelt field before a grouped read or a read per id, for a call or two (review s33, 14)", async () => {
    const left = async () => {
      const types = await mkto.ok<{ daily_calls_remaining: number; calls_used: number }>({
        method: "GET",
        endpoint: "/rest/v1/lists.json",
      });
      return types.data.daily_calls_remaining;
    };
    for (const read of [
      { ...READ, query_parameters: { sinceDatetime: "2026-11-01T00:00:00Z", activityTypeIds: "all" } },
      {
        method: "GET",
        endpoint: "/rest/v1/programs/{programId}/members.json",
        query_parameters: {
          programId: [1001, 1002, 1003],
          filterType: "reachedSuccess",
          filterValues: "true,false",
        },
        paginate: true,
      },
    ]) {
      const before = await left();
      const misspelt = await mkto.call({ ...read, lead_fields: "leadSorce" });
      expect(misspelt.first).toContain('Marketo has no lead field "leadSorce"');
      // The lists read (1 call), the check (1) and the describe for the nearest names (1).
      expect(before - (await left())).toBeLessThanOrEqual(3);
    }
  });

  it("takes a field named in another case, as Marketo does (review s33, 1)", async () => {
    const query = { sinceDatetime: "2026-11-20T00:00:00Z", activityTypeIds: "Open Email" };
    const records = await mkto.results(await mkto.ok<Read>({ ...READ, query_parameters: query }));
    const leads = await leadsByHand([...new Set(records.map((r) => String(r.leadId)))], ["country"]);
    const counted = await mkto.ok<{ result: Row[] }>({
      ...READ,
      query_parameters: query,
      lead_fields: "Country",
      count_by: "lead.Country",
    });
    expect(countsOf(counted, "lead.Country")).toEqual(
      tally(records.map((r) => leads.get(String(r.leadId))?.country)),
    );
  });

  it("reads the leads of limit's first records only, and refuses lead.<field> not named before any read (review s33, 3, 7)", async () => {
    const query = { sinceDatetime: "2026-11-05T00:00:00Z", activityTypeIds: "Open Email" };
    const plain = await mkto.ok<Read>({ ...READ, query_parameters: query, limit: 5 });
    const first = await mkto.ok<Read>({ ...READ, query_parameters: query, limit: 5, lead_fields: "country" });
    expect(first.data.result.map((r) => r.id)).toEqual(plain.data.result.map((r) => r.id));
    // Each page's leads as it comes (limit may stop after it), not 300 leads ahead.
    expect(first.data.calls_used).toBe(plain.data.calls_used + leadCalls(first.first));
    expect(leadCalls(first.first)).toBeLessThanOrEqual((first.data as { pages?: number }).pages ?? 0);

    const unnamed = await mkto.call({
      ...READ,
      query_parameters: query,
      lead_fields: "country",
      count_by: "lead.email",
    });
    expect(unnamed.result.isError).toBe(true);
    expect(unnamed.first).toContain(
      "lead.email reads the field email of each record's lead, which lead_fields does not name",
    );
    const fix = /Add it: lead_fields "([^"]+)"/.exec(unnamed.first)?.[1];
    expect(fix).toBe("country,email");
    await mkto.ok({ ...READ, query_parameters: query, lead_fields: fix, count_by: "lead.email", limit: 3 });
    const none = await mkto.call({ ...READ, query_parameters: query, where: 'lead.country = "Japan"' });
    expect(none.first).toContain('Add it: lead_fields "country"');
    // The case given is the name kept: another case is refused before the read, with the name to write (review s34, 3).
    const cased = await mkto.call({
      ...READ,
      query_parameters: query,
      lead_fields: "Country",
      count_by: "lead.country",
    });
    expect(cased.first).toContain("which lead_fields names Country");
    expect(/Write (lead\.\w+)\./.exec(cased.first)?.[1]).toBe("lead.Country");
    await mkto.ok({
      ...READ,
      query_parameters: query,
      lead_fields: "Country",
      count_by: "lead.Country",
      max_pages: 2,
    });

    // With where, limit's leads are read 300 a call as without it, not a call a page (review s34, 2).
    const where = 'lead.country = "Japan"';
    const limited = await mkto.ok<Read>({
      ...READ,
      query_parameters: query,
      lead_fields: "country",
      where,
      limit: 100,
    });
    const all = await mkto.ok<Read>({ ...READ, query_parameters: query, lead_fields: "country", where });
    expect(limited.data.result).toEqual(all.data.result.slice(0, 100));
    expect(leadCalls(limited.first)).toBeLessThanOrEqual(leadCalls(all.first));
  });

  it("says a sum of a lead field adds one value a record, not a list's items (review s33, 8)", async () => {
    const summed = await mkto.ok<{ result: Row[] }>({
      ...READ,
      query_parameters: { sinceDatetime: "2026-11-20T00:00:00Z", activityTypeIds: "Open Email" },
      lead_fields: "leadScore",
      count_by: "activityType",
      sum: "lead.leadScore",
    });
    expect(summed.first).toContain("lead.leadScore");
    expect(summed.first).not.toContain("every item of a list");
  });

  it("keeps an export's first max_items rows, and refuses a body.fields without leadId before the job (review s33, 2, 4)", {
    timeout: 60_000,
  }, async () => {
    const EXPORT = {
      ...activityExport("2026-11-12T00:00:00Z", "2026-12-01T00:00:00Z", ["Open Email"]),
      max_items: 10,
    };
    const capped = await mkto.ok<{ result: Row[] }>({
      ...EXPORT,
      lead_fields: "country",
      count_by: "activityType",
    });
    expect(capped.data.result.map((row) => [row.activityType, Number(row.count)])).toEqual([
      ["Open Email", 10],
    ]);
    expect(capped.first).toContain("max_items 10 kept the first of the export's");
    expect(capped.first).not.toContain("did not cut");
    // Not the whole export (review s34, 1).
    expect(capped.data).toHaveProperty("complete", false);

    const fields = { ...EXPORT.body, fields: ["marketoGUID", "activityDate", "activityTypeId"] };
    const refused = await mkto.call({ ...EXPORT, body: fields, lead_fields: "country" });
    expect(refused.result.isError).toBe(true);
    expect(refused.first).toContain("body.fields leaves leadId out");
    const fixed = JSON.parse(
      /Add "leadId" to body\.fields, e\.g\. (\[[^\]]*\])/.exec(refused.first)?.[1] ?? "[]",
    );
    await mkto.ok({
      ...EXPORT,
      body: { ...fields, fields: fixed },
      lead_fields: "country",
      count_by: "lead.country",
    });

    const noRun = await mkto.call({ ...EXPORT, run_to_completion: false, lead_fields: "country" });
    expect(noRun.first).toContain("Send the same call with run_to_completion true");
  });

  it("refuses a read of leads, a write and a field Marketo has not, each with a fix that works", async () => {
    const leadsRead = await mkto.call({
      method: "GET",
      endpoint: "/rest/v1/lists/1001/leads.json",
      paginate: true,
      lead_fields: "country",
    });
    expect(leadsRead.result.isError).toBe(true);
    expect(leadsRead.first).toContain(
      "These records are leads themselves: name the fields in query_parameters.fields",
    );
    await mkto.ok({
      method: "GET",
      endpoint: "/rest/v1/lists/1001/leads.json",
      query_parameters: { fields: "id,email,country" },
      paginate: true,
      count_by: "country",
    });

    const memberships = await mkto.call({
      method: "GET",
      endpoint: "/rest/v1/leads/5/listMembership.json",
      lead_fields: "country",
    });
    expect(memberships.result.isError).toBe(true);
    expect(memberships.first).not.toContain("leads themselves");

    const write = await mkto.call({
      method: "POST",
      endpoint: "/rest/v1/leads.json",
      body: { input: [{ email: "x@example.com" }] },
      lead_fields: "country",
    });
    expect(write.result.isError).toBe(true);
    expect(write.first).toContain("Invalid lead_fields: it joins each record to its lead by leadId");
    const example =
      /E\.g\. method GET, endpoint (\S+), query_parameters (\{[^}]*\}), paginate true, lead_fields "(\w+)", count_by "([\w.]+)"/.exec(
        write.first,
      );
    expect(example).not.toBeNull();
    const [, endpoint, query, fields, countBy] = example ?? [];
    await mkto.ok({
      method: "GET",
      endpoint,
      query_parameters: JSON.parse(query ?? "{}"),
      paginate: true,
      lead_fields: fields,
      count_by: countBy,
    });

    const misspelt = await mkto.call({
      ...READ,
      query_parameters: { sinceDatetime: "2026-11-28T00:00:00Z", activityTypeIds: "Open Email" },
      lead_fields: "leadSorce",
    });
    expect(misspelt.result.isError).toBe(true);
    expect(misspelt.first).toContain('Marketo has no lead field "leadSorce"');
    const nearest = /The nearest lead fields: (\w+)/.exec(misspelt.first)?.[1];
    expect(nearest).toBe("leadSource");
    await mkto.ok({
      ...READ,
      query_parameters: { sinceDatetime: "2026-11-28T00:00:00Z", activityTypeIds: "Open Email" },
      lead_fields: nearest,
    });
  });

  // Last: it deletes a lead of the seeded world.
  it("says which records' lead was not found, and where finds them (review s33, 5)", async () => {
    const query = { sinceDatetime: "2026-11-20T00:00:00Z", activityTypeIds: "Open Email" };
    const records = await mkto.results(await mkto.ok<Read>({ ...READ, query_parameters: query }));
    const gone = String(records[0]?.leadId);
    const own = records.filter((r) => String(r.leadId) === gone).length;
    await mkto.ok({
      method: "POST",
      endpoint: "/rest/v1/leads/delete.json",
      body: { input: [{ id: Number(gone) }] },
    });
    const counted = await mkto.ok<{ result: Row[] }>({
      ...READ,
      query_parameters: query,
      lead_fields: "leadSource",
      count_by: "activityType",
    });
    expect(counted.first).toContain(
      `1 lead not found (deleted, or not visible to this API user): ${own} record`,
    );
    const orphans = await mkto.ok<Read>({
      ...READ,
      query_parameters: query,
      lead_fields: "leadSource",
      where: "lead is empty",
    });
    expect((await mkto.results(orphans)).map((r) => String(r.leadId))).toEqual(Array(own).fill(gone));
  });
});
