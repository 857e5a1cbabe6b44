import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildDataSet } from "../../src/sandbox/marketo/seed.js";
import { SEEDED_AT, seededMarketo } from "../helpers/marketo-mcp.js";

/**
 * count_by takes a condition in where's language ("leadScore > 50", 'utmMedium in ("cpc","ppc")'), whose
 * column is true or false for each record (trial s20, N218: the agent added up the years before 2026 itself).
 * Property, over generated thresholds, value lists and a second field on list 1001's members, whose truth is the
 * seeded data set: the true and false counts are the members for which the condition holds and does not (an
 * empty value holds for no comparison), and with a field first, per value of it; a quoted date is the
 * time_zone's day, as where's is.
 */
interface Answer {
  result: Record<string, unknown>[];
}

const world = buildDataSet({ leadCount: 5_000, seed: 42, now: SEEDED_AT });
const members = [...(world.lists.find((list) => list.id === 1001)?.members ?? [])].flatMap((id) => {
  const lead = world.leads.get(id);
  return lead ? [lead as Record<string, unknown>] : [];
});
const MEDIUMS = ["cpc", "email", "social", "referral", "display"];

const mkto = seededMarketo(5_000);
const read = (count_by: string, extra: Record<string, unknown> = {}) =>
  mkto.ok<Answer>({
    method: "GET",
    endpoint: "/rest/v1/lists/1001/leads.json",
    query_parameters: { fields: "id,leadScore,utmMedium,leadSource,createdAt", batchSize: 300 },
    paginate: true,
    count_by,
    ...extra,
  });

/** The first text of a read of list 1001's members with these fields that is refused. */
async function refusal(fields: string, extra: Record<string, unknown>): Promise<string> {
  const { result, first } = await mkto.call({
    method: "GET",
    endpoint: "/rest/v1/lists/1001/leads.json",
    query_parameters: { fields },
    ...extra,
  });
  expect(result.isError).toBe(true);
  return first;
}

/** The answer's rows as "value / value → count". */
const tally = (rows: Record<string, unknown>[], columns: string[]) =>
  new Map(rows.map((row) => [columns.map((c) => String(row[c])).join(" / "), Number(row.count)]));

function truth(columns: string[], of: ((lead: Record<string, unknown>) => unknown)[]) {
  const counts = new Map<string, number>();
  for (const lead of members) {
    const key = of.map((value) => String(value(lead))).join(" / ");
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  expect(columns).toHaveLength(of.length);
  return counts;
}

const empty = (value: unknown) => value === null || value === undefined || value === "";

describe("count_by a condition", () => {
  it("property: true and false count the members for which it holds, alone and after a field", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 100 }),
        fc.subarray(MEDIUMS, { minLength: 1 }),
        fc.boolean(),
        async (least, mediums, byField) => {
          const score = `leadScore > ${least}`;
          const medium = `utmMedium in (${mediums.map((m) => JSON.stringify(m)).join(", ")})`;
          const columns = byField ? ["leadSource", medium] : [score, medium];
          const { data, text } = await read(columns.join(","));
          const scoreHolds = (lead: Record<string, unknown>) =>
            !empty(lead.leadScore) && Number(lead.leadScore) > least;
          const mediumHolds = (lead: Record<string, unknown>) =>
            !empty(lead.utmMedium) && mediums.includes(String(lead.utmMedium).toLowerCase());
          const want = truth(columns, [
            byField ? (lead) => (empty(lead.leadSource) ? null : lead.leadSource) : scoreHolds,
            mediumHolds,
          ]);
          const counted = tally(data.result, columns);
          expect(new Map([...counted].filter(([, count]) => count > 0))).toEqual(want);
          // Each value of the other column has a true and a false row, 0 where none (review s25, finding 5).
          for (const row of data.result) {
            const flipped = { ...row, [medium]: !row[medium] };
            expect(counted.has(columns.map((c) => String(flipped[c])).join(" / "))).toBe(true);
          }
          // Each field's own totals (trial s22, N258): the second's are the members for which it holds or not.
          const holds = members.filter(mediumHolds).length;
          const second = [
            `true ${holds.toLocaleString("en-US")}`,
            `false ${(members.length - holds).toLocaleString("en-US")}`,
          ];
          const said = text.split(`records per ${medium}: `)[1] ?? "";
          for (const part of second) if (!part.endsWith(" 0")) expect(said).toContain(part);
        },
      ),
      { numRuns: 10 },
    );
  }, 120_000);

  it("reads a condition through a list of objects as where does (review s25, finding 4)", async () => {
    const ids = Array.from({ length: 30 }, (_, i) => 1001 + i);
    const programs = {
      method: "GET",
      endpoint: "/rest/asset/v1/program/{id}.json",
      query_parameters: { id: ids },
    };
    const condition = "costs.cost > 1000";
    const counted = await mkto.ok<Answer>({ ...programs, count_by: condition });
    const kept = await mkto.ok<Answer>({ ...programs, where: condition, count_by: "type" });
    const holds = kept.data.result.reduce((sum, row) => sum + Number(row.count), 0);
    expect(tally(counted.data.result, [condition])).toEqual(
      new Map([
        ["true", holds],
        ["false", 30 - holds],
      ]),
    );
  });

  it("a condition with its text unquoted is refused as where refuses it, and the hint's form runs (review s25, finding 7)", async () => {
    const refused = await refusal("id,leadSource", { count_by: "leadSource == Webinar" });
    // A capitalised bare word after == is a text without its quotes (a field's name starts lowercase): refused as it
    // stands, before anything is read.
    expect(refused).toContain(
      'Invalid count_by: expected a quoted text, a number or a field name (a text is quoted: "Webinar"',
    );
    expect(refused).toContain('quote text and dates, e.g. leadSource == "Webinar"');
    await read('leadSource == "Webinar"');
  });

  it("names count_by when it refuses a date's offset, beside a where with dates too (review s25, finding 8)", async () => {
    const refused = await refusal("id,createdAt", {
      count_by: 'createdAt >= "2025-06-04T00:00:00-05:00"',
      where: 'createdAt >= "2023-01-01"',
      time_zone: "America/New_York",
    });
    expect(refused).toContain("Invalid count_by: 2025-06-04T00:00:00-05:00");
  });

  it("reads a quoted date on time_zone's clock, as where does", async () => {
    const condition = 'createdAt >= "2026-01-01"';
    const { data, text } = await read(condition, { time_zone: "America/New_York" });
    const start = Date.parse("2026-01-01T05:00:00Z");
    const want = truth([condition], [(lead) => Number(lead.createdAt) >= start]);
    expect(tally(data.result, [condition])).toEqual(want);
    const where = await read("leadSource", { where: condition, time_zone: "America/New_York" });
    expect(where.data.result.reduce((sum, row) => sum + Number(row.count), 0)).toBe(want.get("true"));
    expect(text).toContain(`counted by ${condition} (dates in America/New_York, a date alone its whole day)`);
  });

  it("a part that is neither a field nor a condition is refused with the forms count_by takes", async () => {
    const refused = await refusal("id,leadScore", { count_by: "%%%" });
    expect(refused).toContain('a condition counts true and false ("leadScore > 50")');
    await read("leadScore > 50");
  });

  it("takes another read's id list whole: the overlap of two lists in one count (trial s23, N282)", async () => {
    // Every member of list 1002 (hundreds of ids, far past the 500 characters count_by once took).
    const other = [...(world.lists.find((list) => list.id === 1002)?.members ?? [])];
    expect(other.length).toBeGreaterThan(100);
    const condition = `id in (${other.join(",")})`;
    const { data } = await read(condition);
    const inOther = new Set(other);
    const both = members.filter((lead) => inOther.has(Number(lead.id))).length;
    // Its column is named by its start and length, not written whole into every row (review s27, finding 2).
    const column = Object.keys(data.result[0] ?? {}).find((key) => key.startsWith("id in ("));
    expect(column).toMatch(new RegExp(`… \\(${condition.length.toLocaleString("en-US")} characters\\)$`));
    expect(column?.length).toBeLessThanOrEqual(80);
    const counts = tally(data.result, [column ?? ""]);
    expect(counts.get("true") ?? 0).toBe(both);
    expect((counts.get("true") ?? 0) + (counts.get("false") ?? 0)).toBe(members.length);
    // where takes it too: the members of list 1001 that are not on list 1002.
    const apart = await read("leadSource", { where: `not ${condition}` });
    expect(apart.data.result.reduce((sum, row) => sum + Number(row.count), 0)).toBe(members.length - both);
    // The summary says a long where back by its start and length, not whole (review s27, finding 2).
    expect(apart.first).toContain(
      `characters in all): ${(members.length - both).toLocaleString("en-US")} of`,
    );
    expect(apart.first.length).toBeLessThan(condition.length);
    // Crossed with a field, every count row fits the answer.
    const crossed = await read(`${condition},leadSource`);
    const groups = (crossed.data as unknown as { computed: { groups: number } }).computed.groups;
    expect(crossed.data.result).toHaveLength(groups);
    expect(crossed.text).not.toContain(condition);
    expect(JSON.stringify(crossed.data)).not.toContain(condition);
  });

  it("with sum, each row's mean is its sum over its records with a value (trial s24, N299)", async () => {
    const { data, text } = await read("leadSource", { sum: "leadScore" });
    const rows = data.result as { leadSource: string | null; sum: number; mean: number | null }[];
    for (const row of rows) {
      const scores = members
        .filter(
          (lead) =>
            (lead.leadSource ?? null) === row.leadSource || (!lead.leadSource && row.leadSource === null),
        )
        .map((lead) => lead.leadScore)
        .filter((score) => score !== null && score !== undefined && score !== "")
        .map(Number);
      const mean =
        scores.length > 0
          ? Math.round((scores.reduce((a, b) => a + b, 0) / scores.length) * 100) / 100
          : null;
      expect(row.mean, String(row.leadSource)).toBe(mean);
      // The median: half the scores at most it, half at least (trial s26, N352: worked out from per-value counts).
      const sorted = [...scores].sort((a, b) => a - b);
      const median =
        sorted.length === 0
          ? null
          : sorted.length % 2
            ? sorted[(sorted.length - 1) / 2]
            : ((sorted[sorted.length / 2 - 1] as number) + (sorted[sorted.length / 2] as number)) / 2;
      const got = (row as { median?: number | null }).median;
      expect(got, String(row.leadSource)).toBe(
        median === null ? null : Math.round((median as number) * 100) / 100,
      );
      if (got !== null && got !== undefined) {
        expect(scores.filter((s) => s <= got).length * 2).toBeGreaterThanOrEqual(scores.length);
        expect(scores.filter((s) => s >= got).length * 2).toBeGreaterThanOrEqual(scores.length);
      }
    }
    expect(text).toContain("its mean is that sum over those of its records with a leadScore");
    expect(text).toContain("its median, min and max the middle, least and greatest of their values");
    const byMedian = await read("leadSource", { sum: "leadScore", order_by: "-median" });
    const medians = (byMedian.data.result as { median: number | null }[])
      .map((row) => row.median)
      .filter((m): m is number => m !== null);
    expect(medians).toEqual([...medians].sort((a, b) => b - a));
    // Best mean first (review s28, finding 8).
    const ranked = await read("leadSource", { sum: "leadScore", order_by: "-mean" });
    const means = (ranked.data.result as { mean: number | null }[]).map((row) => row.mean);
    const known = means.filter((mean): mean is number => mean !== null);
    expect(known).toEqual([...known].sort((a, b) => b - a));
    expect(known).toHaveLength(rows.filter((row) => row.mean !== null).length);
  });

  it("with sum, a record with an empty value adds nothing and is left out of the mean, not refused (review s28, finding 7)", async () => {
    const emails = ["no-score-1@example.test", "no-score-2@example.test", "scored@example.test"];
    await mkto.ok({
      method: "POST",
      endpoint: "/rest/v1/leads.json",
      body: {
        action: "createOrUpdate",
        input: [
          { email: emails[0], leadSource: "Kiosk" },
          { email: emails[1], leadSource: "Kiosk", leadScore: null },
          { email: emails[2], leadSource: "Kiosk", leadScore: 40 },
        ],
      },
    });
    const counted = await mkto.ok<Answer>({
      method: "GET",
      endpoint: "/rest/v1/leads.json",
      query_parameters: {
        filterType: "email",
        filterValues: emails.join(","),
        fields: "id,leadSource,leadScore",
      },
      count_by: "leadSource",
      sum: "leadScore",
    });
    expect(counted.data.result).toEqual([
      expect.objectContaining({ leadSource: "Kiosk", count: 3, sum: 40, mean: 40 }),
    ]);
  });
});
