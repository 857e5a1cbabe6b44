/**
 * A report sorted in the step is read whole (at most 10,000 rows): past that, the refusal names what read it
 * whole, limit per (review s43, 7: it spoke of "a sort on a column worked out here" to a call that asked for
 * "10 per date") or the sort.
 */
import { describe, expect, it } from "vitest";
import type { RunReportResponse } from "../../../src/connectors/google/types.js";
import { ValidationError } from "../../../src/errors.js";
import { sortedHere } from "../../../src/tools/ga/report-ratios.js";

const cut: RunReportResponse = {
  dimensionHeaders: [{ name: "date" }],
  metricHeaders: [{ name: "sessions", type: "TYPE_INTEGER" }],
  rows: [{ dimensionValues: [{ value: "20261201" }], metricValues: [{ value: "5" }] }],
  rowCount: 20_000,
};
const refusal = (perGroup: boolean): ValidationError => {
  try {
    sortedHere(cut, [{ name: "sessions", desc: true }], perGroup);
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error("not refused");
};

describe("a report read whole past 10,000 rows", () => {
  it("is refused on limit when limit per read it whole, on order_by when a sort did", () => {
    const each = refusal(true);
    expect(each.message).toContain("Invalid limit: limit per reads the whole report: at most 10000 rows.");
    expect(each.message).not.toContain("a sort on a column worked out here");
    expect(refusal(false).message).toContain("Invalid order_by: a sort on a column worked out here");
    expect(each.message).toContain(
      "This report has 20000 rows: narrow it with a filter or fewer dimensions.",
    );
  });
});
