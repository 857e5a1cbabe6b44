import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { marketoOverMcp, NO_CALL_WINDOW, runningClock } from "../helpers/marketo-mcp.js";

/**
 * limit on marketo_api_call's reads (issue 27; trial s19, N206: an agent sorted a program's 96 members to
 * find the newest join and read all 96, 25,131 characters). Invariant, over generated where, order_by,
 * count_by and limit on the sandbox through MCP: the answer with limit n is the first n results of the
 * same call without it (the whole of which its kept result holds when the answer is capped), with the same
 * figures (read, matched, groups); the summary says how many there were; a limit that cuts nothing says
 * nothing. A write refuses limit before anything is sent.
 */
interface Answer {
  result: Record<string, unknown>[];
  complete: boolean;
  next_cursor?: string;
  computed?: Record<string, number>;
}

const T0 = Date.UTC(2026, 11, 1, 12);
const mkto = marketoOverMcp(
  {
    leadCount: 1_500,
    seed: 7,
    now: runningClock(T0),
    rateLimit: 1_000_000,
    bulkJobMs: 100,
  },
  undefined,
  NO_CALL_WINDOW,
);

const LIST = {
  method: "GET",
  endpoint: "/rest/v1/lists/1001/leads.json",
  query_parameters: { fields: "id,leadScore,leadSource,createdAt" },
  paginate: true,
};

/** Every result of a call: the answer's own, or, when it links its whole result, the linked pages. */
async function everyResult(args: Record<string, unknown>): Promise<{ rows: unknown[]; data: Answer }> {
  const answer = await mkto.ok<Answer>(args);
  const link = answer.links[0];
  if (!link) return { rows: answer.data.result, data: answer.data };
  const pages = await mkto.pages(link.uri);
  return { rows: pages.flatMap((text) => JSON.parse(text) as unknown[]), data: answer.data };
}

const figures = (data: Answer) => {
  const { before_limit: _cut, ...rest } = data.computed ?? {};
  return rest;
};

describe("limit", () => {
  it("gives the first n results of the same call without it, with the same figures (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(undefined, "leadScore > 40", 'leadSource in ("Website", "Webinar")'),
        fc.constantFrom(undefined, "-leadScore,id", "createdAt,id"),
        fc.constantFrom(undefined, "leadSource", "createdAt:month"),
        fc.integer({ min: 1, max: 900 }),
        async (where, order, count, limit) => {
          const ask = {
            ...LIST,
            ...(where ? { where } : {}),
            // With count_by, order_by sorts the counts: its keys are the count's own.
            ...(count ? (order ? { order_by: "-count" } : {}) : order ? { order_by: order } : {}),
            ...(count ? { count_by: count } : {}),
          };
          const whole = await everyResult(ask);
          const cut = await everyResult({ ...ask, limit });
          expect(cut.rows).toEqual(whole.rows.slice(0, limit));
          // Sorted or counted, the figures are every record's; in read order the read stops once it has the first
          // `limit` (the pages after them are not read), so its figures are of what it read (review s23, finding 6).
          const inOrder = !order && !count;
          if (!inOrder) expect(figures(cut.data)).toEqual(figures(whole.data));
          else
            expect(cut.data.computed?.read ?? 0).toBeLessThanOrEqual(
              whole.data.computed?.read ?? whole.rows.length,
            );
          const answer = await mkto.ok<Answer>({ ...ask, limit });
          // In read order the pages that bring the matches to exactly `limit` end the read: no more is known to
          // match, so nothing was cut, and the answer says where the read stopped (a seed of CI's found it).
          const exactly = inOrder && cut.data.computed?.matched === limit && whole.rows.length > limit;
          if (exactly) {
            expect(cut.data.computed?.before_limit).toBeUndefined();
            expect(answer.first).toContain(
              `the read stopped once limit ${limit.toLocaleString("en-US")} had its records`,
            );
            expect(cut.data.complete).toBe(false);
          } else if (whole.rows.length > limit) {
            const before = inOrder ? (cut.data.computed?.before_limit ?? 0) : whole.rows.length;
            expect(cut.data.computed?.before_limit).toBe(before);
            expect(before).toBeGreaterThan(limit);
            expect(answer.first).toContain(
              `limit ${limit.toLocaleString("en-US")}: the first ${limit.toLocaleString("en-US")} of the ${before.toLocaleString("en-US")} `,
            );
            if (order || count) expect(cut.data.complete).toBe(true);
            else {
              // In read order limit is a page: its cursor continues right after the last record shown (the
              // answer may show fewer than limit, capped by size, and link them all).
              expect(cut.data.complete).toBe(false);
              const shown = answer.data.result.length;
              const next = await everyResult({ ...ask, limit, cursor: cut.data.next_cursor });
              expect(next.rows).toEqual(whole.rows.slice(shown, shown + limit));
              expect(answer.first).toContain(
                "to continue after the records shown, call again with cursor = next_cursor",
              );
            }
            // Capped by size, the answer shows fewer than limit and links them all; 100 or more shown whole are
            // linked too (a later where's in result(…) takes them).
            if (answer.links.length > 0 && answer.data.result.length < limit)
              expect(answer.first).toMatch(/ are the result; the first [\d,]+ /);
            else if (answer.links.length > 0)
              expect(answer.first).toContain("shown here and in the full result linked below");
          } else {
            expect(cut.data.computed?.before_limit).toBeUndefined();
            expect(answer.first).not.toContain("limit ");
          }
        },
      ),
      { numRuns: 8 },
    );
  }, 120_000);

  it("alone, lists the first n records read, and says so", async () => {
    const { data, first } = await mkto.ok<Answer>({ ...LIST, limit: 5 });
    expect(data.result).toHaveLength(5);
    expect(first).toMatch(/limit 5: the first 5 of the [\d,]+ records in read order are shown here/);
    // With paginate, one page holds the first 5: the four after it are not read (review s23, finding 6).
    expect(data.computed?.read).toBe(300);
  });

  it("without paginate, pages through the one page and on, as the words say (review s22, findings 2 and 4)", async () => {
    const ask = { ...LIST, paginate: false, limit: 3, max_pages: 2 };
    const page = (await mkto.ok<Answer>({ ...LIST, paginate: false })).data.result;
    const first = await mkto.ok<Answer>(ask);
    expect(first.data.result).toEqual(page.slice(0, 3));
    // The first 3 are in the first page: nothing to raise, no paginate to give (review s23, finding 6).
    expect(first.first).toContain("the read stopped once limit 3 had its records");
    expect(first.first).not.toContain("raise max_pages");
    expect(first.first).not.toContain("give paginate true");
    expect(first.first).toContain(
      "to continue after the records shown, call again with cursor = next_cursor",
    );
    const next = await mkto.ok<Answer>({ ...ask, cursor: first.data.next_cursor });
    expect(next.data.result).toEqual(page.slice(3, 6));
    const every = await mkto.ok<Answer>({ ...LIST, limit: 1_250, max_pages: 20 });
    expect(every.data.computed?.read).toBe(1_250);
  });

  it("says what a linked result or export file holds: only what limit kept (review s22, findings 3 and 4)", async () => {
    const sorted = await mkto.ok<Answer>({ ...LIST, order_by: "-leadScore,id", limit: 900 });
    expect(sorted.text).toContain(
      "Full result: all 900 records (kept by the call's where or limit, of 1,250 read), at ",
    );
    // Its pages, and ?page=all for all at once, which reads the 900 (trial s31, N438).
    // Two pages say "?page=2" alone; more, "?page=2 … ?page=<last>".
    const pages = /in (\d+) pages \(add \?page=2(?: … \?page=\1)?, or \?page=all for all at once\)/.exec(
      sorted.text,
    );
    expect(Number(pages?.[1])).toBeGreaterThan(1);
    const json = sorted.links.find((l) => l.mimeType === "application/json")?.uri ?? "";
    expect(JSON.parse(await mkto.whole(`${json}?page=all`))).toHaveLength(900);
    const exported = await mkto.ok<Answer>({
      method: "POST",
      endpoint: "/bulk/v1/leads/export/create.json",
      body: {
        fields: ["id", "email", "leadScore"],
        format: "CSV",
        filter: { createdAt: { startAt: "2026-08-01T00:00:00Z", endAt: "2026-08-31T00:00:00Z" } },
      },
      run_to_completion: true,
      limit: 5,
    });
    expect(exported.data.result).toHaveLength(5);
    const rows = exported.data.computed?.read ?? 0;
    expect(rows).toBeGreaterThan(5);
    expect(exported.first).toContain(
      `limit 5: the first 5 of the ${rows} rows in read order are shown here and in the file linked below, which holds only those 5`,
    );
    expect(exported.first).not.toContain("then every row");
    expect(exported.text).toContain(
      `Export file: all 5 records (kept by the call's where or limit, of ${rows} read) as one CSV`,
    );
    const file = await mkto.whole(exported.links.find((l) => l.uri.includes(".csv"))?.uri ?? "");
    expect(file.trim().split("\n")).toHaveLength(6);
  });

  it("keeps only limit's results, which a later where takes as those: a top 25 is 25 (review s47, finding 2)", async () => {
    const top = await mkto.ok<Answer>({ ...LIST, order_by: "-leadScore,id", limit: 25 });
    const link = top.links.find((l) => l.mimeType === "application/json")?.uri ?? "";
    expect(JSON.parse(await mkto.whole(`${link}?page=all`))).toHaveLength(25);
    const used = await mkto.ok<Answer>({
      ...LIST,
      where: `id in result("${link}")`,
      count_by: "id is empty",
    });
    expect(used.data.computed?.matched).toBe(25);
  });

  it("says how the rest is had where no cursor continues it: a read per id (review s23, finding 7)", async () => {
    const ask = {
      method: "GET",
      endpoint: "/rest/v1/leads/programs/{programId}.json",
      query_parameters: { programId: [1001, 1002, 1003], fields: "id,email" },
    };
    const cut = await mkto.ok<Answer>({ ...ask, limit: 3 });
    expect(cut.data.result).toHaveLength(3);
    expect(cut.data.next_cursor).toBeUndefined();
    expect(cut.first).toContain("(raise limit, or leave it out, for the rest)");
    // Doing what it says: without limit every record is had.
    const all = await mkto.ok<Answer>(ask);
    expect(all.data.computed?.read ?? all.data.result.length).toBeGreaterThan(3);
  });

  it("is refused on a write, with an example of a read that takes it", async () => {
    const { result, first } = await mkto.call<Answer>({
      method: "POST",
      endpoint: "/rest/v1/lists/1001/leads.json",
      body: { input: [{ id: 1 }] },
      limit: 10,
    });
    expect(result.isError).toBe(true);
    expect(first).toContain("limit");
    expect(first).toContain("limit 10");
    // Doing what it says: the read it names takes limit.
    const read = await mkto.ok<Answer>({ ...LIST, limit: 10 });
    expect(read.data.result).toHaveLength(10);
  });
});
