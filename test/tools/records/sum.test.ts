import { describe, expect, it } from "vitest";
import { computeSpec, RecordCompute } from "../../../src/tools/records/compute.js";
import { valuesAt } from "../../../src/tools/records/sum.js";

describe("sum's path through a list", () => {
  it("reads every item's value, and a group adds them", () => {
    const program = { name: "A", costs: [{ cost: 100 }, { cost: "250" }, { note: "none" }] };
    expect(valuesAt(program, "costs.cost")).toEqual([100, "250"]);
    const compute = new RecordCompute(computeSpec({ count_by: "name", sum: "costs.cost" }, "") ?? {});
    compute.see(program);
    compute.see({ name: "A", costs: [] });
    compute.see({ name: "B", costs: [{ cost: 7 }] });
    expect(compute.finish([])).toEqual([
      { name: "A", count: 2, sum: 350 },
      { name: "B", count: 1, sum: 7 },
    ]);
    expect(compute.sumTotal).toBe(357);
  });
});
