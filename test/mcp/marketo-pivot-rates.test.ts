/**
 * Rates over a pivot's counts, computed by the step (issue 27; trial s19, N215: the agent divided twelve
 * programs' turnouts itself; the email recipe told agents to divide clicks by opens). order_by names
 * "<column>%" (its share of the row's total) or "<column>/<column>" (a ratio): the step adds that column to every
 * row, sorts by it, and says how it is computed. Fast-check through MCP on the sandbox: each rate is the row's
 * own counts divided, the rows are the same as without it, in its order (nulls last), and an unknown key's hint,
 * done as it says, works.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { iso, marketoOverMcp, NO_CALL_WINDOW, runningClock } from "../helpers/marketo-mcp.js";

type Row = Record<string, unknown>;
interface Answer {
  result: Row[];
}
const T0 = Date.UTC(2026, 11, 2, 12);
const DAY = 86_400_000;
const mkto = marketoOverMcp(
  { leadCount: 400, seed: 11, now: runningClock(T0), rateLimit: 1_000_000 },
  undefined,
  NO_CALL_WINDOW,
);
const PROGRAMS = [1003, 1005, 1008, 1010, 1013, 1015, 1018, 1020];
const members = (programs: number[], extra: Record<string, unknown>) =>
  mkto.ok<Answer>({
    method: "GET",
    endpoint: "/rest/v1/leads/programs/{programId}.json",
    query_parameters: { programId: programs },
    paginate: true,
    ...extra,
  });
const emails = (extra: Record<string, unknown>) =>
  mkto.ok<Answer>({
    method: "GET",
    endpoint: "/rest/v1/activities.json",
    query_parameters: { sinceDatetime: iso(T0 - 10 * DAY), activityTypeIds: "Open Email,Click Email" },
    paginate: true,
    max_pages: 200,
    max_items: 100_000,
    count_by: "primaryAttributeValue,activityType:columns",
    ...extra,
  });

/** Sorted descending by `key`, nulls last. */
const descending = (rows: Row[], key: string) => {
  const values = rows.map((row) => row[key] as number | null);
  const numbers = values.filter((v): v is number => v !== null);
  expect(values).toEqual([...numbers.sort((a, b) => b - a), ...values.filter((v) => v === null)]);
};
const byRow = (rows: Row[], key: string) =>
  Object.fromEntries(rows.map((row) => [String(row[key]), row])) as Record<string, Row>;

describe("min_count over count_by's columns", () => {
  it("keeps the rows of min_count records or more, as the table without it, and says their total (property; trial s44, N608)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 260 }), async (least) => {
        const shape = {
          count_by: "programId,membership.reachedSuccess:columns",
          order_by: "-true%,-total,programId",
        };
        const all = (await members(PROGRAMS, shape)).data.result;
        const { data, first } = await members(PROGRAMS, { ...shape, min_count: least });
        const kept = all.filter((row) => Number(row.total) >= least);
        expect(data.result).toEqual(kept);
        const records = kept.reduce((sum, row) => sum + Number(row.total), 0);
        expect(first).toContain(
          `${kept.length} row${kept.length === 1 ? "" : "s"} of ${least} or more records (${records.toLocaleString("en-US")} record`,
        );
        expect(first).toContain(`the totals add up to ${records.toLocaleString("en-US")}`);
        // A table of sums: its rows kept are those of min_count records, and their totals add up to theirs.
        const sums = { ...shape, order_by: "-total,programId", sum: "id" };
        const counts = (await members(PROGRAMS, { ...shape, order_by: "-total,programId" })).data.result;
        const summed = await members(PROGRAMS, { ...sums, min_count: least });
        const ids = new Set(counts.filter((row) => Number(row.total) >= least).map((row) => row.programId));
        expect(new Set(summed.data.result.map((row) => row.programId))).toEqual(ids);
        const added = summed.data.result.reduce((sum, row) => sum + Number(row.total), 0);
        expect(summed.first).toContain(`the totals add up to ${added.toLocaleString("en-US")}`);
      }),
      { numRuns: 8 },
    );
    // One row of columns has nothing to keep: refused, naming the fix, which answers.
    const alone = await mkto.call<Answer>({
      method: "GET",
      endpoint: "/rest/v1/leads/programs/{programId}.json",
      query_parameters: { programId: PROGRAMS },
      paginate: true,
      count_by: "membership.reachedSuccess:columns",
      min_count: 100,
    });
    expect(alone.first).toMatch(
      /^Invalid min_count: with membership.reachedSuccess:columns alone there is one row/,
    );
    expect(alone.first).toContain("count by a field before membership.reachedSuccess:columns");
  });
});

describe("rates over count_by's columns", () => {
  it("gives each row its share of its total, sorted by it, the counts unchanged", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(PROGRAMS, { minLength: 2 }),
        fc.constantFrom("membership.reachedSuccess", "membership.progressionStatus"),
        async (programs, field) => {
          const plain = await members(programs, { count_by: `programId,${field}:columns` });
          const column = Object.keys(plain.data.result[0] ?? {}).find(
            (key) => !["programId", "programName", "total"].includes(key),
          ) as string;
          const rated = await members(programs, {
            count_by: `programId,${field}:columns`,
            order_by: `-${column}%`,
          });
          expect(rated.first).toContain(`${column}% is each row's ${column} over its total, in %, to 0.1`);
          const rows = rated.data.result;
          descending(rows, `${column}%`);
          const before = byRow(plain.data.result, "programId");
          for (const row of rows) {
            const { [`${column}%`]: share, ...counts } = row;
            expect(counts).toEqual(before[String(row.programId)]);
            const total = Number(row.total);
            expect(share).toBe(total > 0 ? Math.round((Number(row[column]) / total) * 1000) / 10 : null);
          }
        },
      ),
      { numRuns: 6, seed: 20_261_204 },
    );
  });

  it("gives click-to-open per email as Click Email/Open Email, sorted by it, nulls last", async () => {
    const answer = await emails({ order_by: "-Click Email/Open Email" });
    const rows = answer.data.result;
    expect(rows.length).toBeGreaterThan(1);
    descending(rows, "Click Email/Open Email");
    for (const row of rows) {
      const opens = Number(row["Open Email"]);
      const expected = opens > 0 ? Math.round((Number(row["Click Email"]) / opens) * 1e4) / 1e4 : null;
      expect(row["Click Email/Open Email"]).toBe(expected);
    }
    expect(answer.first).toContain(
      "Click Email/Open Email is each row's Click Email over its Open Email, to 4 decimals",
    );
  });

  it("refuses an unknown key with examples of both, and each example works", async () => {
    const count_by = "programId,membership.reachedSuccess:columns";
    const refused = await mkto.call({
      method: "GET",
      endpoint: "/rest/v1/leads/programs/{programId}.json",
      query_parameters: { programId: PROGRAMS },
      paginate: true,
      count_by,
      order_by: "-turnout",
    });
    expect(refused.result.isError).toBe(true);
    const examples = [...refused.first.matchAll(/"(-[^"]+(?:%|\/[^"]+))" (?:ranks|by)/g)].map(
      (m) => m[1] as string,
    );
    expect(examples).toHaveLength(2);
    for (const order_by of examples) {
      const done = await members(PROGRAMS, { count_by, order_by });
      descending(done.data.result, order_by.slice(1));
    }
  });

  it("computes the email recipe's three rates as its note says, with unique leads", async () => {
    const { contents } = await mkto.session.client.readResource({ uri: "martech-steps://recipes/marketo" });
    const text = (contents[0] as { text: string }).text;
    const order_by = /order_by \\?"(-Open Email\/Email Delivered,[^"\\]+)\\?" adds open rate/.exec(text)?.[1];
    expect(order_by).toBeDefined();
    const answer = await emails({
      query_parameters: {
        sinceDatetime: iso(T0 - 10 * DAY),
        activityTypeIds: "Send Email,Email Delivered,Open Email,Click Email",
      },
      count_by: "primaryAttributeValue,activityType:columns",
      count_distinct: "leadId",
      order_by,
    });
    const rows = answer.data.result;
    expect(rows.length).toBeGreaterThan(1);
    descending(rows, "Open Email/Email Delivered");
    for (const row of rows) {
      for (const [top, bottom] of [
        ["Open Email", "Email Delivered"],
        ["Click Email", "Email Delivered"],
        ["Click Email", "Open Email"],
      ] as const) {
        const below = Number(row[bottom]);
        expect(row[`${top}/${bottom}`]).toBe(
          below > 0 ? Math.round((Number(row[top]) / below) * 1e4) / 1e4 : null,
        );
      }
    }
  });

  it("divides page paths that begin with a slash, as the refusal's own example does (review s21, finding 2)", async () => {
    const visits = (order_by: string) =>
      mkto.call({
        method: "GET",
        endpoint: "/rest/v1/activities.json",
        query_parameters: { sinceDatetime: iso(T0 - 10 * DAY), activityTypeIds: "Visit Webpage" },
        paginate: true,
        max_pages: 200,
        max_items: 100_000,
        count_by: 'leadId,"attributes.Webpage URL":columns',
        order_by,
      });
    const refused = await visits("-turnout");
    expect(refused.result.isError).toBe(true);
    const ratio = /"(-\/[^"]*\/\/[^"]+)" by the ratio of two columns/.exec(refused.first)?.[1];
    expect(ratio, refused.first).toBeDefined();
    const done = await visits(ratio as string);
    expect(done.result.isError, done.text).toBeFalsy();
    const [top, bottom] = [
      ratio?.slice(1, ratio.indexOf("/", 2)),
      ratio?.slice(ratio.indexOf("/", 2) + 1),
    ] as [string, string];
    const rows = (done.result.structuredContent as unknown as Answer).result;
    descending(rows, `${top}/${bottom}`);
    for (const row of rows) {
      const below = Number(row[bottom]);
      expect(row[`${top}/${bottom}`]).toBe(
        below > 0 ? Math.round((Number(row[top]) / below) * 1e4) / 1e4 : null,
      );
    }
  });
});
