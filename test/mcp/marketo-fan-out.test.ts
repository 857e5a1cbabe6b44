import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { marketoOverMcp, NO_CALL_WINDOW, runningClock } from "../helpers/marketo-mcp.js";

/**
 * One marketo_api_call reads an endpoint with a {placeholder} once per id of a list (issue 27; trial s7's
 * N18 and N21 spent 95 of 144 calls reading programs one by one), through MCP on the sandbox. The truth is
 * each id's single call: the joined records equal them, count_by over them adds up to them, an id Marketo
 * does not have is reported and the others kept, and what cannot be read so is refused before any call.
 */
interface Answer {
  result: Record<string, unknown>[];
  complete: boolean;
  calls_used: number;
  computed?: { read: number; matched: number; groups?: number };
}

const T0 = Date.UTC(2026, 11, 1, 12);
// Reads are many here: lift the rate limits (the sandbox's and the step's own) so no run waits 20 s.
const mkto = marketoOverMcp(
  { leadCount: 2_000, seed: 7, now: runningClock(T0), rateLimit: 1_000_000 },
  undefined,
  NO_CALL_WINDOW,
);
const ok = (args: Record<string, unknown>) => mkto.ok<Answer>(args);

const PROGRAM = "/rest/asset/v1/program/{id}.json";
const MEMBERS = "/rest/v1/leads/programs/{programId}.json";
const PROGRAM_IDS = Array.from({ length: 30 }, (_, i) => 1001 + i);

const single = async (endpoint: string, query: Record<string, unknown> = {}) =>
  (await ok({ method: "GET", endpoint, query_parameters: query, paginate: true })).data.result;

describe("an endpoint read once per id", () => {
  it("gives the records of each id's single call, in the order of the ids, one call each", async () => {
    await fc.assert(
      fc.asyncProperty(fc.subarray(PROGRAM_IDS, { minLength: 1, maxLength: 5 }), async (ids) => {
        const { data, first } = await ok({ method: "GET", endpoint: PROGRAM, query_parameters: { id: ids } });
        const singles = [];
        for (const id of ids) singles.push(...(await single(`/rest/asset/v1/program/${id}.json`)));
        expect(data.result).toEqual(singles);
        expect(data.calls_used).toBe(ids.length);
        expect(first).toContain(
          `${ids.length} program${ids.length === 1 ? "" : "s"} read, ${ids.length} record${ids.length === 1 ? "" : "s"}, ${ids.length} call`,
        );
      }),
      { numRuns: 5 },
    );
  });

  it("counts members by programId to the single calls' totals", async () => {
    const ids = [1001, 1004, 1007, 1012];
    const { data, first } = await ok({
      method: "GET",
      endpoint: MEMBERS,
      query_parameters: { programId: ids, fields: "id,email" },
      paginate: true,
      count_by: "programId",
    });
    // Each program's total from its own call (computed.read: a member list can be more than an answer shows).
    const totals = new Map<number, number>();
    for (const id of ids) {
      const one = await ok({
        method: "GET",
        endpoint: `/rest/v1/leads/programs/${id}.json`,
        query_parameters: { fields: "id,email" },
        paginate: true,
        where: "id > 0",
      });
      totals.set(id, one.data.computed?.read ?? -1);
    }
    const counted = new Map(data.result.map((row) => [row.programId as number, row.count as number]));
    for (const [id, total] of totals) expect(counted.get(id) ?? 0, `program ${id}`).toBe(total);
    const all = [...totals.values()].reduce((a, b) => a + b, 0);
    expect(all).toBeGreaterThan(0);
    expect(data.computed?.read).toBe(all);
    expect(first).toContain(`4 programs read, ${all.toLocaleString("en-US")} records`);
  });

  it("reads ids given comma-separated as the list, and its head counts every call, the naming one too (review s33)", async () => {
    const asList = await ok({
      method: "GET",
      endpoint: MEMBERS,
      query_parameters: { programId: [1001, 1004], fields: "id,email" },
      paginate: true,
      count_by: "programId",
    });
    const asText = await ok({
      method: "GET",
      endpoint: MEMBERS,
      query_parameters: { programId: "1001, 1004", fields: "id,email" },
      paginate: true,
      count_by: "programId",
    });
    expect(asText.data.result).toEqual(asList.data.result);
    // Two reads and the call that names the programs counted: the head says what calls_used says.
    expect(asText.data.calls_used).toBe(3);
    expect(asText.first).toContain("2 programs read");
    expect(asText.first).toContain(`, ${asText.data.calls_used} calls`);
  });

  it("counts 0 for a program read with no matching member, and names none Marketo lacks", async () => {
    const { data, first } = await ok({
      method: "GET",
      endpoint: MEMBERS,
      query_parameters: { programId: [1003, 9999, 1005], fields: "id" },
      paginate: true,
      where: "id < 0",
      count_by: "programId",
    });
    // Each program named beside its id (id-names.ts), the zero rows too.
    expect(data.result).toEqual([
      { programId: 1003, programName: "Event Program 03", count: 0, percent: 0 },
      { programId: 1005, programName: "Webinar Program 05", count: 0, percent: 0 },
    ]);
    // Said as ids of the request no matching record has (trial s10, N74 read "asked for" as values it never asked).
    expect(first).toContain(
      '2 programId values named in the request that no matching record has, counted 0 ("1003", "1005")',
    );
  });

  it("reports an id Marketo does not have and keeps the others, counting every call sent", async () => {
    mkto.fixture.sandbox.resetStats();
    const members = await ok({
      method: "GET",
      endpoint: MEMBERS,
      query_parameters: { programId: [1002, 9999, 1003], fields: "id" },
      paginate: true,
    });
    expect(members.data.calls_used).toBe(mkto.fixture.sandbox.stats().apiCalls);
    const want = [
      ...(await single("/rest/v1/leads/programs/1002.json", { fields: "id" })).map((r) => ({
        ...r,
        programId: 1002,
      })),
      ...(await single("/rest/v1/leads/programs/1003.json", { fields: "id" })).map((r) => ({
        ...r,
        programId: 1003,
      })),
    ];
    expect(members.data.calls_used).toBe(3);
    expect(members.data.result).toEqual(want);
    expect(members.first).toContain("id 9999: not found (1013)");
    mkto.fixture.sandbox.resetStats();
    const programs = await ok({
      method: "GET",
      endpoint: PROGRAM,
      query_parameters: { id: [1005, 8888, 7777] },
    });
    expect(programs.data.result.map((r) => r.id)).toEqual([1005]);
    expect(programs.data.calls_used).toBe(mkto.fixture.sandbox.stats().apiCalls);
    expect(programs.data.calls_used).toBe(3);
    expect(programs.first).toMatch(/ids 8888, 7777: No assets found/);
  });

  it("stops at max_items over the whole, and says so and what to raise", async () => {
    const { data, first } = await ok({
      method: "GET",
      endpoint: MEMBERS,
      query_parameters: { programId: [1002, 1001, 1003], fields: "id" },
      paginate: true,
      max_items: 100,
      count_by: "programId",
    });
    expect(data.computed?.read).toBe(100);
    expect(data.complete).toBe(false);
    expect(first).toContain("raise max_items");
    // max_items counts what is read, not the counts wanted (trial s9, N47).
    expect(first).toContain("(max_items counts records read before count_by, not results): raise max_items");
    expect(first).not.toContain("did not cut");
    // Said before the figures (trial s8, N35), and no program whose members were left out reads as 0 (review).
    expect(first.indexOf("max_items 100 stopped the read")).toBeLessThan(
      first.indexOf("counted by programId"),
    );
    const sizes = new Map<number, number>();
    for (const id of [1002, 1001, 1003])
      sizes.set(id, (await single(MEMBERS.replace("{programId}", String(id)), { fields: "id" })).length);
    for (const row of data.result) if (row.count === 0) expect(sizes.get(Number(row.programId))).toBe(0);
    expect(data.result.reduce((sum, row) => sum + Number(row.count), 0)).toBe(100);
  });

  it('reads an id given twice once, 1005 and "1005" alike, and gives no row to a program Marketo lacks', async () => {
    mkto.fixture.sandbox.resetStats();
    const { data } = await ok({
      method: "GET",
      endpoint: PROGRAM,
      query_parameters: { id: [1005, "1005", 8888] },
      count_by: "id",
    });
    expect(mkto.fixture.sandbox.stats().apiCalls).toBe(2);
    expect(data.result).toEqual([{ id: 1005, count: 1, percent: 100 }]);
  });

  it("counts a list's members by hour in a time zone, with no other date in the call", async () => {
    const { data, first } = await ok({
      method: "GET",
      endpoint: "/rest/v1/lists/{listId}/leads.json",
      query_parameters: { listId: [1002], fields: "id,createdAt" },
      paginate: true,
      time_zone: "America/New_York",
      count_by: "createdAt:hour",
    });
    expect(data.result).toHaveLength(24);
    expect(first).toContain("America/New_York");
  });

  it("is an error when no id gives records", async () => {
    const { result, first } = await mkto.call({
      method: "GET",
      endpoint: MEMBERS,
      query_parameters: { programId: [9998, 9999] },
    });
    expect(result.isError).toBe(true);
    expect(first).toContain("ids 9998, 9999: not found (1013)");
  });

  it("gives Marketo's own error and advice when it refuses every id the same way, not 'check the ids'", async () => {
    // Get Program Members takes a filterType (Adobe: programs members "Query"); sent without one.
    const { result, first, text } = await mkto.call({
      method: "GET",
      endpoint: "/rest/v1/programs/{programId}/members.json",
      query_parameters: { programId: [1001, 1005], fields: "leadId,reachedSuccess" },
    });
    expect(result.isError).toBe(true);
    expect(first).toMatch(/for every id the same way: .*filterType/);
    expect(text).not.toContain("Check the ids");
  });

  it("says a real endpoint the sandbox does not serve is that, read per id, not 'check the ids' (trial s23, N294)", async () => {
    const endpoint = "/rest/asset/v1/landingPage/{id}/variables.json";
    const { result, first, text } = await mkto.call({
      method: "GET",
      endpoint,
      query_parameters: { id: [1001, 1002] },
    });
    expect(result.isError).toBe(true);
    expect(first).toContain(`${endpoint} is a real Marketo endpoint that this sandbox does not emulate`);
    expect(first).toContain("call it on a real Marketo instance");
    expect(text).not.toContain("Check the ids");
  });

  it("says a status no asset has a version of may be why, and doing what it says reads them (trial s26, N341)", async () => {
    const listed = await mkto.call({
      method: "GET",
      endpoint: "/rest/asset/v1/emails.json",
      query_parameters: { maxReturn: 200 },
    });
    const drafts = (
      (listed.result.structuredContent as { result: { id: number; status: string }[] }).result ?? []
    )
      .filter((email) => email.status === "draft")
      .map((email) => email.id)
      .slice(0, 3);
    expect(drafts.length).toBeGreaterThan(1);
    const approved = await mkto.call({
      method: "GET",
      endpoint: "/rest/asset/v1/email/{id}.json",
      query_parameters: { id: drafts, status: "approved" },
    });
    expect(approved.result.isError).toBe(true);
    expect(approved.first).toContain(
      "an asset that has no approved version answers the same: read it with status draft",
    );
    expect(approved.first).not.toContain("..");
    const draft = await mkto.call({
      method: "GET",
      endpoint: "/rest/asset/v1/email/{id}.json",
      query_parameters: { id: drafts, status: "draft" },
    });
    expect(draft.result.isError, draft.first).toBeFalsy();
    // Some ids with an approved version and some without: the summary says why those gave none (review s30, 12).
    const live = (
      (listed.result.structuredContent as { result: { id: number; status: string }[] }).result ?? []
    )
      .filter((email) => email.status === "approved")
      .map((email) => email.id)
      .slice(0, 2);
    expect(live.length).toBeGreaterThan(0);
    const mixed = await mkto.call({
      method: "GET",
      endpoint: "/rest/asset/v1/email/{id}.json",
      query_parameters: { id: [...live, ...drafts], status: "approved" },
    });
    expect(mixed.result.isError, mixed.first).toBeFalsy();
    expect(mixed.first).toContain(
      "; with status approved, an asset that has no approved version answers the same: read it with status draft",
    );
    expect(mixed.first).not.toContain("..");
  });

  it("says a mistyped path is no endpoint, with the nearest one, and doing what it says reads (review s27, 12)", async () => {
    mkto.fixture.sandbox.resetStats();
    const mistyped = await mkto.call({
      method: "GET",
      endpoint: "/rest/asset/v1/emailTemplate/{id}/usedBy.json",
      query_parameters: { id: Array.from({ length: 40 }, (_, i) => 1001 + i) },
    });
    expect(mistyped.result.isError).toBe(true);
    // Said after the first calls, not one per id (review s29, finding 12).
    expect(mkto.fixture.sandbox.stats().apiCalls).toBeLessThan(10);
    expect(mistyped.text).not.toContain("Check the ids");
    const near = /did you mean (\S+)\?/.exec(mistyped.first)?.[1];
    expect(near).toBe("/rest/asset/v1/emailTemplates/{id}/usedBy.json");
    const right = await mkto.call({ method: "GET", endpoint: near, query_parameters: { id: [1001, 1002] } });
    expect(right.result.isError, right.first).toBeFalsy();
  });
});

describe("refusals, before anything is sent", () => {
  const refused = async (args: Record<string, unknown>, field: string, words: RegExp) => {
    mkto.fixture.sandbox.resetStats();
    const { result, first } = await mkto.call(args);
    expect(result.isError, first).toBe(true);
    expect(first).toContain(`Invalid ${field}:`);
    expect(first).toMatch(words);
    expect(mkto.fixture.sandbox.stats().apiCalls).toBe(0);
  };

  it("refuses a write", () =>
    refused(
      { method: "POST", endpoint: "/rest/asset/v1/program/{id}.json", query_parameters: { id: [1001] } },
      "method",
      /GET only/,
    ));

  it("refuses 201 ids, saying the limit and what to do", () =>
    refused(
      {
        method: "GET",
        endpoint: PROGRAM,
        query_parameters: { id: Array.from({ length: 201 }, (_, i) => i + 1) },
      },
      "query_parameters.id",
      /more than the 200.*Split the ids/s,
    ));

  it("refuses a value that is not an id", async () => {
    await refused(
      { method: "GET", endpoint: PROGRAM, query_parameters: { id: [1001, "../lists"] } },
      "query_parameters.id[1]",
      /not an id/,
    );
    await refused(
      { method: "GET", endpoint: PROGRAM, query_parameters: { id: ["1001.json"] } },
      "query_parameters.id[0]",
      /not an id/,
    );
    await refused(
      { method: "GET", endpoint: PROGRAM, query_parameters: { id: [-3] } },
      "query_parameters.id[0]",
      /not an id/,
    );
  });

  it("refuses a placeholder with no list, and a list for a path parameter with no placeholder", async () => {
    await refused(
      { method: "GET", endpoint: MEMBERS, query_parameters: { id: [1001] } },
      "query_parameters",
      /give query_parameters\.programId the list/,
    );
    await refused(
      { method: "GET", endpoint: "/rest/asset/v1/program/1001.json", query_parameters: { id: [1001, 1002] } },
      "endpoint",
      /put \{id\} in the endpoint/,
    );
  });

  it("refuses an empty list, and reads a single id given without a list", async () => {
    await refused(
      { method: "GET", endpoint: PROGRAM, query_parameters: { id: [] } },
      "query_parameters.id",
      /the list is empty/,
    );
    const one = await ok({ method: "GET", endpoint: PROGRAM, query_parameters: { id: 1003 } });
    expect(one.data.result.map((r) => r.id)).toEqual([1003]);
  });

  it("refuses two placeholders", () =>
    refused(
      {
        method: "GET",
        endpoint: "/rest/v1/lists/{listId}/leads/{id}.json",
        query_parameters: { listId: [1], id: [2] },
      },
      "endpoint",
      /one call fills one/,
    ));
});

describe("the recipes resource's per-program recipes", () => {
  const recipe = async (task: string): Promise<Record<string, unknown>> => {
    const { contents } = await mkto.session.client.readResource({ uri: "martech-steps://recipes/marketo" });
    const { computed } = JSON.parse((contents[0] as { text: string }).text) as {
      computed: { task: string; call: Record<string, unknown> }[];
    };
    const found = computed.find((r) => r.task.startsWith(task));
    expect(found, task).toBeDefined();
    return found?.call ?? {};
  };

  it("reads several programs with their costs in one call", async () => {
    const call = await recipe("several programs with their period costs");
    mkto.fixture.sandbox.resetStats();
    const { data } = await ok(call);
    const ids = (call.query_parameters as { id: number[] }).id;
    expect(data.result.map((r) => r.id)).toEqual(ids);
    for (const program of data.result) expect(Array.isArray(program.costs)).toBe(true);
    expect(mkto.fixture.sandbox.stats().apiCalls).toBe(ids.length);
  });

  it("ranks programs by spend in one call, each sum its single read's period costs added", async () => {
    const call = await recipe("spend per program");
    const ids = PROGRAM_IDS;
    const want = new Map<number, number>();
    for (const id of ids) {
      const [program] = await single(`/rest/asset/v1/program/${id}.json`);
      const costs = (program?.costs ?? []) as { cost: number; startDate: string }[];
      for (const { startDate } of costs) expect(startDate).toMatch(/^\d{4}-\d{2}-01T00:00:00Z\+0000$/);
      want.set(
        id,
        costs.reduce((sum, { cost }) => sum + cost, 0),
      );
    }
    // The sandbox seeds costs on some programs, none on others: both are in the ranking.
    expect([...want.values()].filter((sum) => sum > 0).length).toBeGreaterThan(2);
    expect([...want.values()]).toContain(0);
    mkto.fixture.sandbox.resetStats();
    const { data, first } = await ok({ ...call, query_parameters: { id: ids } });
    expect(mkto.fixture.sandbox.stats().apiCalls).toBe(ids.length);
    expect(new Map(data.result.map((row) => [Number(row.id), row.sum]))).toEqual(want);
    const sums = data.result.map((row) => Number(row.sum));
    expect(sums).toEqual([...sums].sort((a, b) => b - a));
    const total = [...want.values()].reduce((a, b) => a + b, 0);
    expect(first).toContain(`${total.toLocaleString("en-US")} in all`);
  });

  it("counts the leads on each list that cannot be emailed, each count its single read's", async () => {
    const call = await recipe("leads on each static list that cannot be emailed");
    const query = call.query_parameters as { listId: number[]; fields: string };
    const want = new Map<number, number | undefined>();
    for (const id of query.listId) {
      // The same where on each list's own read (every page; the answer itself is capped by size).
      const { data } = await ok({
        method: "GET",
        endpoint: `/rest/v1/lists/${id}/leads.json`,
        query_parameters: { fields: query.fields },
        paginate: true,
        where: call.where,
      });
      expect(data.complete).toBe(true);
      want.set(id, data.computed?.matched);
    }
    expect([...want.values()].some((count) => (count ?? 0) > 0)).toBe(true);
    const { data } = await ok(call);
    expect(new Map(data.result.map((row) => [Number(row.listId), row.count]))).toEqual(want);
  });

  it("counts members per program, ranked, and by status and success as its note says", async () => {
    const call = await recipe("members per program");
    const { data } = await ok(call);
    const counts = data.result.map((row) => row.count as number);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const byStatus = await ok({ ...call, count_by: "programId,membership.progressionStatus" });
    expect(byStatus.data.computed?.read).toBe(data.computed?.read);
    expect(byStatus.data.result.reduce((sum, row) => sum + (row.count as number), 0)).toBe(
      data.computed?.read,
    );
    const success = await ok({ ...call, where: "membership.reachedSuccess = true" });
    expect(success.data.computed?.matched).toBeGreaterThan(0);
    expect(success.data.computed?.matched).toBeLessThan(data.computed?.read ?? 0);
    expect(success.data.computed?.matched).toBe(
      success.data.result.reduce((sum, row) => sum + (row.count as number), 0),
    );
    // A member's own fields, as the note says, from Get Program Members (trial s40, N576: 1006 on this read).
    const members = await ok({
      method: "GET",
      endpoint: "/rest/v1/programs/{programId}/members.json",
      query_parameters: {
        programId: [1001],
        filterType: "reachedSuccess",
        filterValues: "true,false",
        fields: "leadId,membershipDate,myCustomField",
      },
      paginate: true,
    });
    const per1001 = data.result.find((row) => Number(row.programId) === 1001)?.count;
    expect(members.data.computed?.read ?? members.data.result.length).toBe(per1001);
    expect(Object.keys(members.data.result[0] ?? {})).toEqual(
      expect.arrayContaining(["leadId", "membershipDate", "myCustomField"]),
    );
  });
});
