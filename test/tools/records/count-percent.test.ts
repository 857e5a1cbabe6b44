import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeSpec, RecordCompute } from "../../../src/tools/records/compute.js";

/**
 * Each count row's percent is its count's share of the records counted (trial s13: agents divided by hand
 * in 8 of 20 tasks). Invariant: percent = count / counted × 100 to 0.1, so the percents add up to 100 within
 * the rounding of each row (0.05 a row); with min_count the kept rows' percents stay shares of every record
 * counted; a count of distinct values has none (its counts overlap and add to no whole).
 */
describe("count_by's percent", () => {
  const kinds = fc.array(fc.constantFrom("a", "b", "c", "d", "e", "f", "g"), { minLength: 1, maxLength: 80 });

  it("is each row's share of the records counted, and the shares add up to 100", () => {
    fc.assert(
      fc.property(kinds, fc.integer({ min: 1, max: 4 }), (seen, least) => {
        for (const minCount of [undefined, least]) {
          const compute = new RecordCompute(
            computeSpec({ count_by: "kind", ...(minCount ? { min_count: minCount } : {}) }, "") ?? {},
          );
          for (const kind of seen) compute.see({ kind });
          const rows = compute.finish([]);
          for (const row of rows) {
            const share = (Number(row.count) / seen.length) * 100;
            expect(Math.abs(Number(row.percent) - share)).toBeLessThanOrEqual(0.05 + 1e-9);
          }
          if (minCount !== undefined) continue;
          const sum = rows.reduce((total, row) => total + Number(row.percent), 0);
          expect(Math.abs(sum - 100)).toBeLessThanOrEqual(0.05 * rows.length + 1e-9);
        }
      }),
    );
  });

  it("is not given for a count of distinct values, and is 0 for a value asked for and never seen", () => {
    const distinct = new RecordCompute(computeSpec({ count_by: "kind", count_distinct: "mail" }, "") ?? {});
    distinct.see({ kind: "a", mail: "x" });
    expect(distinct.finish([])).toEqual([{ kind: "a", count: 1, records: 1 }]);
    const zero = new RecordCompute(computeSpec({ count_by: "kind" }, "") ?? {});
    zero.expectValues([{ kind: "b" }]);
    zero.see({ kind: "a" });
    expect(zero.finish([])).toEqual([
      { kind: "a", count: 1, percent: 100 },
      { kind: "b", count: 0, percent: 0 },
    ]);
  });
});
