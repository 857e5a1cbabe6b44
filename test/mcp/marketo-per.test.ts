/**
 * Issue 27 (trials s27 and s28: segments such as "web only, email only, both", and counts of counts such as
 * "how many leads got 1, 2, 3 emails", were worked out by the agent from whole activity logs read back). With
 * `per` the records that match where are rolled up to one row per value of a field, with `records` and, for
 * activities, `types`; count_by, order_by, sum and limit then run over the rows.
 *
 * The invariants, fast-check over windows, types, where and leads through MCP on the sandbox: the rows are the
 * plain read's matching records grouped by hand (one per lead, its count, its sorted types); their records add
 * up to the records that match; count_by over the rows' types or records gives the segments and the counts of
 * counts worked out by hand, adding up to the rows.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { activityExport, seededMarketo } from "../helpers/marketo-mcp.js";

type Activity = { id: number; leadId: number; activityDate: string; activityType: string };
type Row = { leadId: number; records: number; types: string };
interface Read<T> {
  result: T[];
  complete: boolean;
}

const mkto = seededMarketo(300);
const READ = {
  method: "GET",
  endpoint: "/rest/v1/activities.json",
  paginate: true,
  max_pages: 200,
  max_items: 100_000,
};

/** The rows per leadId worked out by hand from the plain read's records that match. */
function byHand(records: Activity[]): Map<number, Row> {
  const rows = new Map<number, { records: number; types: Set<string> }>();
  for (const record of records) {
    const row = rows.get(record.leadId) ?? { records: 0, types: new Set<string>() };
    row.records += 1;
    row.types.add(record.activityType);
    rows.set(record.leadId, row);
  }
  return new Map(
    [...rows].map(([leadId, row]) => [
      leadId,
      { leadId, records: row.records, types: [...row.types].sort().join(" + ") },
    ]),
  );
}

const tally = (values: string[]): Map<string, number> => {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
};

describe("per: one row per lead, then count_by over the rows", () => {
  it("rolls up as the plain read's matching records grouped by hand, and counts segments and counts of counts", {
    timeout: 180_000,
  }, async () => {
    let leads = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("2026-11-10", "2026-11-24", "2026-11-29"),
        fc.constantFrom(
          "Visit Webpage,Click Email",
          "Send Email",
          "Open Email,Click Email,Fill Out Form",
          "all",
        ),
        fc.constantFrom(undefined, 'activityDate >= "2026-11-28"', 'activityType != "Visit Webpage"'),
        fc.constantFrom(undefined, "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"),
        async (day, types, where, leadIds) => {
          const query = {
            sinceDatetime: `${day}T00:00:00Z`,
            activityTypeIds: types,
            ...(leadIds ? { leadIds } : {}),
          };
          const plain = await mkto.ok<Read<Activity>>({
            ...READ,
            query_parameters: query,
            ...(where ? { where } : {}),
          });
          const matching = await mkto.results(plain);
          const want = byHand(matching);
          leads += want.size;

          const rolled = await mkto.ok<Read<Row>>({
            ...READ,
            query_parameters: query,
            per: "leadId",
            ...(where ? { where } : {}),
          });
          expect(rolled.data.complete).toBe(true);
          const rows = await mkto.results(rolled);
          expect(new Map(rows.map((row) => [row.leadId, row]))).toEqual(want);
          expect(rows.reduce((sum, row) => sum + row.records, 0)).toBe(matching.length);
          expect(rolled.first).toContain(`per leadId: ${want.size.toLocaleString("en-US")} row`);

          const segments = await mkto.ok<Read<{ types: string; count: number }>>({
            ...READ,
            query_parameters: query,
            per: "leadId",
            count_by: "types",
            ...(where ? { where } : {}),
          });
          const bySegment = tally([...want.values()].map((row) => row.types));
          expect(new Map(segments.data.result.map((row) => [row.types, row.count]))).toEqual(bySegment);

          const counts = await mkto.ok<Read<{ records: number; count: number }>>({
            ...READ,
            query_parameters: query,
            per: "leadId",
            count_by: "records",
            ...(where ? { where } : {}),
          });
          const byCount = tally([...want.values()].map((row) => String(row.records)));
          expect(new Map(counts.data.result.map((row) => [String(row.records), row.count]))).toEqual(byCount);
          expect(counts.data.result.reduce((sum, row) => sum + row.count, 0)).toBe(want.size);
        },
      ),
      { numRuns: 8 },
    );
    expect(leads).toBeGreaterThan(0);
  });

  it("follows the recipes resource's segment recipe: leads per segment, as grouped by hand", async () => {
    const call = await mkto.recipe("leads by what they did");
    expect(call).toBeDefined();
    const from = "2026-11-15T00:00:00Z";
    const answer = await mkto.ok<Read<{ types: string; count: number }>>(
      JSON.parse(JSON.stringify(call).replace("<from>", from)) as Record<string, unknown>,
    );
    const plain = await mkto.ok<Read<Activity>>({
      ...READ,
      query_parameters: { sinceDatetime: from, activityTypeIds: "Visit Webpage,Click Email" },
    });
    const want = tally([...byHand(await mkto.results(plain)).values()].map((row) => row.types));
    expect(want.size).toBe(3);
    expect(new Map(answer.data.result.map((row) => [row.types, row.count]))).toEqual(want);
  });

  it("rolls up the rows of an activity export run to completion as its plain rows grouped by hand", {
    timeout: 60_000,
  }, async () => {
    const EXPORT = activityExport("2026-11-05T00:00:00Z", "2026-12-01T00:00:00Z", [
      "Visit Webpage",
      "Click Email",
      "Fill Out Form",
    ]);
    const plain = await mkto.ok<Read<Activity>>(EXPORT);
    const json = plain.links.find((l) => l.mimeType === "application/json");
    const rows = (JSON.parse(await mkto.whole(json?.uri ?? "")) as Record<string, string>[]).map(
      (row): Activity => ({
        id: Number(row.id),
        leadId: Number(row.leadId),
        activityDate: String(row.activityDate),
        activityType: String(row.activityType),
      }),
    );
    const want = tally([...byHand(rows).values()].map((row) => row.types));
    const segments = await mkto.ok<Read<{ types: string; count: number }>>({
      ...EXPORT,
      per: "leadId",
      count_by: "types",
    });
    expect(new Map(segments.data.result.map((row) => [row.types, row.count]))).toEqual(want);
    expect(segments.first).toContain(
      `per leadId: ${[...want.values()].reduce((a, b) => a + b, 0).toLocaleString("en-US")} rows`,
    );
  });

  it("links rows too many for the answer as rows, not records (review s32, 11)", async () => {
    const rolled = await mkto.ok<Read<Activity>>({
      ...READ,
      query_parameters: { sinceDatetime: "2026-10-10T00:00:00Z", activityTypeIds: "all" },
      per: "marketoGUID",
    });
    expect(rolled.links.map((link) => link.title)).toEqual([
      expect.stringMatching(/^Full result: [\d,]+ rows \(JSON\)$/),
      expect.stringMatching(/^Full result: [\d,]+ rows \(CSV\)$/),
    ]);
  });

  it("rolls up a read per id too: leads in how many of several programs", async () => {
    const programs = [1001, 1002, 1003, 1004, 1005, 1006];
    const plain = await mkto.ok<Read<{ id: number }>>({
      method: "GET",
      endpoint: "/rest/v1/leads/programs/{programId}.json",
      query_parameters: { programId: programs },
      paginate: true,
    });
    const members = await mkto.results(plain);
    const perLead = tally(members.map((m) => String(m.id)));
    const counted = await mkto.ok<Read<{ records: number; count: number }>>({
      method: "GET",
      endpoint: "/rest/v1/leads/programs/{programId}.json",
      query_parameters: { programId: programs },
      paginate: true,
      per: "id",
      count_by: "records",
    });
    expect(new Map(counted.data.result.map((row) => [String(row.records), row.count]))).toEqual(
      tally([...perLead.values()].map(String)),
    );
    expect(counted.first).toContain(
      `max_items 5,000 (the default) did not cut the read of ${members.length.toLocaleString("en-US")} records`,
    );
  });

  it("rolls up by an attribute of a name/value list, as count_by counts it (review s32, finding 3)", async () => {
    const query = { sinceDatetime: "2026-11-20T00:00:00Z", activityTypeIds: "Open Email,Click Email" };
    const counted = await mkto.ok<Read<Record<string, unknown>>>({
      ...READ,
      query_parameters: query,
      count_by: "attributes.Platform",
    });
    const rolled = await mkto.ok<Read<Record<string, unknown>>>({
      ...READ,
      query_parameters: query,
      per: "attributes.Platform",
    });
    const want = new Map(
      counted.data.result
        .filter((r) => r["attributes.Platform"])
        .map((r) => [r["attributes.Platform"], r.count]),
    );
    expect(want.size).toBeGreaterThan(1);
    expect(new Map(rolled.data.result.map((r) => [r["attributes.Platform"], r.records]))).toEqual(want);
  });

  it("refuses a where or count_by on what the rows do not have before any read, with a fix that works (review s32, 4, 5, 9)", async () => {
    const query = { sinceDatetime: "2026-11-20T00:00:00Z", activityTypeIds: "Visit Webpage,Click Email" };
    mkto.fixture.sandbox.resetStats();
    const where = await mkto.call({ ...READ, query_parameters: query, per: "leadId", where: "records > 1" });
    expect(where.result.isError).toBe(true);
    expect(where.first).toContain("where tests the records read, before per rolls them up");
    const stray = await mkto.call({
      ...READ,
      query_parameters: query,
      per: "leadId",
      count_by: "activityType",
    });
    expect(stray.first).toContain("per's rows have only the fields leadId, records, types");
    const distinct = await mkto.call({
      ...READ,
      query_parameters: query,
      per: "leadId",
      count_by: "types",
      count_distinct: "leadId",
    });
    expect(distinct.first).toContain("count_distinct");
    expect(mkto.fixture.sandbox.stats().callsByPath["/rest/v1/activities.json"]).toBeUndefined();
    const hint = /count_by "(records > 3)"/.exec(where.text)?.[1];
    expect(hint).toBe("records > 3");
    const followed = await mkto.ok<Read<{ count: number }> & { computed: Record<string, number> }>({
      ...READ,
      query_parameters: query,
      per: "leadId",
      count_by: hint,
    });
    expect(followed.data.computed.rows).toBe(followed.data.result.reduce((sum, row) => sum + row.count, 0));
    expect(followed.data.computed.read).toBeGreaterThan(followed.data.computed.rows ?? 0);
    expect(followed.first).toContain("which count_by, order_by and sum take");
    const onePage = await mkto.ok({
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: { sinceDatetime: "2026-11-01T00:00:00Z", activityTypeIds: "Send Email" },
      per: "leadId",
    });
    expect(onePage.first).toContain("the read stopped before its end: give paginate true");
  });

  it("refuses a field no record has with the fields they have, and per on a file read by GET; the fix given works", async () => {
    const query = { sinceDatetime: "2026-11-28T00:00:00Z", activityTypeIds: "Send Email" };
    const wrong = await mkto.call({ ...READ, query_parameters: query, per: "leadID", count_by: "records" });
    expect(wrong.result.isError).toBe(true);
    expect(wrong.first).toContain("has a field named leadID");
    const closest = /they have (\w+)/.exec(wrong.first)?.[1];
    expect(closest).toBe("leadId");
    await mkto.ok({ ...READ, query_parameters: query, per: closest, count_by: "records" });

    const exported = await mkto.call({
      method: "POST",
      endpoint: "/bulk/v1/leads/export/create.json",
      body: {
        fields: ["id"],
        format: "CSV",
        filter: { createdAt: { startAt: "2026-11-01T00:00:00Z", endAt: "2026-11-20T00:00:00Z" } },
      },
      run_to_completion: true,
      per: "id",
    });
    expect(exported.result.isError, exported.text).toBeFalsy();
    const file = await mkto.call({
      method: "GET",
      endpoint: "/bulk/v1/leads/export/abc-123/file.json",
      per: "id",
    });
    expect(file.result.isError).toBe(true);
    expect(file.first).toContain("Invalid per: it rolls up the records of a GET read of REST records");
    expect(file.first).toContain("run the export with run_to_completion instead");
  });
});
