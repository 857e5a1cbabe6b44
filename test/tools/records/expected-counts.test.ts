import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RecordCompute } from "../../../src/tools/records/compute.js";

/**
 * count_by with expected values (issue 27, trial T16): each value asked for appears once, counted 0 when no
 * record had it, its seen count when one did; a value of a field not counted adds nothing.
 */
describe("count_by with values asked for", () => {
  it("every asked value has one row with its count, others as counted; zeros come last", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom<string>("a", "b", "c", "d"), { maxLength: 30 }),
        fc.uniqueArray(fc.constantFrom<string>("a", "b", "c", "d", "e"), { maxLength: 5 }),
        (kinds, asked) => {
          const compute = new RecordCompute({ countBy: ["kind"] });
          compute.expectValues([...asked.map((kind) => ({ kind })), { other: "x" }]);
          for (const kind of kinds) compute.see({ kind, other: 1 });
          const rows = compute.finish([]);
          const want = new Map<string, number>();
          for (const kind of [...kinds, ...asked]) want.set(kind, kinds.filter((k) => k === kind).length);
          expect(new Map(rows.map((row) => [String(row.kind), Number(row.count)]))).toEqual(want);
          expect(rows).toHaveLength(want.size);
          expect(compute.zeros).toBe(asked.filter((kind) => !kinds.includes(kind)).length);
          const counts = rows.map((row) => Number(row.count));
          expect(counts).toEqual([...counts].sort((x, y) => y - x));
        },
      ),
    );
  });

  it("with two count_by fields a value asked for matches on its own field, the other empty", () => {
    const compute = new RecordCompute({ countBy: ["mail", "type"] });
    compute.expectValues([{ type: "Open" }, { type: "Unsubscribe" }]);
    compute.see({ mail: 1, type: "Open" });
    expect(compute.finish([])).toEqual([
      { mail: 1, type: "Open", count: 1, percent: 100, percent_in_mail: 100 },
      { mail: null, type: "Unsubscribe", count: 0, percent: 0, percent_in_mail: 0 },
    ]);
  });
});
