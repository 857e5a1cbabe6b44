import { describe, expect, it } from "vitest";
import { totalsLabel } from "../../console/src/totals-label.js";

describe("totalsLabel", () => {
  it("says the totals cover every row of the report when fewer rows are shown", () => {
    expect(totalsLabel(10, 15)).toBe("Total, all 15 rows");
    expect(totalsLabel(10, 1500)).toBe("Total, all 1,500 rows");
  });

  it("keeps 'Total' when the rows shown are the report's rows, or their count is unknown", () => {
    expect(totalsLabel(15, 15)).toBe("Total");
    expect(totalsLabel(3, undefined)).toBe("Total");
  });
});
