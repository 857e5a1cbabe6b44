import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Expression, Literal } from "../../../src/tools/filter/ast.js";
import { isFilterKeyword, parseExpression, RECORDS_DIALECT } from "../../../src/tools/filter/parser.js";
import { printExpression } from "../../../src/tools/filter/print.js";
import { computeSpec, RecordCompute } from "../../../src/tools/records/compute.js";
import { recordTest } from "../../../src/tools/records/match.js";
import { compareBy, parseSortKeys } from "../../../src/tools/records/order.js";

/**
 * Properties of where, order_by and count_by over records (fast-check, fixed seed): counts add up to the
 * records that match, kept groups are those counted min_count times, order_by sorts a permutation of what
 * matched, and the records dialect prints and parses back to the same tree. Examples: compute.test.ts.
 */
const AT = { field: "where", hint: "the hint" };
const where = (source: string) => recordTest(parseExpression(source, AT, RECORDS_DIALECT));
const SEED = 27;

// Random records of a few fields, with JSON and CSV forms of the same values, and random sort keys.
const value = fc.oneof(
  fc.integer({ min: -5, max: 200 }),
  fc.integer({ min: -5, max: 200 }).map(String),
  fc.constantFrom(
    null,
    "",
    "Web",
    "web",
    "Trade Show",
    "2024-01-31",
    "2024-01-31T10:00:00Z",
    "2023-12-01T00:00:00Z",
  ),
);
const record = fc.record({ a: value, b: value, c: value });
const records = fc.array(record, { maxLength: 60 });
const keys = fc.array(fc.record({ field: fc.constantFrom("a", "b", "c"), desc: fc.boolean() }), {
  minLength: 1,
  maxLength: 3,
});

describe("properties (fast-check, fixed seed)", () => {
  it("count_by: the counts add up to the records that match, one row per distinct value", () => {
    fc.assert(
      fc.property(
        records,
        fc.constantFrom("a > 50", 'b == "web"', "c is not empty", "a < 0 or b > 3"),
        (rows, filter) => {
          const compute = new RecordCompute(computeSpec({ where: filter, count_by: "a,b" }, "hint") ?? {});
          for (const row of rows) compute.see(row);
          const counts = compute.finish([]);
          const test = where(filter);
          const matching = rows.filter((row) => test(row));
          expect(counts.reduce((sum, row) => sum + (row.count as number), 0)).toBe(matching.length);
          expect(compute.matched).toBe(matching.length);
          expect(counts.length).toBe(compute.groups);
        },
      ),
      { seed: SEED, numRuns: 200 },
    );
  });

  it("count_by with :columns: each cell is the long count_by's row, each row's total its cells, all of them what matched", () => {
    fc.assert(
      fc.property(
        records,
        fc.constantFrom("a > 50", 'b == "web"', "c is not empty", "a < 0 or b > 3"),
        fc.boolean(),
        (rows, filter, ignoreCase) => {
          const input = { where: filter, count_by_ignore_case: ignoreCase };
          const long = new RecordCompute(computeSpec({ ...input, count_by: "a,b" }, "hint") ?? {});
          const wide = new RecordCompute(computeSpec({ ...input, count_by: "b:columns,a" }, "hint") ?? {});
          for (const row of rows) {
            long.see(row);
            wide.see(row);
          }
          const cells = long.finish([]);
          const table = wide.finish([]);
          const fold = (value: unknown) => {
            const text = value === null || value === undefined ? "" : String(value);
            return ignoreCase ? text.trim().toLowerCase() : text;
          };
          const columns = wide.pivot?.columns ?? [];
          for (const cell of cells) {
            const line = table.filter((row) => fold(row.a) === fold(cell.a));
            const column = cell.b === null ? "(empty)" : columns.find((name) => fold(name) === fold(cell.b));
            expect(line).toHaveLength(1);
            expect(line[0]?.[column ?? "?"]).toBe(cell.count);
          }
          const filled = table.flatMap((row) => columns.filter((name) => Number(row[name]) > 0));
          expect(filled).toHaveLength(cells.length);
          for (const row of table) {
            expect(row.total).toBe(columns.reduce((sum, name) => sum + Number(row[name]), 0));
          }
          expect(table.reduce((sum, row) => sum + Number(row.total), 0)).toBe(wide.matched);
          // Each column's total is its cells' sum (the summary says them).
          expect(wide.pivot?.columnTotals).toEqual(
            columns.map((name) => table.reduce((sum, row) => sum + Number(row[name]), 0)),
          );
          expect(wide.matched).toBe(long.matched);
        },
      ),
      { seed: SEED, numRuns: 200 },
    );
  });

  it("min_count and ignoring case: the kept groups are those counted min_count times, made of their spellings", () => {
    const spelled = fc.array(
      fc.record({ a: fc.constantFrom("Web", "web ", " WEB", "mail", "Mail", "", "  ", null) }),
      { maxLength: 60 },
    );
    fc.assert(
      fc.property(spelled, fc.integer({ min: 1, max: 6 }), (rows, least) => {
        const exact = new RecordCompute(computeSpec({ count_by: "a" }, "hint") ?? {});
        const folded = new RecordCompute(
          computeSpec({ count_by: "a", count_by_ignore_case: true, min_count: least }, "hint") ?? {},
        );
        for (const row of rows) {
          exact.see(row);
          folded.see(row);
        }
        const apart = exact.finish([]);
        const kept = folded.finish([]);
        const key = (value: unknown) =>
          typeof value === "string" ? value.trim().toLowerCase() || null : null;
        const sums = new Map<unknown, { count: number; spellings: number }>();
        for (const row of apart) {
          const sum = sums.get(key(row.a)) ?? { count: 0, spellings: 0 };
          sums.set(key(row.a), { count: sum.count + Number(row.count), spellings: sum.spellings + 1 });
        }
        // "" and null read as one empty value apart; ignoring case they are one spelling, "  " another.
        const want = [...sums].filter(([, sum]) => sum.count >= least);
        expect(new Map(kept.map((row) => [key(row.a), row.count]))).toEqual(
          new Map(want.map(([k, sum]) => [k, sum.count])),
        );
        expect(folded.kept).toEqual({
          groups: want.length,
          records: want.reduce((total, [, sum]) => total + sum.count, 0),
        });
        for (const row of kept) expect(row.spellings).toBe(sums.get(key(row.a))?.spellings);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it("order_by: the result is sorted by the keys and is a permutation of what matched", () => {
    fc.assert(
      fc.property(records, keys, (rows, sortKeys) => {
        const text = sortKeys.map((k) => `${k.desc ? "-" : ""}${k.field}`).join(",");
        const compute = new RecordCompute(computeSpec({ order_by: text }, "hint") ?? {});
        const kept = rows.filter((row) => compute.see(row));
        const sorted = compute.finish([...kept]);
        const compare = compareBy(parseSortKeys(text));
        for (let i = 1; i < sorted.length; i++) {
          expect(compare(sorted[i - 1] ?? {}, sorted[i] ?? {})).toBeLessThanOrEqual(0);
        }
        expect([...sorted].sort(byJson)).toEqual([...rows].sort(byJson));
      }),
      { seed: SEED, numRuns: 200 },
    );
  });

  it("the records dialect prints and parses back to the same tree", () => {
    fc.assert(
      fc.property(tree, (expression) => {
        expect(parseExpression(printExpression(expression), AT, RECORDS_DIALECT)).toEqual(expression);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });
});

const byJson = (x: unknown, y: unknown) => JSON.stringify(x).localeCompare(JSON.stringify(y));

// Plain names, dotted paths, and names that must be quoted (spaces, commas, quotes, a keyword).
const field = fc.oneof(
  fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/).filter((name) => !isFilterKeyword(name)),
  fc.stringMatching(/^[a-z]{1,5}\.[a-z]{1,5}$/),
  fc.stringMatching(/^[A-Za-z0-9 ,.'"()-]{1,10}$/),
  fc.constantFrom("and", "Import Failure Reason"),
);
const text = fc.string({ maxLength: 10 });
const number: fc.Arbitrary<Literal> = fc
  .oneof(
    fc.integer({ min: -1e6, max: 1e6 }).map(String),
    fc
      .double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 })
      .map((d) => (Number.isInteger(d) ? `${d}.0` : String(d))),
  )
  .filter((t) => !/e/i.test(t) && !Object.is(Number(t), -0))
  .map((t): Literal => ({ kind: "number", text: t, value: Number(t) }));
const literal: fc.Arbitrary<Literal> = fc.oneof(
  text.map((value): Literal => ({ kind: "text", value })),
  number,
);
const condition: fc.Arbitrary<Expression> = fc.oneof(
  fc.record({
    kind: fc.constant("compare"),
    field,
    op: fc.constantFrom("eq", "lt", "le", "gt", "ge"),
    value: literal,
  }),
  fc.record({
    kind: fc.constant("match"),
    field,
    op: fc.constantFrom("contains", "begins_with", "ends_with"),
    value: text,
  }),
  fc.record({ kind: fc.constant("in"), field, values: fc.array(literal, { minLength: 1, maxLength: 3 }) }),
  fc.record({ kind: fc.constant("between"), field, from: number, to: number }),
  fc.record({ kind: fc.constant("empty"), field }),
) as fc.Arbitrary<Expression>;
const { tree } = fc.letrec<{ tree: Expression }>((tie) => ({
  tree: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    condition,
    fc.array(tie("tree"), { minLength: 2, maxLength: 3 }).map((of) => ({ kind: "and" as const, of })),
    fc.array(tie("tree"), { minLength: 2, maxLength: 3 }).map((of) => ({ kind: "or" as const, of })),
    tie("tree").map((of) => ({ kind: "not" as const, of })),
  ),
}));
