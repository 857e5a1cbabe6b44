import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildDataSet } from "../../src/sandbox/marketo/seed.js";
import { marketoOverMcp, NO_CALL_WINDOW, runningClock } from "../helpers/marketo-mcp.js";

/**
 * where, order_by and count_by on marketo_api_call's paged REST reads (issue 27 §1), through MCP on the
 * sandbox. The truth is the sandbox's own data set (same seed, same clock): static list 1001's members in
 * id order. Properties: where with paging and cursors = where on the whole list; count_by's counts add up
 * to the total and equal the list's own tally; order_by sorts the same records. Each instruction the
 * summaries give (call again with the cursor, raise max_pages) is done here.
 */
interface Answer {
  result: Record<string, unknown>[];
  complete: boolean;
  next_cursor?: string;
  calls_used: number;
  computed?: { read: number; matched: number; groups?: number };
}

// The data set is built at the sandbox's first reading of its clock: this clock starts at T0 there.
const T0 = Date.UTC(2026, 11, 1, 12);
const SEED = 42;
const LEADS = 5_000;
const world = buildDataSet({ leadCount: LEADS, seed: SEED, now: T0 });
const members = [...(world.lists.find((list) => list.id === 1001)?.members ?? [])]
  .sort((a, b) => a - b)
  .map((id) => world.leads.get(id))
  .filter((lead) => lead !== undefined);

// A fast-check run reads the list several times: lift the rate limit so no run waits 20 s.
const mkto = marketoOverMcp(
  { leadCount: LEADS, seed: SEED, now: runningClock(T0), rateLimit: 1_000_000 },
  undefined,
  NO_CALL_WINDOW,
);
const run = (args: Record<string, unknown>) => mkto.call<Answer>(args);
const ok = (args: Record<string, unknown>) => mkto.ok<Answer>(args);

const LIST = {
  method: "GET",
  endpoint: "/rest/v1/lists/1001/leads.json",
  query_parameters: { fields: "id,leadScore,leadSource" },
  paginate: true,
};

it("the list has the members the tests read", () => {
  expect(members.length).toBeGreaterThan(1_200);
});

describe("where on a paged read", () => {
  it("states the figures, keeps only matching records, and refuses an unknown field naming the records' fields", async () => {
    const { text, data } = await ok({ ...LIST, where: 'leadScore > 100 and leadSource != "Webinar"' });
    const want = members.filter((l) => Number(l.leadScore) > 100 && l.leadSource !== "Webinar");
    expect(data.result.map((r) => r.id)).toEqual(want.map((l) => l.id));
    expect(data.computed).toEqual({ read: members.length, matched: want.length });
    expect(text).toContain(
      `where leadScore > 100 and leadSource != "Webinar": ${want.length.toLocaleString("en-US")} of ${members.length.toLocaleString("en-US")} records match`,
    );
    const wrong = await run({ ...LIST, where: "leadScroe > 100" });
    expect(wrong.result.isError).toBe(true);
    expect(wrong.text).toMatch(/leadScroe/);
    expect(wrong.text).toMatch(/leadScore/);
  });

  it("keeps exactly the matching records, in read order, in the full result it links", async () => {
    const fields = "id,leadScore,email,firstName,lastName,company,title,city";
    const { links, data } = await ok({
      ...LIST,
      query_parameters: { fields, batchSize: 300 },
      where: "leadScore > 20",
    });
    const want = members.filter((l) => Number(l.leadScore) > 20).map((l) => l.id);
    expect(data.result.length).toBeLessThan(want.length);
    const link = links.find((l) => l.mimeType === "application/json");
    const kept = (await mkto.pages(link?.uri ?? "")).flatMap((text) => JSON.parse(text) as { id: number }[]);
    expect(kept.map((r) => r.id)).toEqual(want);
  });

  it("is refused on a write, before anything is sent", async () => {
    mkto.fixture.sandbox.resetStats();
    const { result, text } = await run({
      method: "POST",
      endpoint: "/rest/v1/lists/1001/leads.json",
      body: { input: [{ id: 1 }] },
      where: "leadScore > 5",
    });
    expect(result.isError).toBe(true);
    expect(text).toContain("Invalid where");
    expect(mkto.fixture.sandbox.stats().apiCalls).toBe(0);
  });

  it("with paging and cursors, gives what where gives on the whole list, each record once (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 120 }),
        fc.integer({ min: 150, max: 300 }),
        fc.integer({ min: 1, max: 3 }),
        async (score, batchSize, maxPages) => {
          const args = {
            ...LIST,
            // Wide records, so an answer (45 KB) holds fewer than the pages read: the cursor continues
            // after the last record shown, in the middle of a page.
            query_parameters: {
              fields: "id,leadScore,email,firstName,lastName,company,title,city",
              batchSize,
            },
            max_pages: maxPages,
            where: `leadScore >= ${score}`,
          };
          const seen: unknown[] = [];
          let answer = (await ok(args)).data;
          seen.push(...answer.result.map((r) => r.id));
          for (let turn = 0; answer.next_cursor && turn < 50; turn += 1) {
            answer = (await ok({ ...args, cursor: answer.next_cursor })).data;
            seen.push(...answer.result.map((r) => r.id));
          }
          expect(answer.next_cursor).toBeUndefined();
          expect(seen).toEqual(members.filter((l) => Number(l.leadScore) >= score).map((l) => l.id));
        },
      ),
      { seed: 2027, numRuns: 6 },
    );
  });
});

describe("count_by and order_by on a paged read", () => {
  it("counts per value over every record read: the counts add up to the total (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 121 }), async (score) => {
        const { data, text } = await ok({
          ...LIST,
          query_parameters: { ...LIST.query_parameters, batchSize: 300 },
          where: `leadScore < ${score}`,
          count_by: "leadSource",
        });
        const want = new Map<string, number>();
        for (const lead of members.filter((l) => Number(l.leadScore) < score)) {
          const key = String(lead.leadSource ?? null);
          want.set(key, (want.get(key) ?? 0) + 1);
        }
        const got = new Map(data.result.map((row) => [String(row.leadSource), Number(row.count)]));
        expect(got).toEqual(want);
        const total = [...got.values()].reduce((sum, count) => sum + count, 0);
        expect(data.computed?.matched).toBe(total);
        expect(data.computed?.groups).toBe(got.size);
        expect(data.computed?.read).toBe(members.length);
        // Most frequent first.
        const counts = data.result.map((row) => Number(row.count));
        expect(counts).toEqual([...counts].sort((a, b) => b - a));
        if (total > 0) expect(text).toContain(`the counts add up to ${total.toLocaleString("en-US")}`);
      }),
      { seed: 27, numRuns: 5 },
    );
  });

  it("sorts by several keys, descending with -", async () => {
    const { data, text } = await ok({ ...LIST, where: "leadScore >= 110", order_by: ["-leadScore", "id"] });
    const want = members
      .filter((l) => Number(l.leadScore) >= 110)
      .sort((a, b) => Number(b.leadScore) - Number(a.leadScore) || a.id - b.id);
    expect(data.result.map((r) => [r.id, r.leadScore])).toEqual(want.map((l) => [l.id, l.leadScore]));
    expect(text).toContain("sorted by leadScore descending, then id ascending");
    // The names other tools use (filter as text, sort) are taken as where and order_by.
    const aliased = await ok({ ...LIST, filter: "leadScore >= 110", sort: "-leadScore,id" });
    expect(aliased.data.result).toEqual(data.result);
  });

  it.each([
    ["order_by", "-leadScor"],
    ["count_by", "lead_source"],
  ])("refuses an unknown %s field, naming the fields the records have", async (field, value) => {
    const { result, text } = await run({ ...LIST, [field]: value });
    expect(result.isError).toBe(true);
    expect(text).toContain(`Invalid ${field}`);
    expect(text).toContain(value.replace("-", ""));
    expect(text).toMatch(/leadScore/);
    expect(text).toMatch(/leadSource/);
  });

  it("says when max_pages stopped the count, and raising max_pages as it says covers every record", async () => {
    const args = {
      ...LIST,
      query_parameters: { ...LIST.query_parameters, batchSize: 100 },
      max_pages: 2,
      count_by: "leadSource",
    };
    const first = await ok(args);
    expect(first.data.computed?.read).toBe(200);
    const raise = /raise max_pages \(at most (\d+)\)/.exec(first.text);
    expect(raise, first.text).not.toBeNull();
    // Said before the figures, not after them (trial s8, N35: the count first read as the whole answer).
    const stop = first.text.indexOf("the read stopped at max_pages");
    expect(stop, first.text).toBeGreaterThanOrEqual(0);
    expect(stop, first.text).toBeLessThan(first.text.indexOf("counted by leadSource"));
    expect(first.text).toContain("the figures below cover only the records read");
    const again = await ok({ ...args, max_pages: Number(raise?.[1]) });
    expect(again.data.complete).toBe(true);
    expect(again.data.computed?.read).toBe(members.length);
  });
});
