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
      /^Invalid join: the read of GET \/rest\/v1\/lists\/1001\/leads\.json stopped before its last record \([\d,]+ read; stopped by a cap: 200 pages, 100,000 records or 20 KB of JSON\)/,
    );
    expect(wide.first).toContain(
      "Narrow the path's read (its query: fields, a filter, fewer ids or activity types) so that it is read whole",
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

describe("a path's read, as Marketo and the step read it (review s46)", () => {
  const members = "/rest/v1/lists/{listId}/leads.json?listId=1001&fields=id&batchSize=5";

  it("refuses a read per id that stopped at a cap, by path or by its kept link, naming what stopped it (1)", async () => {
    const outer = { ...visits(undefined), count_by: "joined is empty" };
    const byPath = await mkto.call<Answer>({ ...outer, join: `${members} on leadId = id` });
    expect(byPath.result.isError).toBe(true);
    expect(byPath.first).toMatch(
      /stopped before its last record \(1,000 read; stopped by list 1001 has more records/,
    );
    // The same read kept by a call of its own is refused as cut too, as a table or a list.
    const kept = await mkto.ok<Answer>({
      method: "GET",
      endpoint: "/rest/v1/lists/{listId}/leads.json",
      query_parameters: { listId: "1001", fields: "id", batchSize: 5 },
      paginate: true,
      max_pages: 200,
    });
    const link = kept.links.find((l) => l.mimeType === "application/json")?.uri ?? "";
    expect(kept.text).toContain("The read itself stopped before its end (list 1001 has more records");
    const asList = await mkto.call<Answer>({ ...visits(`leadId in result("${link}", "id")`) });
    expect(asList.first).toContain(
      "holds the 1,000 items read before the read stopped (list 1001 has more records",
    );
    // Its hint, done: the path narrowed to a whole read (the default batch of 300) answers.
    const narrowed = await mkto.ok<Answer>({
      ...outer,
      join: `${members.replace("&batchSize=5", "")} on leadId = id`,
    });
    expect(narrowed.first).toContain("read whole in");
  });

  it("refuses a query parameter Marketo ignores before reading, and its fix, done, answers (2)", async () => {
    const ask = (query: string) =>
      visits(`leadId in result("/rest/v1/lists/1001/leads.json?${query}", "id")`);
    const typo = await mkto.call<Answer>(ask("feilds=id"));
    expect(typo.result.isError).toBe(true);
    expect(typo.first).toContain("feilds is not a query parameter of GET /rest/v1/lists/{listId}/leads.json");
    expect(typo.first).toContain("Fix the path's query as said, or leave the parameter out.");
    await mkto.ok(ask("fields=id"));
  });

  it("checks the call's own inputs before any path is read (3)", async () => {
    // The path would be refused by Marketo if read: count_by's refusal comes first, nothing read.
    const bad = await mkto.call<Answer>({
      ...visits(undefined),
      join: "/rest/v1/nothing.json on leadId = id",
      count_by: "leadId,,",
    });
    expect(bad.first).toMatch(/^Invalid count_by: "" is not a field name/);
  });

  it("refuses an unknown kept link in count_by or join before where's path is read: no call spent (review s48, 10)", async () => {
    const where = 'leadId in result("/rest/v1/lists/1001/leads.json?fields=id", "id")';
    for (const bad of [
      { count_by: 'leadId in result("martech-steps://results/nope.json")' },
      { join: "martech-steps://results/nope.json on leadId = id" },
    ]) {
      mkto.fixture.sandbox.resetStats();
      const refused = await mkto.call<Answer>({ ...visits(where), ...bad });
      expect(refused.result.isError).toBe(true);
      expect(refused.first).toMatch(
        /^Invalid (count_by|join): no kept result at martech-steps:\/\/results\/nope\.json/,
      );
      expect(mkto.fixture.sandbox.stats().apiCalls).toBe(0);
    }
  });

  it("reads a quoted path with spaces, a plus and a name given twice as Marketo would (6, 7, 8)", async () => {
    const opens = (query: string) =>
      `"/rest/v1/activities.json?${query}&sinceDatetime=2026-11-20T00:00:00+00:00" on leadId = leadId`;
    const byName = await whole({
      ...visits(undefined),
      count_by: "joined is empty",
      join: opens("activityTypeIds=Open Email"),
    });
    const byId = await whole({
      ...visits(undefined),
      count_by: "joined is empty",
      join: opens("activityTypeIds=10"),
    });
    expect(byName.rows).toEqual(byId.rows);
    const twice = await whole({
      ...visits(undefined),
      count_by: "joined.activityType",
      join: opens("activityTypeIds=10&activityTypeIds=11"),
    });
    expect(twice.rows.map((row) => row["joined.activityType"]).sort()).toEqual(
      expect.arrayContaining(["Click Email", "Open Email"]),
    );
  });

  it("reads a path's sinceDatetime on the call's time_zone, which a path's date alone takes (4)", async () => {
    const opens = (since: string) =>
      `/rest/v1/activities.json?activityTypeIds=10&sinceDatetime=${since} on leadId = leadId`;
    const ask = { ...visits(undefined), count_by: "joined is empty" };
    const zoned = await whole({ ...ask, join: opens("2026-11-20T12:00:00"), time_zone: "Asia/Tokyo" });
    // Either spelling Marketo's references use (review s47, 5).
    const capital = await whole({
      ...ask,
      join: opens("2026-11-20T12:00:00").replace("sinceDatetime", "sinceDateTime"),
      time_zone: "Asia/Tokyo",
    });
    const joinedRows = (answer: ToolAnswer<Answer>) =>
      /read whole in [\d,]+ calls? \(([\d,]+) rows?\)/.exec(answer.first)?.[1];
    expect(joinedRows(capital.answer)).toBe(joinedRows(zoned.answer));
    // The zone moved the path's start: its rows are not those of the same date in UTC.
    const utc = await whole({ ...ask, join: opens("2026-11-20T12:00:00Z"), time_zone: "Asia/Tokyo" });
    expect(joinedRows(utc.answer)).not.toBe(joinedRows(zoned.answer));
    // The outer read's own sinceDatetime is on that clock too: both calls give time_zone.
    const offset = await whole({
      ...ask,
      join: opens("2026-11-20T12:00:00+09:00"),
      time_zone: "Asia/Tokyo",
    });
    expect(zoned.rows).toEqual(offset.rows);
    expect(zoned.answer.first).toContain(
      "had a row of GET /rest/v1/activities.json?activityTypeIds=10&sinceDatetime=2026-11-20T12:00:00,",
    );
  });

  it("reads a path's query as a URL's, refusing a secret as such, and a write with a join before reading (review s47)", async () => {
    const lists = await mkto.ok<Answer>({
      ...visits('leadId not in result("/rest/v1/lists.json?name=Trade+Show+Leads", "id")'),
      count_by: "leadId is empty",
    });
    expect(lists.first).toContain(
      "took GET /rest/v1/lists.json?name=Trade+Show+Leads, read whole in 1 call (1 record)",
    );
    const secret = await mkto.call<Answer>({
      ...visits(undefined),
      join: `${pathOf("1001", "id")}&access_token=x on leadId = id`,
    });
    expect(secret.first).toContain(
      "is refused as query_parameters.access_token: the connection supplies authentication",
    );
    const since = await mkto.call<Answer>({
      ...visits(undefined),
      join: `${pathOf("1001", "id")}&sinceDatetime=2026-01-01 on leadId = id`,
    });
    expect(since.first).toContain(
      "sinceDatetime is not a query parameter of GET /rest/v1/lists/{listId}/leads.json",
    );
    const write = await mkto.call<Answer>({
      method: "POST",
      endpoint: "/rest/v1/lists/1002/leads.json",
      query_parameters: { id: [1] },
      join: "/rest/v1/nothing.json on id = id",
    });
    expect(write.first).toMatch(/^Invalid join: it applies to records read: .*not to a POST/);
  });

  it("reads a path named twice once, its calls counted once (10)", async () => {
    const path = pathOf("1001", "id");
    await mkto.ok(visits(undefined)); // the types' names read once before, as for every call after
    const once = await mkto.ok<Answer>({
      ...visits(`leadId in result("${path}", "id")`),
      count_by: "leadId is empty",
    });
    const thrice = await mkto.ok<Answer>({
      ...visits(`leadId in result("${path}", "id") or leadId not in result("${path}", "id")`),
      join: `${path} on leadId = id`,
      count_by: "leadId is empty",
    });
    expect(thrice.data.calls_used).toBe(once.data.calls_used);
    expect(thrice.first.match(/read whole in/g)).toHaveLength(2); // where's words and join's, one read
  });
});
