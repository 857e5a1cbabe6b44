import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildDataSet } from "../../src/sandbox/marketo/seed.js";
import { sortRecords } from "../../src/tools/records/order.js";
import { marketoOverMcp, runningClock } from "../helpers/marketo-mcp.js";

/**
 * count_by's min_count and count_by_ignore_case (issue 27; trial s4, T06: "leads that share an email"),
 * through MCP on the sandbox. Leads written with createDuplicate give the same email or company in other
 * spellings; the truth is a tally of what was written. Properties: the kept groups are exactly those counted
 * at least min_count times, their counts add up to the records in them, and a group ignoring case counts
 * what its spellings count apart; the kept result and its CSV hold exactly the rows kept, in order.
 */
interface Answer {
  result: Record<string, unknown>[];
  complete: boolean;
  computed?: Record<string, number>;
}

const T0 = Date.UTC(2026, 11, 1, 12);
const SEED = 42;
const LEADS = 5_000;
const world = buildDataSet({ leadCount: LEADS, seed: SEED, now: T0 });
const members = [...(world.lists.find((list) => list.id === 1001)?.members ?? [])]
  .sort((a, b) => a - b)
  .map((id) => world.leads.get(id))
  .filter((lead) => lead !== undefined);
/** The members given a second lead: its email upper case, capitalised or the same (i % 3). */
const TWINS = 1_000;
const twinEmail = (email: string, i: number) =>
  i % 3 === 0 ? email.toUpperCase() : i % 3 === 1 ? email.charAt(0).toUpperCase() + email.slice(1) : email;

const mkto = marketoOverMcp(
  { leadCount: LEADS, seed: SEED, now: runningClock(T0), rateLimit: 1_000_000 },
  async () => {
    const twins = members.slice(0, TWINS).map((lead, i) => ({ email: twinEmail(String(lead.email), i) }));
    const ids = await create(twins);
    for (let at = 0; at < ids.length; at += 300) {
      const input = ids.slice(at, at + 300).map((id) => ({ id }));
      await ok({ method: "POST", endpoint: "/rest/v1/lists/1001/leads.json", body: { input } });
    }
  },
);
const run = (args: Record<string, unknown>) => mkto.call<Answer>(args);
const ok = (args: Record<string, unknown>) => mkto.ok<Answer>(args);
/** Every page of a kept result. */
const readAll = (uri: string) => mkto.pages(uri);

/** Creates a lead per record (createDuplicate: one even when its email is taken), 300 a call; their ids. */
async function create(records: Record<string, unknown>[]): Promise<number[]> {
  const ids: number[] = [];
  for (let at = 0; at < records.length; at += 300) {
    const { data } = await ok({
      method: "POST",
      endpoint: "/rest/v1/leads.json",
      body: { action: "createDuplicate", input: records.slice(at, at + 300) },
    });
    ids.push(...data.result.map((row) => Number(row.id)));
  }
  expect(ids.every(Number.isInteger)).toBe(true);
  return ids;
}

/** A count's share of the records counted, to 0.1, as each count row's percent gives it. */
const share = (count: number, of: number) => Math.round((count / of) * 1000) / 10;

/** The reference tally: per key (as grouped), its count, the spellings and the first one read. */
function tally(values: (string | null)[], ignoreCase: boolean) {
  const groups = new Map<
    string | null,
    { first: string | null; count: number; spellings: Set<string | null> }
  >();
  for (const value of values) {
    const empty = value === null || value === "" || (ignoreCase && value.trim() === "");
    const key = empty ? null : ignoreCase ? value.trim().toLowerCase() : value;
    const group = groups.get(key) ?? { first: empty ? null : value, count: 0, spellings: new Set() };
    group.count += 1;
    group.spellings.add(empty && !ignoreCase ? null : value);
    groups.set(key, group);
  }
  return groups;
}

const LIST = {
  method: "GET",
  endpoint: "/rest/v1/lists/1001/leads.json",
  query_parameters: { fields: "id,email", batchSize: 300 },
  paginate: true,
};

describe("leads that share an email (trial s4, T06)", () => {
  const emails = [
    ...members.map((lead) => String(lead.email)),
    ...members.slice(0, TWINS).map((lead, i) => twinEmail(String(lead.email), i)),
  ];

  it("keeps the emails on two or more leads, ignoring case, and says so with the figures", async () => {
    const { data, text } = await ok({ ...LIST, count_by: "email", min_count: 2, count_by_ignore_case: true });
    const groups = tally(emails, true);
    const kept = [...groups.values()].filter((group) => group.count >= 2);
    const records = kept.reduce((sum, group) => sum + group.count, 0);
    const spellings = [...groups.values()].reduce((sum, group) => sum + group.spellings.size, 0);
    const n = (value: number) => value.toLocaleString("en-US");
    expect(data.computed).toEqual({
      read: emails.length,
      matched: emails.length,
      groups: groups.size,
      groups_at_min_count: kept.length,
      records_at_min_count: records,
      spellings,
    });
    expect(text).toContain(
      `counted by email ignoring case and outer spaces: ${n(kept.length)} values appear on 2 or more records ` +
        `(${n(records)} records), of ${n(groups.size)} distinct values over all ${n(emails.length)} records`,
    );
    expect(text).toContain(
      `${n(spellings - groups.size)} spellings merged into others that differ only in case or outer spaces ` +
        `(${n(spellings)} spellings, ${n(groups.size)} values); each row shows the spelling read first`,
    );
    // Each row shows the spelling read first (the member's own, before its twin) and how many it merges.
    const want = sortRecords(
      kept.map((group) => ({
        email: group.first,
        count: group.count,
        percent: share(group.count, emails.length),
        spellings: group.spellings.size,
      })),
      [
        { field: "count", desc: true },
        { field: "email", desc: false },
      ],
    );
    expect(data.result).toEqual(want.slice(0, data.result.length));
    expect(data.result.length).toBeGreaterThan(0);
  });

  it("keeps exactly the kept groups, in order, in the full result and its CSV", async () => {
    const { data, result } = await ok({
      ...LIST,
      count_by: "email",
      min_count: 2,
      count_by_ignore_case: true,
    });
    const links = result.content.filter((c) => c.type === "resource_link") as {
      uri: string;
      mimeType: string;
    }[];
    expect(links.map((link) => link.mimeType)).toEqual(["application/json", "text/csv"]);
    const json = (await readAll(links[0]?.uri ?? "")).flatMap(
      (page) => JSON.parse(page) as Record<string, unknown>[],
    );
    expect(json).toHaveLength(data.computed?.groups_at_min_count ?? -1);
    expect(json.slice(0, data.result.length)).toEqual(data.result);
    expect(json.every((row) => Number(row.count) >= 2)).toBe(true);
    const csv = (await readAll(links[1]?.uri ?? "")).flatMap((page, i) =>
      page
        .trimEnd()
        .split("\r\n")
        .slice(i === 0 ? 0 : 1),
    );
    expect(csv).toEqual([
      "email,count,percent,spellings",
      ...json.map((row) => `${row.email},${row.count},${row.percent},${row.spellings}`),
    ]);
  });

  it("without ignoring case, keeps only the emails written alike", async () => {
    const { data, text } = await ok({ ...LIST, count_by: "email", min_count: 2 });
    const groups = tally(emails, false);
    const kept = [...groups.entries()].filter(([, group]) => group.count >= 2).map(([key]) => key);
    expect(data.computed?.groups_at_min_count).toBe(kept.length);
    expect(data.computed?.spellings).toBeUndefined();
    const want = sortRecords(
      kept.map((email) => {
        const count = groups.get(email)?.count ?? 0;
        return { email, count, percent: share(count, emails.length) };
      }),
      [
        { field: "count", desc: true },
        { field: "email", desc: false },
      ],
    );
    expect(data.result).toEqual(want.slice(0, data.result.length));
    expect(text).not.toContain("ignoring case");
  });
});

describe("refusals", () => {
  it.each([
    ["min_count", { min_count: 2 }, ["email", "min_count", "2"]],
    ["count_by_ignore_case", { count_by_ignore_case: true }, ["email", "count_by_ignore_case", "true"]],
  ])("refuses %s without count_by, and does what its hint says", async (field, given, said) => {
    mkto.fixture.sandbox.resetStats();
    const { result, text } = await run({ ...LIST, ...given });
    expect(result.isError).toBe(true);
    expect(text).toContain(`Invalid ${field}`);
    expect(text).toContain("give count_by too");
    expect(mkto.fixture.sandbox.stats().apiCalls).toBe(0);
    // The hint, e.g. count_by "email", min_count 2: done as said.
    const example = /E\.g\. count_by "(\w+)", (\w+) (\w+)/.exec(text);
    expect(example?.slice(1)).toEqual(said);
    await ok({ ...LIST, count_by: said[0], [field]: JSON.parse(said[2] ?? "") });
  });

  it("refuses a min_count below 1, naming the field and what is accepted", async () => {
    const { result, text } = await run({ ...LIST, count_by: "email", min_count: 0 });
    expect(result.isError).toBe(true);
    expect(text).toMatch(/min_count/);
    expect(text).toMatch(/>=\s*1|at least 1/);
  });
});

describe("property: kept groups, their counts and their spellings (fast-check, fixed seed)", () => {
  // Few spellings of few names, so groups repeat and merge: case, spaces before and after, text of spaces only.
  const spelling = fc
    .tuple(
      fc.constantFrom("acme", "globex corp", "x", ""),
      fc.constantFrom("as written", "upper", "capitalised"),
      fc.constantFrom("", " ", "  "),
      fc.constantFrom("", " "),
    )
    .map(([base, casing, before, after]) => {
      const cased =
        casing === "upper"
          ? base.toUpperCase()
          : casing === "capitalised"
            ? base.charAt(0).toUpperCase() + base.slice(1)
            : base;
      return `${before}${cased}${after}`;
    });

  it("for any companies and min_count: exactly the groups counted at least min_count times", async () => {
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(spelling, { minLength: 1, maxLength: 80, size: "medium" }),
        fc.integer({ min: 1, max: 5 }),
        fc.boolean(),
        async (companies, least, ignoreCase) => {
          round += 1;
          const ids = await create(
            companies.map((company, i) => ({ email: `p${round}-${i}@prop.test`, company })),
          );
          const read = {
            method: "GET",
            endpoint: "/rest/v1/leads.json",
            query_parameters: { filterType: "id", filterValues: ids, fields: "id,company" },
            paginate: true,
            count_by: "company",
          };
          const { data } = await ok({ ...read, min_count: least, count_by_ignore_case: ignoreCase });
          // The sandbox keeps what was written; the reference tally groups it the same way.
          const groups = tally(companies, ignoreCase);
          const want = [...groups.values()].filter((group) => group.count >= least);
          const key = (value: unknown) =>
            typeof value !== "string" || (ignoreCase && value.trim() === "")
              ? null
              : ignoreCase
                ? value.trim().toLowerCase()
                : value;
          expect(new Map(data.result.map((row) => [key(row.company), row.count]))).toEqual(
            new Map(want.map((group) => [key(group.first), group.count])),
          );
          // Each group shows the spelling read first (leads are read in id order, the order written).
          expect(new Map(data.result.map((row) => [key(row.company), row.company ?? null]))).toEqual(
            new Map(want.map((group) => [key(group.first), group.first])),
          );
          const counts = data.result.map((row) => Number(row.count));
          expect(counts).toEqual([...counts].sort((a, b) => b - a));
          expect(data.computed?.groups_at_min_count).toBe(want.length);
          expect(data.computed?.records_at_min_count).toBe(counts.reduce((sum, count) => sum + count, 0));
          expect(data.computed?.groups).toBe(groups.size);
          if (!ignoreCase) return;
          // Ignoring case, a group counts what its spellings count apart (the same read, counted exactly).
          const exact = (await ok(read)).data.result;
          for (const row of data.result) {
            const apart = exact.filter((other) => key(other.company) === key(row.company));
            expect(row.count).toBe(apart.reduce((sum, other) => sum + Number(other.count), 0));
            expect(row.spellings).toBe(apart.length);
          }
        },
      ),
      { seed: 2706, numRuns: 12 },
    );
  });
});
