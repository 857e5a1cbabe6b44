import { describe, expect, it } from "vitest";
import { buildDataSet } from "../../src/sandbox/marketo/seed.js";
import { marketoOverMcp, runningClock } from "../helpers/marketo-mcp.js";

/**
 * max_items caps the records a read reads, plain reads (no paginate) included, and says so (agent trial s9):
 * N52 gave max_items 2 to a plain read to see a program's member fields and got all 91 records, as it
 * applied only with paginate or files; N47 took it for the results wanted and cut a filtered read at 15
 * source rows. The truth is the sandbox's data set (same seed and clock): a static list's members in id order.
 */
interface Answer {
  result: Record<string, unknown>[];
  complete: boolean;
  next_cursor?: string;
  computed?: { read: number; matched: number };
}

const T0 = Date.UTC(2026, 11, 1, 12);
const SEED = 42;
const LEADS = 400;
const world = buildDataSet({ leadCount: LEADS, seed: SEED, now: T0 });
const membersOf = (list: number) =>
  [...(world.lists.find((l) => l.id === list)?.members ?? [])]
    .sort((a, b) => a - b)
    .map((id) => world.leads.get(id))
    .filter((lead) => lead !== undefined);

const mkto = marketoOverMcp({
  leadCount: LEADS,
  seed: SEED,
  now: runningClock(T0),
  rateLimit: 1_000_000,
  bulkJobMs: 20,
});

const listRead = (list: number, extra: Record<string, unknown> = {}) => ({
  method: "GET",
  endpoint: `/rest/v1/lists/${list}/leads.json`,
  query_parameters: { fields: "id,leadScore,leadSource" },
  ...extra,
});
const ids = (answer: { data: Answer }) => answer.data.result.map((record) => record.id);

describe("max_items on a plain read (no paginate)", () => {
  // List 1005 fits one page (under Marketo's 300); list 1001 does not.
  const small = membersOf(1005);
  const large = membersOf(1001);

  it("the lists hold what the tests read", () => {
    expect(small.length).toBeGreaterThan(10);
    expect(small.length).toBeLessThan(300);
    expect(large.length).toBeGreaterThan(300);
  });

  it("keeps the first N records, says it kept N of the page's M, and both ways on it says give the rest", async () => {
    const cut = await mkto.ok<Answer>(listRead(1005, { max_items: 2 }));
    expect(ids(cut)).toEqual(small.slice(0, 2).map((lead) => lead.id));
    expect(cut.data.complete).toBe(false);
    expect(cut.first).toContain(
      `max_items 2 kept the first 2 of the ${small.length} records Marketo's page returned (max_items caps records read, not the results wanted): leave max_items out to get all ${small.length}`,
    );
    expect(cut.first).not.toContain("paginate true");
    // Done as it says: without max_items, all of them.
    const all = await mkto.ok<Answer>(listRead(1005));
    expect(ids(all)).toEqual(small.map((lead) => lead.id));
    expect(all.data.complete).toBe(true);
    // Or on by the cursor, two at a time, from the third.
    const on = await mkto.ok<Answer>(listRead(1005, { max_items: 2, cursor: cut.data.next_cursor }));
    expect(ids(on)).toEqual(small.slice(2, 4).map((lead) => lead.id));
  });

  it("names paginate for the pages after a cut page, and cuts nothing when the page holds fewer", async () => {
    const cut = await mkto.ok<Answer>(listRead(1001, { max_items: 10 }));
    expect(ids(cut)).toEqual(large.slice(0, 10).map((lead) => lead.id));
    expect(cut.first).toContain(
      "max_items 10 kept the first 10 of the 300 records Marketo's page returned (max_items caps records read, not the results wanted): leave max_items out to get all 300, and give paginate true for the pages after it",
    );
    const whole = await mkto.ok<Answer>(listRead(1005, { max_items: small.length + 5 }));
    expect(ids(whole)).toEqual(small.map((lead) => lead.id));
    expect(whole.data.complete).toBe(true);
    expect(whole.first).not.toContain("max_items");
  });

  it("with where, reads N records and tests only them, and says the cut came before where", async () => {
    const where = "leadScore > 30";
    const cut = await mkto.ok<Answer>(listRead(1005, { max_items: 5, where }));
    const read = small.slice(0, 5);
    const want = read.filter((lead) => Number(lead.leadScore) > 30);
    expect(cut.data.computed).toEqual({ read: 5, matched: want.length });
    expect(ids(cut)).toEqual(want.map((lead) => lead.id));
    expect(cut.data.complete).toBe(false);
    expect(cut.first).toContain(
      `the read stopped at max_items (5 records read of the ${small.length} on Marketo's page; max_items counts records read before where, not results): leave max_items out to cover the whole page`,
    );
    expect(cut.first).toContain("only the records read were tested");
    // Done as it says: without max_items, the whole page is tested.
    const all = await mkto.ok<Answer>(listRead(1005, { where }));
    expect(all.data.computed?.read).toBe(small.length);
    expect(ids(all)).toEqual(small.filter((lead) => Number(lead.leadScore) > 30).map((lead) => lead.id));
    // A max_items the page does not reach is said not to have cut it.
    const uncut = await mkto.ok<Answer>(listRead(1005, { max_items: 1_000, where }));
    expect(uncut.data.computed?.read).toBe(small.length);
    expect(uncut.first).toContain(`max_items 1,000 did not cut the read of ${small.length} records`);
  });

  it("with count_by, counts only the N records read", async () => {
    const cut = await mkto.ok<Answer>(listRead(1005, { max_items: 7, count_by: "leadSource" }));
    expect(cut.data.result.reduce((sum, row) => sum + Number(row.count), 0)).toBe(7);
    expect(cut.first).toContain("max_items counts records read before count_by, not results");
  });
});

describe("max_items on a paged read with where", () => {
  it("says the cut came before where, and what to raise", async () => {
    const cut = await mkto.ok<Answer>(
      listRead(1001, { paginate: true, max_items: 15, where: "leadScore > 30" }),
    );
    expect(cut.data.computed?.read).toBe(15);
    expect(cut.first).toContain(
      "the read stopped at max_items (15 records read; max_items counts records read before where, not results): raise max_items (at most 100,000) and max_pages to cover more",
    );
  });
});

describe("max_items on an export run with where (trial s9, N47: max_items 15 taken for the matches wanted)", () => {
  it("says the rows were cut before where, and only the rows read were tested", async () => {
    const cut = await mkto.ok<Answer>({
      method: "POST",
      endpoint: "/bulk/v1/leads/export/create.json",
      body: { fields: ["id", "leadScore"], format: "CSV", filter: { staticListId: 1001 } },
      run_to_completion: true,
      where: "leadScore > 30",
      max_items: 15,
    });
    expect(cut.data.computed?.read).toBe(15);
    expect(cut.first).toContain(
      "max_items 15 cut the read: it stopped after 15 rows, before the end of the export, and the file holds what the first 15 rows read gave (max_items counts rows read before where, not results)",
    );
  });

  it("says so too when the rows of a recent export are reused", async () => {
    const body = { fields: ["id", "leadScore"], format: "CSV", filter: { staticListId: 1002 } };
    const call = {
      method: "POST",
      endpoint: "/bulk/v1/leads/export/create.json",
      body,
      run_to_completion: true,
    };
    const whole = await mkto.ok<Answer>(call);
    const rows = whole.data.computed?.read ?? 0;
    expect(rows).toBeGreaterThan(15);
    const cut = await mkto.ok<Answer>({ ...call, where: "leadScore > 30", max_items: 15 });
    expect(cut.first).toContain("reused");
    expect(cut.first).toContain(
      `max_items 15 cut the read: it stopped at 15 of the export's ${rows} rows (max_items counts rows read before where, not results)`,
    );
  });
});

describe("max_items as tools/list describes it", () => {
  it("caps records read, before where and count_by, not the results wanted", async () => {
    const { tools } = await mkto.session.client.listTools();
    const schema = tools.find((tool) => tool.name === "marketo_api_call")?.inputSchema as {
      properties: Record<string, { description?: string }>;
    };
    const said = schema.properties.max_items?.description ?? "";
    expect(said).toMatch(/records read/);
    expect(said).toMatch(/before where/);
    expect(said).toMatch(/not results/);
  });
});
