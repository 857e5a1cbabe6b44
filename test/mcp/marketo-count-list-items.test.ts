import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { marketoOverMcp, runningClock } from "../helpers/marketo-mcp.js";

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

const T0 = Date.UTC(2026, 11, 1, 12);
const mkto = marketoOverMcp({ leadCount: 200, seed: 42, now: runningClock(T0), rateLimit: 1_000_000 });
const PROGRAMS = Array.from({ length: 30 }, (_, i) => 1001 + i);
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
        fc.subarray(PROGRAMS, { minLength: 1, maxLength: 6 }),
        fc.constantFrom(undefined, "Program", "headline", "<p>", "2026", "Event", "no such text"),
        fc.constantFrom([], ["id"], ["tokens.name"]),
        async (ids, needle, beside) => {
          const plain = (await tokensOf(ids)).data.result;
          const items = plain.flatMap((program) =>
            ((program.tokens ?? []) as Token[]).map((token) => ({ program: program.id, token })),
          );
          const holds = (token: Token) =>
            needle === undefined || String(token.value).toLowerCase().includes(needle.toLowerCase());
          const kept = items.filter(({ token }) => holds(token));
          const columns = ["tokens.type", ...beside];
          const where =
            needle === undefined ? {} : { where: `tokens.value contains ${JSON.stringify(needle)}` };
          const counted = await tokensOf(ids, { count_by: columns.join(","), ...where });
          const truth = new Map<string, number>();
          for (const { program, token } of kept) {
            const values = columns.map((column) =>
              column === "tokens.type" ? token.type : column === "tokens.name" ? token.name : program,
            );
            truth.set(values.join(" / "), (truth.get(values.join(" / ")) ?? 0) + 1);
          }
          expect(tally(counted.data.result, columns)).toEqual(truth);
          expect(counted.first).toContain(`the counts add up to ${kept.length.toLocaleString("en-US")}`);
          if (kept.length > 0) expect(counted.first).toMatch(/item(s)? of tokens in them/);
          // where alone: the programs with at least one token it holds for, whole.
          if (needle !== undefined) {
            const found = (await tokensOf(ids, where)).data.result;
            const expected = plain.filter((program) => ((program.tokens ?? []) as Token[]).some(holds));
            expect(found.map((program) => program.id)).toEqual(expected.map((program) => program.id));
          }
        },
      ),
      { numRuns: 12 },
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
});
