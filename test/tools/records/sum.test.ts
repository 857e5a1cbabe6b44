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
      // The mean is over the records with a value: A's second has no cost (trial s24, N299).
      { name: "A", count: 2, percent: 66.7, sum: 350, mean: 350, median: 350, min: 350, max: 350 },
      { name: "B", count: 1, percent: 33.3, sum: 7, mean: 7, median: 7, min: 7, max: 7 },
    ]);
    expect(compute.sumTotal).toBe(357);
  });

  it("refuses a path through a list that no item has, naming the paths the items have", () => {
    const compute = new RecordCompute(computeSpec({ count_by: "name", sum: "costs.cots" }, "") ?? {});
    compute.see({ name: "A", costs: [{ startDate: "2026-11-01", cost: 100 }] });
    expect(() => compute.finish([])).toThrow(
      /no field named costs\.cots; it has costs\.cost, costs\.startDate, name \(closest first\)\. .* e\.g\. costs\.cost\./,
    );
    const right = new RecordCompute(computeSpec({ count_by: "name", sum: "costs.cost" }, "") ?? {});
    right.see({ name: "A", costs: [{ startDate: "2026-11-01", cost: 100 }] });
    expect(right.finish([])).toEqual([
      { name: "A", count: 1, percent: 100, sum: 100, mean: 100, median: 100, min: 100, max: 100 },
    ]);
  });

  it("refuses a path into a list only when no record read has it (an empty list says nothing)", () => {
    const compute = new RecordCompute(computeSpec({ count_by: "name", sum: "costs.cost" }, "") ?? {});
    compute.see({ name: "A", costs: [] });
    compute.see({ name: "B", costs: [{ cost: 7 }] });
    expect(compute.finish([])).toEqual([
      { name: "A", count: 1, percent: 50, sum: 0, mean: null, median: null, min: null, max: null },
      { name: "B", count: 1, percent: 50, sum: 7, mean: 7, median: 7, min: 7, max: 7 },
    ]);
  });
});

describe("sum's figures", () => {
  it("are free of floating-point noise: 0.3 + 0.6 + … reads 6.65, not 6.6499999999999995 (review s30, finding 14)", () => {
    const compute = new RecordCompute(computeSpec({ count_by: "type", sum: "value" }, "") ?? {});
    for (const value of [0.3, 0.6, 0.7, 1.2, 1.4, 0.25, -0.3, 2.5]) compute.see({ type: "number", value });
    const [row] = compute.finish([]) as { sum: number }[];
    expect(row?.sum).toBe(6.65);
    expect(compute.sumTotal).toBe(6.65);
    // A whole sum past 15 digits stays exact.
    const big = new RecordCompute(computeSpec({ count_by: "type", sum: "value" }, "") ?? {});
    big.see({ type: "a", value: 1_234_567_890_123_456 });
    expect(big.sumTotal).toBe(1_234_567_890_123_456);
  });
});

describe("order_by a sum's column without sum", () => {
  it("says to add sum, and with it the order answers (review s31, finding 10)", () => {
    expect(() => computeSpec({ count_by: "leadSource", order_by: "-median" }, "")).toThrow(
      /Add sum \(e\.g\. sum: "leadScore"\): each row then has sum, mean, median, min and max to sort by/,
    );
    const compute = new RecordCompute(
      computeSpec({ count_by: "leadSource", order_by: "-median", sum: "leadScore" }, "") ?? {},
    );
    for (const [leadSource, leadScore] of [
      ["A", 1],
      ["A", 3],
      ["B", 10],
    ] as const)
      compute.see({ leadSource, leadScore });
    expect((compute.finish([]) as { leadSource: string }[]).map((row) => row.leadSource)).toEqual(["B", "A"]);
  });
});

describe("sum's min and max", () => {
  it("gives each group its least and greatest number, and of dates its first and last by their instant", () => {
    const numbers = new RecordCompute(computeSpec({ count_by: "name", sum: "score" }, "") ?? {});
    for (const [name, score] of [
      ["A", 5],
      ["A", -2],
      ["A", "12"],
      ["B", 7],
    ] as const)
      numbers.see({ name, score });
    expect(numbers.finish([]).map((row) => [row.name, row.min, row.max])).toEqual([
      ["A", -2, 12],
      ["B", 7, 7],
    ]);
    const dates = new RecordCompute(computeSpec({ count_by: "name", sum: "at" }, "") ?? {});
    // Text order would put "2026-11-02T01:00:00+05:00" after "2026-11-01T23:00:00Z"; its instant is before.
    for (const at of ["2026-11-01T23:00:00Z", "2026-11-02T01:00:00+05:00", "2026-11-03"])
      dates.see({ name: "A", at });
    expect(dates.finish([])).toEqual([
      {
        name: "A",
        count: 3,
        percent: 100,
        sum: null,
        mean: null,
        // The middle instant, as its record wrote it.
        median: "2026-11-01T23:00:00Z",
        min: "2026-11-02T01:00:00+05:00",
        max: "2026-11-03",
      },
    ]);
    expect(dates.sumTotal).toBeUndefined();
    expect(dates.sumRange).toEqual({ min: "2026-11-02T01:00:00+05:00", max: "2026-11-03" });
  });

  it("refuses a field of numbers in one record and dates in another, naming a value and the fix", () => {
    const mixed = new RecordCompute(computeSpec({ count_by: "name", sum: "at" }, "") ?? {});
    mixed.see({ name: "A", at: 5 });
    expect(() => mixed.see({ name: "B", at: "2026-11-03" })).toThrow(
      /at holds both numbers and dates \("2026-11-03"\): sum takes a field of one kind\..*all numbers or all dates, or count by at instead/,
    );
  });
});

describe("sum's first and last on the call's clock", () => {
  it("orders a date without an offset on time_zone's clock, as where reads it (review s41, 1)", () => {
    // On Tokyo's clock "2026-01-05" starts at 2026-01-04T15:00Z, before 20:00Z; in UTC it is after.
    const values = ["2026-01-05", "2026-01-04T20:00:00Z"];
    const of = (zone?: string) => {
      const compute = new RecordCompute(
        computeSpec(
          { count_by: "name", sum: "at", order_by: "min", ...(zone ? { time_zone: zone } : {}) },
          "",
        ) ?? {},
      );
      for (const at of values) compute.see({ name: "A", at });
      compute.see({ name: "B", at: "2026-01-04T18:00:00Z" });
      return compute.finish([]).map((row) => [row.name, row.min, row.max]);
    };
    expect(of()).toEqual([
      ["B", "2026-01-04T18:00:00Z", "2026-01-04T18:00:00Z"],
      ["A", "2026-01-04T20:00:00Z", "2026-01-05"],
    ]);
    expect(of("Asia/Tokyo")).toEqual([
      ["A", "2026-01-05", "2026-01-04T20:00:00Z"],
      ["B", "2026-01-04T18:00:00Z", "2026-01-04T18:00:00Z"],
    ]);
  });

  it("refuses an order by sum or mean of dates, naming min or max, which work; a median is a date", () => {
    const spec = (order: string) => computeSpec({ count_by: "name", sum: "at", order_by: order }, "") ?? {};
    for (const [order, hint] of [
      ["-sum", "-max"],
      ["mean", "min"],
    ] as const) {
      const compute = new RecordCompute(spec(order as string));
      compute.see({ name: "A", at: "2026-01-05" });
      expect(() => compute.finish([])).toThrow(
        new RegExp(
          `at holds dates, which are not added: each row's ${order.replace("-", "")} is empty.*order_by "${hint}"`,
        ),
      );
      const followed = new RecordCompute(spec(hint as string));
      followed.see({ name: "A", at: "2026-01-05" });
      expect(followed.finish([])).toHaveLength(1);
    }
  });
});

describe('sum "a - b" of dates, added', () => {
  // Review s59: 3,000 differences of 4 decimals added to 54528.17260000016, said as 54528.1726000002 at 15 digits.
  it("keeps a group's sum and the total free of floating-point noise", () => {
    const compute = new RecordCompute(
      computeSpec({ count_by: "name", sum: "updatedAt - createdAt" }, "") ?? {},
    );
    const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
    for (let i = 0; i < 3000; i++) {
      const created = Date.UTC(2024, 0, 1) + ((i * 79190) % 86_400_000) * 7 + i * 1000;
      compute.see({
        name: "A",
        createdAt: iso(created),
        updatedAt: iso(created + ((i * 1_047_290) % (86_400_000 * 300))),
      });
    }
    const [row] = compute.finish([]);
    expect(row?.sum).toBe(54528.1726);
    expect(compute.sumTotal).toBe(54528.1726);
  });
});
