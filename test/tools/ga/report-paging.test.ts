/**
 * A report page's kept result when MARTECH_STEPS_RESULT_MAX_BYTES is set below the answer's own cap: it
 * still holds every row the answer shows (the property test in properties/report-page-cap.test.ts found it
 * held one row of 17 shown, under a hint and a link that called it the full result).
 */
import { describe, expect, it } from "vitest";
import { pageReport } from "../../../src/tools/ga/report-paging.js";

describe("a report page's kept result", () => {
  it("holds at least the rows the answer shows, whatever the kept size", () => {
    const rows = Array.from({ length: 18 }, (_, i) => ({
      pagePath: `/${"p".repeat(2_500)}${i}`,
      sessions: i,
    }));
    const page = pageReport(
      { rows, totals: [], rowCount: 18 },
      { first: 0, columns: ["pagePath", "sessions"], keepBytes: 1_000, realtime: false },
    );
    expect(page.rows.length).toBeLessThan(18);
    expect(page.full?.items).toEqual(rows.slice(0, page.full?.items.length));
    expect(page.full?.items.length).toBeGreaterThanOrEqual(page.rows.length);
    expect(page.hints.join(" ")).toContain(
      `The first ${page.full?.items.length} of the 18 rows GA returned (rows 1–${page.full?.items.length}) are in the full result`,
    );
  });
});
