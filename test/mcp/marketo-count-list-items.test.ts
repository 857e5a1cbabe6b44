import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { seededMarketo } from "../helpers/marketo-mcp.js";

/**
 * count_by through a list of objects each record holds counts its items (trial s22, N275: the agent counted a
 * program's 78 tokens by type, and searched them for "2025", by hand). Property, over generated programs, a
 * text to look for and a field beside: the counts of `tokens.type` (and of `id,tokens.name`) are those of the
 * items of the same programs read plainly; with `where` on a path in the list, only the items it holds for;
 * the counts add up to the items counted, which the summary states; and `where` alone keeps the programs with
 * at least one such item.
 */
interface Token {
  name: string;
  type: string;
  value: unknown;
}
interface Answer {
  result: Record<string, unknown>[];
}

// Reads of one call per id, many a test: the step's own limit of Marketo's 100 calls in 20 seconds is raised.
const mkto = seededMarketo(200);
const PROGRAMS = Array.from({ length: 30 }, (_, i) => 1001 + i);
const SOME = PROGRAMS.slice(0, 12);
const tokensOf = (ids: number[], extra: Record<string, unknown> = {}) =>
  mkto.ok<Answer>({
    method: "GET",
    endpoint: "/rest/asset/v1/folder/{id}/tokens.json",
    query_parameters: { id: ids, folderType: "Program" },
    ...extra,
  });

const tally = (rows: Record<string, unknown>[], columns: string[]) =>
  new Map(
    rows
      .filter((row) => Number(row.count) > 0)
      .map((row) => [columns.map((c) => String(row[c])).join(" / "), Number(row.count)]),
  );

describe("count_by through a list each record holds (tokens.type)", () => {
  it("property: counts each item of the list, and with where on it only the items it holds for", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(PROGRAMS, { minLength: 1, maxLength: 8 }),
        fc.constantFrom(undefined, "Program", "headline", "<p>", "2026", "Event", "no such text"),
        fc.boolean(),
        fc.constantFrom([], ["id"], ["tokens.name"]),
        async (ids, needle, negated, beside) => {
          const plain = (await tokensOf(ids)).data.result;
          const items = plain.flatMap((program) =>
            ((program.tokens ?? []) as Token[]).map((token) => ({ program: program.id, token })),
          );
          // `not` on a path into the items holds for each item it holds for (review s26, finding 5).
          const contains = (token: Token) =>
            String(token.value).toLowerCase().includes(String(needle).toLowerCase());
          const holds = (token: Token) => needle === undefined || contains(token) !== negated;
          const kept = items.filter(({ token }) => holds(token));
          const columns = ["tokens.type", ...beside];
          const condition = `tokens.value contains ${JSON.stringify(needle)}`;
          const where = needle === undefined ? {} : { where: negated ? `not ${condition}` : condition };
          const counted = await tokensOf(ids, { count_by: columns.join(","), ...where });
          const truth = new Map<string, number>();
          for (const { program, token } of kept) {
            const values = columns.map((column) =>
              column === "tokens.type" ? token.type : column === "tokens.name" ? token.name : program,
            );
            truth.set(values.join(" / "), (truth.get(values.join(" / ")) ?? 0) + 1);
          }
          expect(tally(counted.data.result, columns)).toEqual(truth);
          // No item counted, no row: nothing to add up or describe (review s31, finding 8).
          if (kept.length > 0)
            expect(counted.first).toContain(`the counts add up to ${kept.length.toLocaleString("en-US")}`);
          else if (counted.data.result.length === 0)
            expect(counted.first).not.toContain("each result row is a value");
          if (kept.length > 0) expect(counted.first).toMatch(/item(s)? of tokens in them/);
          // where alone: the programs with at least one token it holds for, whole.
          if (needle !== undefined) {
            const found = (await tokensOf(ids, where)).data.result;
            const expected = plain.filter((program) => ((program.tokens ?? []) as Token[]).some(holds));
            expect(found.map((program) => program.id)).toEqual(expected.map((program) => program.id));
          }
        },
      ),
      { numRuns: 20 },
    );
  }, 120_000);

  it("still reads a name/value list by a token's name (tokens.Headline), one value a record", async () => {
    const ids = PROGRAMS.slice(0, 6);
    const plain = (await tokensOf(ids)).data.result;
    const counted = await tokensOf(ids, { count_by: "tokens.Headline" });
    const headlines = plain.map(
      (program) => ((program.tokens ?? []) as Token[]).find((token) => token.name === "Headline")?.value,
    );
    const total = counted.data.result.reduce((sum, row) => sum + Number(row.count), 0);
    expect(total).toBe(ids.length);
    expect(new Set(counted.data.result.map((row) => row["tokens.Headline"]))).toEqual(new Set(headlines));
    expect(counted.first).not.toContain("items of tokens in them");
  });

  it("names the paths into each item among the fields a count offers", async () => {
    const counted = await tokensOf(PROGRAMS.slice(0, 3), { count_by: "id" });
    expect(counted.first).toContain(
      "in each item of a list, which count_by counts and where tests: tokens.name, tokens.type, tokens.value",
    );
    // Doing what it says: counting by one of them answers.
    const byType = await tokensOf(PROGRAMS.slice(0, 3), { count_by: "tokens.type" });
    expect(byType.data.result.length).toBeGreaterThan(0);
  });

  it("a where on a token's value by its name keeps the record, whose every item counts (review s26, finding 6)", async () => {
    const plain = (await tokensOf(SOME)).data.result;
    const headline = (program: Record<string, unknown>) =>
      String(((program.tokens ?? []) as Token[]).find((token) => token.name === "Headline")?.value ?? "");
    const kept = plain.filter((program) => headline(program).toLowerCase().includes("event"));
    const items = kept.reduce((sum, program) => sum + ((program.tokens ?? []) as Token[]).length, 0);
    expect(items).toBeGreaterThan(kept.length);
    const counted = await tokensOf(SOME, {
      count_by: "tokens.type",
      where: 'tokens.Headline contains "Event"',
    });
    const total = counted.data.result.reduce((sum, row) => sum + Number(row.count), 0);
    expect(total).toBe(items);
  });

  it("refuses two lists at once, and a sum of a value by name in the counted list (review s26, finding 8)", async () => {
    const two = await mkto.call({
      method: "GET",
      endpoint: "/rest/asset/v1/program/{id}.json",
      query_parameters: { id: SOME },
      count_by: "tags.tagValue,costs.startDate:month",
    });
    expect(two.result.isError).toBe(true);
    expect(two.first).toContain("counts the items of one list at a time, and tags and costs are both lists");
    const byName = await mkto.call({
      method: "GET",
      endpoint: "/rest/asset/v1/folder/{id}/tokens.json",
      query_parameters: { id: PROGRAMS.slice(0, 5), folderType: "Program" },
      count_by: "tokens.type",
      sum: "tokens.Headline",
    });
    expect(byName.result.isError).toBe(true);
    expect(byName.first).toContain("reads a value by its name in tokens");
    // Doing what the first hint says: one list a call.
    const tags = await mkto.ok<Answer>({
      method: "GET",
      endpoint: "/rest/asset/v1/program/{id}.json",
      query_parameters: { id: SOME },
      count_by: "tags.tagValue",
    });
    expect(tags.data.result.length).toBeGreaterThan(0);
  });

  it("says a sum outside the counted list adds a record to each of its items' rows (review s26, finding 7)", async () => {
    const read = async () =>
      (
        await mkto.ok<Answer>({
          method: "GET",
          endpoint: "/rest/asset/v1/program/{id}.json",
          query_parameters: { id: SOME },
        })
      ).data.result;
    const spend = (program: Record<string, unknown>) =>
      ((program.costs ?? []) as { cost: number }[]).reduce((sum, cost) => sum + Number(cost.cost), 0);
    // A second tag on one program with costs: it then counts under two tag types.
    const costly = (await read()).find((program) => spend(program) > 0) as Record<string, unknown>;
    const tags = (costly.tags ?? []) as { tagType: string; tagValue: string }[];
    await mkto.ok({
      method: "POST",
      endpoint: `/rest/asset/v1/program/${costly.id}.json`,
      body: { tags: [...tags, { tagType: "Region", tagValue: "EMEA" }] },
    });
    const tagged = (await read()).filter((program) => ((program.tags ?? []) as unknown[]).length > 0);
    const own = tagged.reduce((sum, program) => sum + spend(program), 0);
    const counted = await mkto.ok<Answer>({
      method: "GET",
      endpoint: "/rest/asset/v1/program/{id}.json",
      query_parameters: { id: SOME },
      count_by: "tags.tagType",
      sum: "costs.cost",
    });
    const rows = counted.data.result.reduce((sum, row) => sum + Number(row.sum), 0);
    expect(rows).toBe(own + spend(costly));
    expect(counted.first).toContain(
      `the rows add up to ${rows.toLocaleString("en-US")} (computed.sum), and the records' own costs.cost to ${own.toLocaleString("en-US")} (computed.records_sum)`,
    );
    // The structured answer carries both, as the words name them (review s27, finding 9).
    const computed = (counted.data as unknown as { computed: { sum: number; records_sum: number } }).computed;
    expect(computed).toMatchObject({ sum: rows, records_sum: own });
  });

  it("min_count through a list keeps values on that many items, and says items (review s27, finding 9)", async () => {
    const plain = (await tokensOf(SOME)).data.result;
    const byType = new Map<string, number>();
    for (const program of plain)
      for (const token of (program.tokens ?? []) as Token[])
        byType.set(token.type, (byType.get(token.type) ?? 0) + 1);
    const least = Math.max(...byType.values());
    const kept = [...byType.values()].filter((count) => count >= least);
    const counted = await tokensOf(SOME, { count_by: "tokens.type", min_count: least });
    expect(counted.data.result.map((row) => Number(row.count))).toEqual(kept);
    const items = kept.reduce((sum, count) => sum + count, 0);
    expect(counted.first).toMatch(
      new RegExp(
        `appears? on ${least.toLocaleString("en-US")} or more items \\(${items.toLocaleString("en-US")} items?\\)`,
      ),
    );
  });

  it("a pivot through a list counts its items, and its totals add up to them (review s26, finding 13)", async () => {
    const plain = (await tokensOf(SOME)).data.result;
    const items = plain.reduce((sum, program) => sum + ((program.tokens ?? []) as Token[]).length, 0);
    const pivot = await tokensOf(SOME, { count_by: "tokens.name,tokens.type:columns" });
    expect(pivot.first).toContain("each cell counts its items of tokens");
    expect(pivot.first).toContain(`the totals add up to ${items.toLocaleString("en-US")}`);
  });

  it("count_by a whole list offers its items' keys, and counting by the one it names answers (review s26, finding 16)", async () => {
    const refused = await mkto.call({
      method: "GET",
      endpoint: "/rest/asset/v1/folder/{id}/tokens.json",
      query_parameters: { id: SOME, folderType: "Program" },
      count_by: "tokens",
    });
    expect(refused.result.isError).toBe(true);
    const named = /Count by a key of its items, e\.g\. ([\w.]+): each item is counted/.exec(
      refused.text,
    )?.[1];
    expect(named).toBeDefined();
    const counted = await tokensOf(SOME, { count_by: named });
    const plain = (await tokensOf(SOME)).data.result;
    const items = plain.reduce((sum, program) => sum + ((program.tokens ?? []) as Token[]).length, 0);
    expect(counted.data.result.reduce((sum, row) => sum + Number(row.count), 0)).toBe(items);
  });

  it("sums a key of the counted list over records whose list may be empty: spend per month (review s27, finding 1)", async () => {
    const programs = (
      await mkto.ok<Answer>({
        method: "GET",
        endpoint: "/rest/asset/v1/program/{id}.json",
        query_parameters: { id: PROGRAMS },
      })
    ).data.result;
    const costs = programs.flatMap(
      (program) => (program.costs ?? []) as { startDate: string; cost: number }[],
    );
    expect(programs.some((program) => ((program.costs ?? []) as unknown[]).length === 0)).toBe(true);
    const byMonth = new Map<string, number>();
    for (const cost of costs)
      byMonth.set(cost.startDate.slice(0, 7), (byMonth.get(cost.startDate.slice(0, 7)) ?? 0) + cost.cost);
    const counted = await mkto.ok<Answer>({
      method: "GET",
      endpoint: "/rest/asset/v1/program/{id}.json",
      query_parameters: { id: PROGRAMS },
      count_by: "costs.startDate:month",
      sum: "costs.cost",
    });
    const rows = new Map(
      counted.data.result.map((row) => [String(row["costs.startDate:month"]), Number(row.sum)]),
    );
    for (const [month, sum] of byMonth) expect(rows.get(month)).toBe(sum);
    // The counts are of cost items: a program without costs is none of them, said apart (review s28, finding 2).
    expect(rows.size).toBe(byMonth.size);
    const counts = counted.data.result.map((row) => Number(row.count));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(costs.length);
    for (const row of counted.data.result)
      expect(row.percent).toBe(Math.round((Number(row.count) / costs.length) * 1000) / 10);
    const without = programs.filter((program) => ((program.costs ?? []) as unknown[]).length === 0).length;
    expect(counted.first).toContain(
      `the ${without.toLocaleString("en-US")} records with no item of it are not counted`,
    );
    // Where only programs without costs match, none is counted and the words say so (review s30, finding 8).
    const empty = programs.filter((program) => ((program.costs ?? []) as unknown[]).length === 0);
    const ids = empty.map((program) => Number(program.id));
    const none = await mkto.ok<Answer>({
      method: "GET",
      endpoint: "/rest/asset/v1/program/{id}.json",
      query_parameters: { id: PROGRAMS },
      count_by: "costs.note",
      sum: "costs.cost",
      where: `id in (${ids.join(", ")})`,
    });
    expect(none.data.result).toHaveLength(0);
    expect(none.first).toContain(`over the ${ids.length} matching records (each of the 0 items of costs`);
    expect(none.first).toContain(`the ${ids.length} records with no item of it are not counted`);
    expect(none.first).not.toContain(`the counts add up to ${ids.length}`);
    // Nor rows described where there are none (review s31, finding 8).
    expect(none.first).not.toContain("each result row is a value");
    const months = await mkto.ok<Answer>({
      method: "GET",
      endpoint: "/rest/asset/v1/program/{id}.json",
      query_parameters: { id: PROGRAMS },
      count_by: "costs.startDate:month",
      where: `id in (${ids.join(", ")})`,
    });
    expect(months.data.result).toHaveLength(0);
    expect(months.first).not.toContain("rows in date order");
  });

  it("a where mixing a value by name with a key of the items tests each item, names read on its record (review s27, 6; s28, 1)", async () => {
    const plain = (await tokensOf(SOME)).data.result;
    const tokens = (program: Record<string, unknown>) => (program.tokens ?? []) as Token[];
    const headline = (program: Record<string, unknown>) =>
      String(tokens(program).find((token) => token.name === "Headline")?.value ?? "").toLowerCase();
    const cases: [string, (program: Record<string, unknown>, token: Token) => boolean][] = [
      [
        'tokens.Headline contains "Program" and tokens.type == "rich text"',
        (program, token) => headline(program).includes("program") && token.type === "rich text",
      ],
      [
        'tokens.Headline contains "Program" and tokens.type != "rich text"',
        (program, token) => headline(program).includes("program") && token.type !== "rich text",
      ],
      [
        'tokens.Headline contains "Program" and not tokens.type == "rich text"',
        (program, token) => headline(program).includes("program") && token.type !== "rich text",
      ],
      [
        'tokens.Headline contains "Program" or tokens.type == "score"',
        (program, token) => headline(program).includes("program") || token.type === "score",
      ],
    ];
    for (const [where, holds] of cases) {
      const want = new Map<string, number>();
      let records = 0;
      for (const program of plain) {
        const kept = tokens(program).filter((token) => holds(program, token));
        if (kept.length > 0) records += 1;
        for (const token of kept) want.set(token.type, (want.get(token.type) ?? 0) + 1);
      }
      expect(records, where).toBeGreaterThan(0);
      const counted = await tokensOf(SOME, { count_by: "tokens.type", where });
      expect(tally(counted.data.result, ["tokens.type"]), where).toEqual(want);
      // Without count_by, the records that have such an item.
      const read = await tokensOf(SOME, { where });
      expect(read.data.result, where).toHaveLength(records);
    }
  });
});
