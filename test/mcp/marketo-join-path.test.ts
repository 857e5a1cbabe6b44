import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { seededMarketo, type ToolAnswer } from "../helpers/marketo-mcp.js";

/**
 * join on a GET path, read whole in the same call (trial s37 N546: 198 members printed whole, 43,000 characters and
 * a call, only to have a link to join). Invariant, over generated lists, fields and outer reads on the sandbox
 * through MCP: a join on a path is the join on the kept result of that path's own whole read (same records, same
 * figures), and its answer's calls_used is the outer read's plus the path's; a path read that stops is refused,
 * and its hint's fix, done, answers.
 */
type Row = Record<string, unknown>;
interface Answer {
  result: Row[];
  computed?: Record<string, number>;
  calls_used: number;
}

const mkto = seededMarketo(1_200);

const visits = (where: string | undefined) => ({
  method: "GET",
  endpoint: "/rest/v1/activities.json",
  query_parameters: { activityTypeIds: "Visit Webpage", sinceDatetime: "2026-11-01" },
  paginate: true,
  max_pages: 200,
  ...(where ? { where } : {}),
});

const members = (lists: string, fields: string) => ({
  method: "GET",
  endpoint: "/rest/v1/lists/{listId}/leads.json",
  query_parameters: { listId: lists, fields },
  paginate: true,
});

/** The path of `members(lists, fields)`, as join takes it. */
const pathOf = (lists: string, fields: string) =>
  `/rest/v1/lists/{listId}/leads.json?listId=${lists}&fields=${fields}`;

async function whole(args: Row): Promise<{ rows: Row[]; answer: ToolAnswer<Answer> }> {
  const answer = await mkto.ok<Answer>(args);
  return { rows: await mkto.results(answer), answer };
}

describe("join on a path: the path read whole for the join's rows, in the same call", () => {
  it("is the join on the kept result of the same read, its calls added (property)", {
    timeout: 240_000,
  }, async () => {
    // Activity types named once before (their names are read once, and cached), so that each call spends alike.
    await mkto.ok(visits(undefined));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("1001", "1001,1002", "1002,1003,1004"),
        fc.constantFrom("id", "id,email", "id,email,leadScore"),
        fc.constantFrom(undefined, "joined is not empty", "joined is empty"),
        fc.constantFrom(undefined, "joined.listId", "leadId"),
        async (lists, fields, where, countBy) => {
          const kept = await mkto.ok<Answer>(members(lists, fields));
          const link = kept.links.find((l) => l.mimeType === "application/json")?.uri;
          expect(link, kept.first).toBeDefined();
          const ask = { ...visits(where), ...(countBy ? { count_by: countBy } : {}) };
          const byLink = await whole({ ...ask, join: `${link} on leadId = id` });
          const byPath = await whole({ ...ask, join: `${pathOf(lists, fields)} on leadId = id` });
          expect(byPath.rows).toEqual(byLink.rows);
          expect(byPath.answer.data.computed).toEqual(byLink.answer.data.computed);
          // The path's read is the kept one's, made again inside the call: its calls are the answer's too.
          expect(byPath.answer.data.calls_used).toBe(byLink.answer.data.calls_used + kept.data.calls_used);
          const rows = byLink.answer.first.match(/had a row of the kept result \(([\d,]+) rows?\)/)?.[1];
          expect(rows, byLink.answer.first).toBeDefined();
          expect(byPath.answer.first).toContain(
            `had a row of GET ${pathOf(lists, fields)}, read whole in ${kept.data.calls_used} call`,
          );
          expect(byPath.answer.first).toContain(`(${rows} row`);
        },
      ),
      { numRuns: 8 },
    );
  });

  it("serves where's result(…) too: the same records as the kept result's link, its calls added (property)", {
    timeout: 240_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("1001", "1002,1003"),
        fc.constantFrom("", " not"),
        fc.constantFrom(undefined, "primaryAttributeValue"),
        async (lists, not, countBy) => {
          const kept = await mkto.ok<Answer>(members(lists, "id"));
          const link = kept.links.find((l) => l.mimeType === "application/json")?.uri;
          const ask = (ref: string) => ({
            ...visits(`leadId${not} in result("${ref}", "id")`),
            ...(countBy ? { count_by: countBy } : {}),
          });
          const byLink = await whole(ask(link ?? ""));
          const byPath = await whole(ask(pathOf(lists, "id")));
          expect(byPath.rows).toEqual(byLink.rows);
          expect(byPath.answer.data.computed).toEqual(byLink.answer.data.computed);
          expect(byPath.answer.data.calls_used).toBe(byLink.answer.data.calls_used + kept.data.calls_used);
          const records = (await mkto.results(kept)).length.toLocaleString("en-US");
          expect(byPath.answer.first).toContain(
            `where's result(…) took GET ${pathOf(lists, "id")}, read whole in ${kept.data.calls_used} call`,
          );
          expect(byPath.answer.first).toContain(`(${records} records)`);
        },
      ),
      { numRuns: 5 },
    );
  });

  it("reaches the paths inside the objects of a list of rows: a program's membership", async () => {
    const program = (id: string) => ({
      method: "GET",
      endpoint: "/rest/v1/leads/programs/{programId}.json",
      query_parameters: { programId: id, fields: "id" },
      paginate: true,
    });
    const inPrograms = await whole(program("1001,1002,1003"));
    const byHand = new Map<number, number>();
    for (const row of inPrograms.rows) {
      const id = (row.membership as { id: number }).id;
      if (row.id === undefined) continue;
      byHand.set(id, (byHand.get(id) ?? 0) + 1);
    }
    // Each member of program 1001 counted by the programs (of the three) each of its leads is in.
    const counted = await whole({
      ...program("1001"),
      join: "/rest/v1/leads/programs/{programId}.json?programId=1001,1002,1003&fields=id on id",
      count_by: "joined.membership.id",
    });
    const inFirst = counted.rows.find((row) => row["joined.membership.id"] === 1001);
    expect(inFirst?.count, counted.answer.first).toBe(byHand.get(1001));
    expect(counted.answer.first).toContain("joined.membership.progressionStatus");
    // The fields listed are those that hold values: joined.membership is an object, which count_by refuses.
    expect(counted.answer.first).not.toMatch(/joined\.membership[,;]/);
  });
});

describe("join on a path that is not read whole", () => {
  // A kept result, and so a path's read, holds at most 20 KB here: a list's members with their default fields pass it.
  const small = seededMarketo(1_200, { MARTECH_STEPS_RESULT_MAX_BYTES: "20000" });

  it("is refused, and its hint's fix (a narrower read of the path), done, answers", async () => {
    const outer = { ...visits(undefined), count_by: "joined.id" };
    const wide = await small.call<Answer>({
      ...outer,
      join: "/rest/v1/lists/1001/leads.json on leadId = id",
    });
    expect(wide.result.isError).toBe(true);
    expect(wide.first).toMatch(
      /^Invalid join: the read of GET \/rest\/v1\/lists\/1001\/leads\.json stopped before its last record \([\d,]+ read\)/,
    );
    expect(wide.first).toContain(
      "Narrow the path's read (its query: fields, a filter) so that it is read whole",
    );
    const asList = await small.call<Answer>({
      ...visits('leadId in result("/rest/v1/lists/1001/leads.json")'),
    });
    expect(asList.first).toMatch(
      /^Invalid where: the read of GET \/rest\/v1\/lists\/1001\/leads\.json stopped before/,
    );
    expect(asList.first).toContain("as a list it would leave the rest out");
    const narrow = await small.ok<Answer>({
      ...outer,
      join: "/rest/v1/lists/1001/leads.json?fields=id on leadId = id",
    });
    expect(narrow.first).toContain(
      "had a row of GET /rest/v1/lists/1001/leads.json?fields=id, read whole in",
    );
  });

  it("says what it takes for a path that is no read, and Marketo's refusal of a wrong one", async () => {
    const notPath = await small.call<Answer>({ ...visits(undefined), join: "/ on leadId = id" });
    expect(notPath.result.isError).toBe(true);
    expect(notPath.first).toContain(
      "Invalid join: its path, GET /, is refused as endpoint: it is outside the allowed API paths.",
    );
    const none = await small.call<Answer>({
      ...visits(undefined),
      join: "/rest/v1/nothing.json on leadId = id",
    });
    expect(none.result.isError).toBe(true);
    expect(none.first).toContain("/rest/v1/nothing.json is no Marketo endpoint");
  });
});
