/**
 * The change of a merged two-range row, as a property over generated pairs of values: `from` plus the
 * reported change gives `to` within the stated precision (0.005, or 0.05 % of the change when it is under 1
 * in size: 2 decimals or 4 significant digits), a change that is not 0 never reads 0 and keeps its sign.
 * A rate's change (sessionKeyEventRate 0.0431 → 0.0398) was rounded to 2 decimals: 0 on every row.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareRanges } from "../../../../src/tools/ga/report-compare.js";
import { SEED } from "../../../helpers/ga-properties.js";

const RANGES = [
  { start_date: "2026-10-01", end_date: "2026-10-31", name: "earlier" },
  { start_date: "2026-11-01", end_date: "2026-11-30", name: "later" },
];

/** The merged change of one metric whose values are `from` in the earlier range and `to` in the later one. */
function merged(from: number, to: number): number {
  const rows = [
    { country: "France", dateRange: "earlier", rate: from },
    { country: "France", dateRange: "later", rate: to },
  ];
  const comparison = compareRanges(
    { rows, totals: [] },
    { dimensions: ["country", "dateRange"], metrics: ["rate"] },
    RANGES,
    { order: [], metricFilter: false },
  );
  return Number(comparison?.rows[0]?.rate_change);
}

const value = fc.oneof(
  fc.double({ min: 0, max: 1, noNaN: true }),
  fc.integer({ min: 0, max: 10_000_000 }),
  fc.double({ min: -1e6, max: 1e6, noNaN: true }),
);

describe("A merged row's change", () => {
  it("re-added to the first value gives the second within its precision; never 0 when they differ", () => {
    fc.assert(
      fc.property(value, value, (from, to) => {
        const difference = to - from;
        const change = merged(from, to);
        const within = Math.abs(difference) < 1 ? Math.abs(difference) * 5e-4 : 0.005;
        expect(Math.abs(from + change - to)).toBeLessThanOrEqual(
          within + (Math.abs(from) + Math.abs(to)) * 1e-12,
        );
        if (difference !== 0) expect(Math.sign(change)).toBe(Math.sign(difference));
      }),
      { seed: SEED, numRuns: 500 },
    );
  });

  it("keeps a rate's change of a few thousandths (the trial's rows)", () => {
    expect(merged(0.0431, 0.0398)).toBe(-0.0033);
    expect(merged(0.6123, 0.6077)).toBe(-0.0046);
    expect(merged(1200, 1535)).toBe(335);
  });
});
